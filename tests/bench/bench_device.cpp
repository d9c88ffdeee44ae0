#include "bench_device.h"

#include <cstring>
#include <stdexcept>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::bench {
namespace {

constexpr const char* kCoopmat = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;

// The feature structs the shaders may need, chained; the cooperative-matrix one only at the head.
struct Features {
    VkPhysicalDeviceVulkan11Features v11 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features v12 = vku::InitStructHelper(&v11);
    VkPhysicalDeviceVulkan13Features v13 = vku::InitStructHelper(&v12);
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper(&v13);

    Features() = default;
    Features(const Features&) = delete;
    Features& operator=(const Features&) = delete;
    void* chain(bool with_coopmat) { return with_coopmat ? static_cast<void*>(&coopmat) : &v13; }

    // The bits the GEMM shaders use, where `supported` has them.
    void enable_from(const Features& supported) {
        v11.storageBuffer16BitAccess = supported.v11.storageBuffer16BitAccess;
        v12.shaderFloat16 = supported.v12.shaderFloat16;
        v12.vulkanMemoryModel = supported.v12.vulkanMemoryModel;
        v13.subgroupSizeControl = supported.v13.subgroupSizeControl;
        v13.computeFullSubgroups = supported.v13.computeFullSubgroups;
        coopmat.cooperativeMatrix = supported.coopmat.cooperativeMatrix;
    }

    // What the coopmat shader needs that is off, or empty.
    std::string coopmat_shader_missing() const {
        std::string missing;
        const std::pair<VkBool32, const char*> needs[] = {{coopmat.cooperativeMatrix, "cooperativeMatrix"},
                                                          {v12.shaderFloat16, "shaderFloat16"},
                                                          {v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"},
                                                          {v12.vulkanMemoryModel, "vulkanMemoryModel"}};
        for (const auto& [on, name] : needs) {
            if (!on) missing += (missing.empty() ? "" : ", ") + std::string(name);
        }
        return missing.empty() ? missing : "the device lacks " + missing;
    }
};

bool has_device_extension(VkPhysicalDevice physical_device, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& e : extensions) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
    }
    return false;
}

// Learns, on an instance of its own with a messenger attached (so what the layer says about its
// settings and per-device decisions is heard), whether the device offers VK_KHR_cooperative_matrix
// and which features it has.
bool probe(const test::ContextOptions& options, test::DebugMessages& messages, Features& supported) {
    test::check(volkInitialize(), "volkInitialize (is the Vulkan loader installed?)");
    const char* layer = test::kLayerName;
    VkApplicationInfo app = vku::InitStructHelper();
    app.apiVersion = options.api_version;
    VkDebugUtilsMessengerCreateInfoEXT chained = messages.create_info();  // hears vkCreateInstance
    chained.pNext = options.instance_next;
    VkInstanceCreateInfo info = vku::InitStructHelper();
    info.pNext = options.layer ? &chained : options.instance_next;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = options.layer ? 1 : 0;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = static_cast<uint32_t>(options.instance_extensions.size());
    info.ppEnabledExtensionNames = options.instance_extensions.data();
    VkInstance instance;
    test::check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
    volkLoadInstanceOnly(instance);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    if (options.layer) {
        const VkDebugUtilsMessengerCreateInfoEXT messenger_info = messages.create_info();
        test::check(vkCreateDebugUtilsMessengerEXT(instance, &messenger_info, nullptr, &messenger),
                    "vkCreateDebugUtilsMessengerEXT");
    }
    uint32_t count = 1;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    const VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical_device);
    if (enumerated != VK_INCOMPLETE) test::check(enumerated, "vkEnumeratePhysicalDevices");
    bool has_coopmat = false;
    if (count > 0) {
        has_coopmat = has_device_extension(physical_device, kCoopmat);
        VkPhysicalDeviceFeatures2 query = vku::InitStructHelper(supported.chain(has_coopmat));
        vkGetPhysicalDeviceFeatures2(physical_device, &query);
    }
    if (messenger != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    if (count == 0) throw std::runtime_error("no physical device");
    return has_coopmat;
}

std::string component_name(VkComponentTypeKHR type) {
    switch (type) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return "f16";
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return "f32";
        case VK_COMPONENT_TYPE_SINT8_KHR: return "s8";
        case VK_COMPONENT_TYPE_UINT8_KHR: return "u8";
        case VK_COMPONENT_TYPE_SINT32_KHR: return "s32";
        case VK_COMPONENT_TYPE_UINT32_KHR: return "u32";
        default: return "type" + std::to_string(type);
    }
}

}  // namespace

std::string MatrixShape::name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

BenchDevice::BenchDevice(Route r) : route(r) {
    // Through the layer: force coopmat emulation, and listen to what the layer decides.
    const char* forced = kCoopmat;
    const VkLayerSettingEXT force{test::kLayerName, "force_emulation", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &forced};
    VkLayerSettingsCreateInfoEXT settings = vku::InitStructHelper();
    settings.settingCount = 1;
    settings.pSettings = &force;
    test::ContextOptions options{.layer = route == Route::Emulated};
    if (route == Route::Emulated) {
        options.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_LAYER_SETTINGS_EXTENSION_NAME};
        options.instance_next = &settings;
    }

    Features supported, enabled;
    const bool has_coopmat = probe(options, messages_, supported);
    enabled.enable_from(supported);
    if (has_coopmat) options.device_extensions = {kCoopmat};
    options.device_features_next = enabled.chain(has_coopmat);
    context_ = std::make_unique<test::Context>(options);
    if (route == Route::Emulated) {
        const VkDebugUtilsMessengerCreateInfoEXT messenger = messages_.create_info();
        test::check(vkCreateDebugUtilsMessengerEXT(context_->instance, &messenger, nullptr, &messenger_),
                    "vkCreateDebugUtilsMessengerEXT");
    }

    read_properties(enabled.v13);
    coopmat_missing_ = !has_coopmat ? (route == Route::Emulated ? "the layer does not offer VK_KHR_cooperative_matrix here"
                                                                : "the driver lacks VK_KHR_cooperative_matrix")
                                    : enabled.coopmat_shader_missing();
    if (coopmat_missing_.empty() && route == Route::Emulated) coopmat_missing_ = why_not_emulated();
    if (coopmat_missing_.empty()) {
        uint32_t count = 0;
        vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(context_->physical_device, &count, nullptr);
        shapes_.resize(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
        vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(context_->physical_device, &count, shapes_.data());
    }
}

BenchDevice::~BenchDevice() {
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(context_->instance, messenger_, nullptr);
}

void BenchDevice::read_properties(const VkPhysicalDeviceVulkan13Features& enabled) {
    VkPhysicalDeviceVulkan13Properties p13 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan11Properties p11 = vku::InitStructHelper(&p13);
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&p11);
    vkGetPhysicalDeviceProperties2(context_->physical_device, &properties);
    device_name = properties.properties.deviceName;
    cpu_device = properties.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    subgroup_size = p11.subgroupSize;
    require_subgroup_size = enabled.subgroupSizeControl && (p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    require_full_subgroups = enabled.computeFullSubgroups;

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(context_->physical_device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(context_->physical_device, &family_count, families.data());
    const uint32_t valid_bits = families[context_->queue_family].timestampValidBits;
    if (valid_bits > 0) {
        timestamp_period_ns = properties.properties.limits.timestampPeriod;
        timestamp_mask = valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1;
    }
}

std::string BenchDevice::why_not_emulated() const {
    // The layer names its decision for each capability on each device; without "emulated" it
    // would pass the shader to the driver and the "emulated" figures would be native ones.
    if (messages_.count("vkpolyfill-capability", std::string(kCoopmat) + " emulated") > 0) return {};
    std::string why;
    for (const test::DebugMessage& m : messages_.all()) {
        if (m.id == "vkpolyfill-capability" && m.text.find(kCoopmat) != std::string::npos) why += ": " + m.text;
    }
    if (why.empty() && !layer_problems().empty()) why = " (layer: " + layer_problems() + ")";
    return std::string("the layer does not emulate ") + kCoopmat + " on this device" + why;
}

std::string BenchDevice::coopmat_unavailable(const MatrixShape& shape) const {
    if (!coopmat_missing_.empty()) return coopmat_missing_;
    std::string offered;
    for (const VkCooperativeMatrixPropertiesKHR& p : shapes_) {
        if (p.scope != VK_SCOPE_SUBGROUP_KHR) continue;
        if (p.MSize == shape.m && p.NSize == shape.n && p.KSize == shape.k && p.AType == VK_COMPONENT_TYPE_FLOAT16_KHR &&
            p.BType == VK_COMPONENT_TYPE_FLOAT16_KHR && p.CType == VK_COMPONENT_TYPE_FLOAT32_KHR &&
            p.ResultType == VK_COMPONENT_TYPE_FLOAT32_KHR) {
            return {};
        }
        offered += " " + MatrixShape{p.MSize, p.NSize, p.KSize}.name() + " " + component_name(p.AType) + "*" +
                   component_name(p.BType) + "->" + component_name(p.ResultType) + ";";
    }
    return "no subgroup-scope " + shape.name() + " f16*f16->f32 shape (offered:" + (offered.empty() ? " none" : offered) + ")";
}

std::string BenchDevice::layer_problems() const {
    std::string text;
    for (const test::DebugMessage& m : messages_.all()) {
        if (m.severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) text += (text.empty() ? "" : "; ") + m.text;
    }
    return text;
}

}  // namespace vkpolyfill::bench
