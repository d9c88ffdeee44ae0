#include "module_device.h"

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::bench {
namespace {

// Every feature struct asked for, each with the extension that brings it (null: core).
struct Features {
    VkPhysicalDeviceFeatures2 core = vku::InitStructHelper();
    VkPhysicalDeviceVulkan11Features v11 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features v12 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan13Features v13 = vku::InitStructHelper();
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2 = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV decode_vector = vku::InitStructHelper();
    VkPhysicalDeviceTensorFeaturesARM tensors = vku::InitStructHelper();
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image = vku::InitStructHelper();
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bfloat16 = vku::InitStructHelper();
    VkPhysicalDeviceShaderFloat8FeaturesEXT float8 = vku::InitStructHelper();

    Features() = default;
    Features(const Features&) = delete;
    Features& operator=(const Features&) = delete;

    // Chains the core structs and those of the `listed` extensions behind `core`; returns the
    // extensions to enable.
    std::vector<const char*> chain(const std::function<bool(const char*)>& listed) {
        const std::pair<const char*, VkBaseOutStructure*> structs[] = {
            {nullptr, reinterpret_cast<VkBaseOutStructure*>(&v11)},
            {nullptr, reinterpret_cast<VkBaseOutStructure*>(&v12)},
            {nullptr, reinterpret_cast<VkBaseOutStructure*>(&v13)},
            {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&executable_info)},
            {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&coopmat)},
            {VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&coopmat2)},
            {VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&decode_vector)},
            {VK_ARM_TENSORS_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&tensors)},
            {VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&tile_image)},
            {VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&bfloat16)},
            {VK_EXT_SHADER_FLOAT8_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&float8)}};
        std::vector<const char*> extensions;
        auto* tail = reinterpret_cast<VkBaseOutStructure*>(&core);
        for (const auto& [extension, s] : structs) {
            if (extension && !listed(extension)) continue;
            if (extension) extensions.push_back(extension);
            tail->pNext = s;
            tail = s;
        }
        tail->pNext = nullptr;
        return extensions;
    }
};

}  // namespace

std::optional<ModuleRoute> module_route(const std::string& name) {
    if (name == "driver") return ModuleRoute::Driver;
    if (name == "layer") return ModuleRoute::Layer;
    if (name == "emulated") return ModuleRoute::Emulated;
    return std::nullopt;
}

ModuleDevice::ModuleDevice(ModuleRoute route) {
    // Forcing every emulation the layer has that applies to compute modules.
    const char* forced[] = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME,
                            VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME, VK_ARM_TENSORS_EXTENSION_NAME};
    const VkLayerSettingEXT force{test::kLayerName, "force_emulation", VK_LAYER_SETTING_TYPE_STRING_EXT, 4, forced};
    VkLayerSettingsCreateInfoEXT settings = vku::InitStructHelper();
    settings.settingCount = 1;
    settings.pSettings = &force;
    test::ContextOptions options{.layer = route != ModuleRoute::Driver};
    if (options.layer) options.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    if (route == ModuleRoute::Emulated) {
        options.instance_extensions.push_back(VK_EXT_LAYER_SETTINGS_EXTENSION_NAME);
        options.instance_next = &settings;
    }

    // A first context without extensions learns what the device (through the layer, on its route)
    // lists and reports; the second enables all of it.
    Features features;
    {
        const test::Context probe(options);
        const auto listed = [&probe](const char* extension) { return test::lists_device_extension(probe.physical_device, extension); };
        options.device_extensions = features.chain(listed);
        vkGetPhysicalDeviceFeatures2(probe.physical_device, &features.core);
    }
    options.device_features = features.core.features;
    options.device_features_next = features.core.pNext;
    context_ = std::make_unique<test::Context>(options);
    if (options.layer) messenger_ = std::make_unique<test::ScopedMessenger>(context_->instance, messages_);
    captures_statistics = features.executable_info.pipelineExecutableInfo;
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context_->physical_device, &properties);
    device_name = properties.deviceName;
}

ModuleDevice::~ModuleDevice() = default;

std::string ModuleDevice::layer_problems() const { return messages_.problems(); }

}  // namespace vkpolyfill::bench
