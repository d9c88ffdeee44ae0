#include "device_report.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "debug_messages.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kKhr = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
constexpr const char* kNv2 = VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME;
constexpr const char* kDecode = VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME;
constexpr const char* kTensors = VK_ARM_TENSORS_EXTENSION_NAME;
constexpr const char* kTileImage = VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME;
constexpr const char* kFloat16 = VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME;

// The feature structs, each with its members' names, in the order the structs declare them.
struct Features {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR khr = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV nv2 = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV decode = vku::InitStructHelper();
    VkPhysicalDeviceTensorFeaturesARM tensors = vku::InitStructHelper();
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image = vku::InitStructHelper();
    VkPhysicalDeviceShaderFloat16Int8Features float16 = vku::InitStructHelper();

    // (extension, member name, the member) for every bit.
    std::vector<std::pair<FeatureBit, const VkBool32*>> bits() const {
        return {{{kKhr, "cooperativeMatrix"}, &khr.cooperativeMatrix},
                {{kKhr, "cooperativeMatrixRobustBufferAccess"}, &khr.cooperativeMatrixRobustBufferAccess},
                {{kNv2, "cooperativeMatrixWorkgroupScope"}, &nv2.cooperativeMatrixWorkgroupScope},
                {{kNv2, "cooperativeMatrixFlexibleDimensions"}, &nv2.cooperativeMatrixFlexibleDimensions},
                {{kNv2, "cooperativeMatrixReductions"}, &nv2.cooperativeMatrixReductions},
                {{kNv2, "cooperativeMatrixConversions"}, &nv2.cooperativeMatrixConversions},
                {{kNv2, "cooperativeMatrixPerElementOperations"}, &nv2.cooperativeMatrixPerElementOperations},
                {{kNv2, "cooperativeMatrixTensorAddressing"}, &nv2.cooperativeMatrixTensorAddressing},
                {{kNv2, "cooperativeMatrixBlockLoads"}, &nv2.cooperativeMatrixBlockLoads},
                {{kDecode, "cooperativeMatrixDecodeVector"}, &decode.cooperativeMatrixDecodeVector},
                {{kTensors, "tensors"}, &tensors.tensors},
                {{kTensors, "tensorNonPacked"}, &tensors.tensorNonPacked},
                {{kTensors, "shaderTensorAccess"}, &tensors.shaderTensorAccess},
                {{kTensors, "shaderStorageTensorArrayDynamicIndexing"}, &tensors.shaderStorageTensorArrayDynamicIndexing},
                {{kTensors, "shaderStorageTensorArrayNonUniformIndexing"}, &tensors.shaderStorageTensorArrayNonUniformIndexing},
                {{kTensors, "descriptorBindingStorageTensorUpdateAfterBind"}, &tensors.descriptorBindingStorageTensorUpdateAfterBind},
                {{kTileImage, "shaderTileImageColorReadAccess"}, &tile_image.shaderTileImageColorReadAccess},
                {{kTileImage, "shaderTileImageDepthReadAccess"}, &tile_image.shaderTileImageDepthReadAccess},
                {{kTileImage, "shaderTileImageStencilReadAccess"}, &tile_image.shaderTileImageStencilReadAccess},
                {{kFloat16, "shaderFloat16"}, &float16.shaderFloat16}};
    }
    // The structs of the extensions the device lists, chained.
    void* chain(const std::set<std::string>& extensions) {
        void* head = nullptr;
        const std::pair<const char*, VkBaseOutStructure*> structs[] = {
            {kKhr, reinterpret_cast<VkBaseOutStructure*>(&khr)},
            {kNv2, reinterpret_cast<VkBaseOutStructure*>(&nv2)},
            {kDecode, reinterpret_cast<VkBaseOutStructure*>(&decode)},
            {kTensors, reinterpret_cast<VkBaseOutStructure*>(&tensors)},
            {kTileImage, reinterpret_cast<VkBaseOutStructure*>(&tile_image)},
            {kFloat16, reinterpret_cast<VkBaseOutStructure*>(&float16)}};
        for (const auto& [extension, s] : structs) {
            if (!extensions.count(extension)) continue;
            s->pNext = static_cast<VkBaseOutStructure*>(head);
            head = s;
        }
        return head;
    }
};

std::vector<FeatureBit> all_bits() {
    std::vector<FeatureBit> bits;
    for (const auto& [bit, field] : Features().bits()) bits.push_back(bit);
    return bits;
}

std::set<std::string> device_extensions(VkPhysicalDevice physical_device) {
    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> listed(count);
    check(vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, listed.data()),
          "vkEnumerateDeviceExtensionProperties");
    std::set<std::string> names;
    for (const VkExtensionProperties& e : listed) names.insert(e.extensionName);
    return names;
}

}  // namespace

std::span<const FeatureBit> feature_bits() {
    static const std::vector<FeatureBit> bits = all_bits();
    return bits;
}

std::span<const char* const> capability_extensions() {
    static const char* const extensions[] = {kKhr, kNv2, kDecode, kTensors, kTileImage, kFloat16};
    return extensions;
}

bool is_vulkan_capability(const std::string& extension) {
    const auto all = capability_extensions();
    return std::find(all.begin(), all.end(), extension) != all.end();
}

std::span<const ReducibleLimit> reducible_limits() {
    static constexpr ReducibleLimit kLimits[] = {
        {"maxBoundDescriptorSets", &VkPhysicalDeviceLimits::maxBoundDescriptorSets, 4},
        {"maxPerStageDescriptorInputAttachments", &VkPhysicalDeviceLimits::maxPerStageDescriptorInputAttachments, 4},
        {"maxDescriptorSetInputAttachments", &VkPhysicalDeviceLimits::maxDescriptorSetInputAttachments, 4},
        {"maxPerStageResources", &VkPhysicalDeviceLimits::maxPerStageResources, 128},
    };
    return kLimits;
}

DeviceReport read_device(bool layer, DebugMessages* messages) {
    const char* layer_name = kLayerName;
    VkApplicationInfo app = vku::InitStructHelper();
    app.apiVersion = VK_API_VERSION_1_3;
    VkDebugUtilsMessengerCreateInfoEXT chained{};
    if (messages) chained = messages->create_info();
    const char* debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info = vku::InitStructHelper(messages ? &chained : nullptr);
    info.pApplicationInfo = &app;
    info.enabledLayerCount = layer ? 1 : 0;
    info.ppEnabledLayerNames = &layer_name;
    info.enabledExtensionCount = messages ? 1 : 0;
    info.ppEnabledExtensionNames = &debug_utils;
    VkInstance instance;
    check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
    volkLoadInstanceOnly(instance);
    DeviceReport report;
    try {
        std::optional<ScopedMessenger> messenger;
        if (messages) messenger.emplace(instance, *messages);
        uint32_t count = 1;
        VkPhysicalDevice physical_device = VK_NULL_HANDLE;
        const VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical_device);
        if (enumerated != VK_INCOMPLETE) check(enumerated, "vkEnumeratePhysicalDevices");
        if (count == 0) throw std::runtime_error("no physical device");
        VkPhysicalDeviceVulkan12Properties driver = vku::InitStructHelper();
        VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&driver);
        vkGetPhysicalDeviceProperties2(physical_device, &properties);
        report.device_name = properties.properties.deviceName;
        report.driver_info = std::string(driver.driverName) + " " + driver.driverInfo;
        for (const ReducibleLimit& limit : reducible_limits()) report.limits[limit.name] = properties.properties.limits.*limit.member;
        report.extensions = device_extensions(physical_device);
        Features features;
        VkPhysicalDeviceFeatures2 query = vku::InitStructHelper(features.chain(report.extensions));
        vkGetPhysicalDeviceFeatures2(physical_device, &query);
        for (const auto& [bit, field] : features.bits()) {
            if (*field == VK_TRUE) report.features.insert(bit.name);
        }
    } catch (...) {
        vkDestroyInstance(instance, nullptr);
        throw;
    }
    vkDestroyInstance(instance, nullptr);
    return report;
}

std::map<std::string, Decision> layer_decisions(const DebugMessages& messages) {
    // "<device>: <extension> <provision> (<reason>)", see layer/core/instance_data.cpp; the device's name
    // may hold ": " and " (" itself ("AMD Radeon RX 6800 (RADV NAVI21)").
    std::map<std::string, Decision> decisions;
    for (const DebugMessage& m : messages.all()) {
        if (m.id != "vkpolyfill-capability") continue;
        size_t start = m.text.find(": VK_");
        if (start == std::string::npos) start = m.text.find(": SPV_");
        const size_t space = start == std::string::npos ? start : m.text.find(' ', start + 2);
        const size_t open = space == std::string::npos ? space : m.text.find(" (", space);
        if (open == std::string::npos) continue;
        Decision d{m.text.substr(space + 1, open - space - 1), m.text.substr(open + 2)};
        if (!d.reason.empty() && d.reason.back() == ')') d.reason.pop_back();
        decisions[m.text.substr(start + 2, space - start - 2)] = d;
    }
    return decisions;
}

}  // namespace vkpolyfill::test
