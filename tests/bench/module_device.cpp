#include "module_device.h"

#include <spirv/unified1/spirv.hpp>
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

// The Vulkan extension that lets a module name each SPIR-V extension the layer's capabilities bring.
const std::map<std::string, const char*>& vulkan_extension_of() {
    static const std::map<std::string, const char*> map = {
        {"SPV_KHR_cooperative_matrix", VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME},
        {"SPV_NV_cooperative_matrix2", VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME},
        {"SPV_NV_tensor_addressing", VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME},
        {"SPV_ARM_tensors", VK_ARM_TENSORS_EXTENSION_NAME},
        {"SPV_EXT_shader_tile_image", VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME},
        {"SPV_KHR_bfloat16", VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME},
        {"SPV_EXT_float8", VK_EXT_SHADER_FLOAT8_EXTENSION_NAME}};
    return map;
}

const char* capability_name(uint32_t capability) {
    switch (capability) {
        case spv::CapabilityFloat16: return "shaderFloat16";
        case spv::CapabilityFloat64: return "shaderFloat64";
        case spv::CapabilityInt8: return "shaderInt8";
        case spv::CapabilityInt16: return "shaderInt16";
        case spv::CapabilityInt64: return "shaderInt64";
        case spv::CapabilityStorageBuffer16BitAccess: return "storageBuffer16BitAccess";
        case spv::CapabilityStorageBuffer8BitAccess: return "storageBuffer8BitAccess";
        case spv::CapabilityUniformAndStorageBuffer8BitAccess: return "uniformAndStorageBuffer8BitAccess";
        case spv::CapabilityVulkanMemoryModel: return "vulkanMemoryModel";
        default: return nullptr;
    }
}

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
    extensions_.insert(options.device_extensions.begin(), options.device_extensions.end());
    capabilities_ = {{spv::CapabilityFloat16, features.v12.shaderFloat16},
                     {spv::CapabilityFloat64, features.core.features.shaderFloat64},
                     {spv::CapabilityInt8, features.v12.shaderInt8},
                     {spv::CapabilityInt16, features.core.features.shaderInt16},
                     {spv::CapabilityInt64, features.core.features.shaderInt64},
                     {spv::CapabilityStorageBuffer16BitAccess, features.v11.storageBuffer16BitAccess},
                     {spv::CapabilityStorageBuffer8BitAccess, features.v12.storageBuffer8BitAccess},
                     {spv::CapabilityUniformAndStorageBuffer8BitAccess, features.v12.uniformAndStorageBuffer8BitAccess},
                     {spv::CapabilityVulkanMemoryModel, features.v12.vulkanMemoryModel}};
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context_->physical_device, &properties);
    device_name = properties.deviceName;
}

ModuleDevice::~ModuleDevice() = default;

std::string ModuleDevice::layer_problems() const { return messages_.problems(); }

std::string ModuleDevice::lacks(const test::ModuleInterface& module) const {
    std::set<std::string> missing;
    for (const std::string& extension : module.extensions) {
        const auto needs = vulkan_extension_of().find(extension);
        if (needs != vulkan_extension_of().end() && !extensions_.count(needs->second)) missing.insert(needs->second);
    }
    for (uint32_t capability : module.capabilities) {
        const auto enabled = capabilities_.find(capability);
        if (enabled != capabilities_.end() && !enabled->second) missing.insert(capability_name(capability));
    }
    std::string text;
    for (const std::string& m : missing) text += (text.empty() ? "" : ", ") + m;
    return text;
}

}  // namespace vkpolyfill::bench
