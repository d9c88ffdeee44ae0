#include "bench_device.h"

#include <cstring>
#include <stdexcept>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "component_names.h"

namespace vkpolyfill::bench {
namespace {

constexpr const char* kCoopmat = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
constexpr const char* kCoopmat2 = VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME;
constexpr const char* kExecutableInfo = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;

// The feature structs the shaders may need, chained; the cooperative-matrix ones only at the head.
struct Features {
    // The compilers' statistics (pipeline_statistics.h), chained only where the device lists the extension.
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info = vku::InitStructHelper();
    VkPhysicalDeviceVulkan11Features v11 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features v12 = vku::InitStructHelper(&v11);
    VkPhysicalDeviceVulkan13Features v13 = vku::InitStructHelper(&v12);
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper(&v13);
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2 = vku::InitStructHelper(&coopmat);

    Features() = default;
    Features(const Features&) = delete;
    Features& operator=(const Features&) = delete;
    void* chain(bool with_coopmat, bool with_coopmat2, bool with_executable_info) {
        v11.pNext = with_executable_info ? &executable_info : nullptr;
        if (with_coopmat && with_coopmat2) return &coopmat2;
        return with_coopmat ? static_cast<void*>(&coopmat) : &v13;
    }

    // The bits the GEMM and attention shaders use, where `supported` has them.
    void enable_from(const Features& supported) {
        v11.storageBuffer16BitAccess = supported.v11.storageBuffer16BitAccess;
        v12.shaderFloat16 = supported.v12.shaderFloat16;
        v12.vulkanMemoryModel = supported.v12.vulkanMemoryModel;
        v13.subgroupSizeControl = supported.v13.subgroupSizeControl;
        v13.computeFullSubgroups = supported.v13.computeFullSubgroups;
        coopmat.cooperativeMatrix = supported.coopmat.cooperativeMatrix;
        coopmat2.cooperativeMatrixWorkgroupScope = supported.coopmat2.cooperativeMatrixWorkgroupScope;
        coopmat2.cooperativeMatrixFlexibleDimensions = supported.coopmat2.cooperativeMatrixFlexibleDimensions;
        coopmat2.cooperativeMatrixReductions = supported.coopmat2.cooperativeMatrixReductions;  // the attention kernel's
        coopmat2.cooperativeMatrixConversions = supported.coopmat2.cooperativeMatrixConversions;
        coopmat2.cooperativeMatrixPerElementOperations = supported.coopmat2.cooperativeMatrixPerElementOperations;
        executable_info.pipelineExecutableInfo = supported.executable_info.pipelineExecutableInfo;
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

struct Offered {
    bool coopmat = false;   // VK_KHR_cooperative_matrix
    bool coopmat2 = false;  // VK_NV_cooperative_matrix2 (with the KHR extension, which it requires)
    bool executable_info = false;  // VK_KHR_pipeline_executable_properties
};

// Learns, on an instance of its own with a messenger attached (so what the layer says about its
// settings and per-device decisions is heard), whether the device offers VK_KHR_cooperative_matrix
// and VK_NV_cooperative_matrix2 and which features it has.
Offered probe(const test::ContextOptions& options, test::DebugMessages& messages, Features& supported) {
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
    Offered offered;
    if (count > 0) {
        offered.coopmat = has_device_extension(physical_device, kCoopmat);
        offered.coopmat2 = offered.coopmat && has_device_extension(physical_device, kCoopmat2);
        offered.executable_info = has_device_extension(physical_device, kExecutableInfo);
        VkPhysicalDeviceFeatures2 query =
            vku::InitStructHelper(supported.chain(offered.coopmat, offered.coopmat2, offered.executable_info));
        vkGetPhysicalDeviceFeatures2(physical_device, &query);
    }
    if (messenger != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    if (count == 0) throw std::runtime_error("no physical device");
    return offered;
}

template <typename Properties>
std::string types_name(const Properties& p) {
    return std::string(test::short_name(p.AType)) + "*" + std::string(test::short_name(p.BType)) + "->" +
           std::string(test::short_name(p.ResultType));
}

template <typename Properties>
bool f16_to_f32(const Properties& p) {
    return p.AType == VK_COMPONENT_TYPE_FLOAT16_KHR && p.BType == VK_COMPONENT_TYPE_FLOAT16_KHR &&
           p.CType == VK_COMPONENT_TYPE_FLOAT32_KHR && p.ResultType == VK_COMPONENT_TYPE_FLOAT32_KHR;
}

}  // namespace

std::string MatrixShape::name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

BenchDevice::BenchDevice(Route r) : route(r) {
    // Through the layer: force the emulation of both extensions, and listen to what the layer decides.
    const char* forced[] = {kCoopmat, kCoopmat2};
    const VkLayerSettingEXT force{test::kLayerName, "force_emulation", VK_LAYER_SETTING_TYPE_STRING_EXT, 2, forced};
    VkLayerSettingsCreateInfoEXT settings = vku::InitStructHelper();
    settings.settingCount = 1;
    settings.pSettings = &force;
    test::ContextOptions options{.layer = route != Route::Native};
    if (route == Route::Emulated) {
        options.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_LAYER_SETTINGS_EXTENSION_NAME};
        options.instance_next = &settings;
    } else if (route == Route::PassThrough) {
        options.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    }

    // On the pass-through route the application asks for what the driver offers without the layer.
    Features supported, enabled;
    test::ContextOptions probed = options;
    probed.layer = route == Route::Emulated;
    const Offered offered = probe(probed, messages_, supported);
    const bool has_coopmat = offered.coopmat;
    enabled.enable_from(supported);
    if (has_coopmat) options.device_extensions = {kCoopmat};
    if (offered.coopmat2) options.device_extensions.push_back(kCoopmat2);
    if (offered.executable_info) options.device_extensions.push_back(kExecutableInfo);
    options.device_features_next = enabled.chain(has_coopmat, offered.coopmat2, offered.executable_info);
    context_ = std::make_unique<test::Context>(options);
    if (options.layer) {
        const VkDebugUtilsMessengerCreateInfoEXT messenger = messages_.create_info();
        test::check(vkCreateDebugUtilsMessengerEXT(context_->instance, &messenger, nullptr, &messenger_),
                    "vkCreateDebugUtilsMessengerEXT");
    }

    read_properties(enabled.v13);
    captures_statistics = enabled.executable_info.pipelineExecutableInfo;
    coopmat_missing_ = !has_coopmat ? (route == Route::Emulated ? "the layer does not offer VK_KHR_cooperative_matrix here"
                                                                : "the driver lacks VK_KHR_cooperative_matrix")
                                    : enabled.coopmat_shader_missing();
    if (coopmat_missing_.empty() && route == Route::Emulated) coopmat_missing_ = why_not_emulated(kCoopmat);
    if (coopmat_missing_.empty()) {
        uint32_t count = 0;
        vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(context_->physical_device, &count, nullptr);
        shapes_.resize(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
        vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(context_->physical_device, &count, shapes_.data());
    }
    read_coopmat2(offered.coopmat2, enabled.coopmat2);
}

void BenchDevice::read_coopmat2(bool offered, const VkPhysicalDeviceCooperativeMatrix2FeaturesNV& enabled) {
    const char* whose = route == Route::Emulated ? "the layer does not offer " : "the driver lacks ";
    if (!coopmat_missing_.empty()) {
        coopmat2_missing_ = coopmat_missing_;
    } else if (!offered) {
        coopmat2_missing_ = whose + std::string(kCoopmat2);
    } else if (route == Route::Emulated) {
        coopmat2_missing_ = why_not_emulated(kCoopmat2);
    }
    workgroup_scope_ = enabled.cooperativeMatrixWorkgroupScope;
    flexible_dimensions_ = enabled.cooperativeMatrixFlexibleDimensions;
    if (!coopmat2_missing_.empty()) return;
    VkPhysicalDeviceCooperativeMatrix2PropertiesNV coopmat2 = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&coopmat2);
    vkGetPhysicalDeviceProperties2(context_->physical_device, &properties);
    max_workgroup_scope_invocations_ = coopmat2.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
    uint32_t count = 0;
    vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(context_->physical_device, &count, nullptr);
    flexible_shapes_.resize(count, vku::InitStruct<VkCooperativeMatrixFlexibleDimensionsPropertiesNV>());
    vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(context_->physical_device, &count, flexible_shapes_.data());
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

std::string BenchDevice::why_not_emulated(const char* extension) const {
    // The layer names its decision for each capability on each device; without "emulated" it
    // would pass the shader to the driver and the "emulated" figures would be native ones.
    if (messages_.count("vkpolyfill-capability", std::string(extension) + " emulated") > 0) return {};
    std::string why;
    for (const test::DebugMessage& m : messages_.all()) {
        if (m.id == "vkpolyfill-capability" && m.text.find(extension) != std::string::npos) why += ": " + m.text;
    }
    if (why.empty() && !layer_problems().empty()) why = " (layer: " + layer_problems() + ")";
    return std::string("the layer does not emulate ") + extension + " on this device" + why;
}

std::string BenchDevice::coopmat_unavailable(const MatrixShape& shape) const {
    if (!coopmat_missing_.empty()) return coopmat_missing_;
    std::string offered;
    for (const VkCooperativeMatrixPropertiesKHR& p : shapes_) {
        if (p.scope != VK_SCOPE_SUBGROUP_KHR) continue;
        if (p.MSize == shape.m && p.NSize == shape.n && p.KSize == shape.k && f16_to_f32(p)) return {};
        offered += " " + MatrixShape{p.MSize, p.NSize, p.KSize}.name() + " " + types_name(p) + ";";
    }
    return "no subgroup-scope " + shape.name() + " f16*f16->f32 shape (offered:" + (offered.empty() ? " none" : offered) + ")";
}

std::string BenchDevice::flexible_unavailable(const MatrixShape& shape, uint32_t workgroup_invocations) const {
    if (!coopmat2_missing_.empty()) return coopmat2_missing_;
    if (!flexible_dimensions_) return "no cooperativeMatrixFlexibleDimensions";
    const bool workgroup = workgroup_invocations > 0;
    if (workgroup && !workgroup_scope_) return "no cooperativeMatrixWorkgroupScope";
    if (workgroup && workgroup_invocations > max_workgroup_scope_invocations_) {
        return "workgroup scope allows " + std::to_string(max_workgroup_scope_invocations_) + " invocations at most";
    }
    const VkScopeKHR scope = workgroup ? VK_SCOPE_WORKGROUP_KHR : VK_SCOPE_SUBGROUP_KHR;
    std::string offered;
    for (const VkCooperativeMatrixFlexibleDimensionsPropertiesNV& p : flexible_shapes_) {
        if (p.scope != scope || (workgroup && p.workgroupInvocations != workgroup_invocations)) continue;
        if (shape.m % p.MGranularity == 0 && shape.n % p.NGranularity == 0 && shape.k % p.KGranularity == 0 && f16_to_f32(p)) {
            return {};
        }
        offered += " " + MatrixShape{p.MGranularity, p.NGranularity, p.KGranularity}.name() + " " + types_name(p) + ";";
    }
    const std::string where = workgroup ? "workgroup-scope (" + std::to_string(workgroup_invocations) + " invocations)"
                                        : std::string("subgroup-scope");
    return "no " + where + " f16*f16->f32 flexible-dimension granularity dividing " + shape.name() +
           " (offered:" + (offered.empty() ? " none" : offered) + ")";
}

std::string BenchDevice::layer_problems() const { return messages_.problems(); }

}  // namespace vkpolyfill::bench
