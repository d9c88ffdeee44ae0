// What a physical device's driver has natively, read once per physical device and kept: the
// extensions, the seed extensions' own feature bits, and the limits and core features the
// lowered code may depend on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

struct PhysicalDeviceFacts {
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceDriverProperties driver{};
    std::vector<VkExtensionProperties> extensions;
    bool has_properties2 = false;  // vkGetPhysicalDevice{Features,Properties}2 are callable

    // Subgroups and compute limits every lowering is parametric in.
    VkPhysicalDeviceSubgroupProperties subgroup{};
    VkPhysicalDeviceSubgroupSizeControlProperties subgroup_size_control{};

    // Core features (1.0-1.4) as the driver reports them.
    VkPhysicalDeviceFeatures features{};
    VkPhysicalDeviceVulkan11Features vulkan11{};
    VkPhysicalDeviceVulkan12Features vulkan12{};
    VkPhysicalDeviceVulkan13Features vulkan13{};
    VkPhysicalDeviceVulkan12Properties vulkan12_properties{};  // descriptor-indexing limits

    // The seed extensions' feature structs: all zero when the driver lacks the extension.
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR khr_cooperative_matrix{};
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV nv_cooperative_matrix2{};
    // The driver's VK_KHR_cooperative_matrix configurations (empty without the feature).
    std::vector<VkCooperativeMatrixPropertiesKHR> khr_cooperative_matrix_configurations;
    VkPhysicalDeviceShaderTileImageFeaturesEXT shader_tile_image{};
    VkPhysicalDeviceTensorFeaturesARM arm_tensors{};

    // Optional arithmetic the emulations can offer matrix types for: zero when the driver lacks it.
    VkPhysicalDeviceShaderBfloat16FeaturesKHR shader_bfloat16{};

    // What tile-image reads are emulated with: local reads in dynamic rendering (the extension, or
    // Vulkan 1.4 with its depth/stencil and multisample properties) and rasterization-order access.
    VkPhysicalDeviceDynamicRenderingLocalReadFeatures local_read{};
    VkPhysicalDeviceVulkan14Properties vulkan14_properties{};
    VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT rasterization_order{};
    // Where a device lacks rasterization-order access: coherent color reads through storage images
    // in a fragment shader interlock.
    VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT fragment_shader_interlock{};

    // Descriptor buffers (VK_EXT_descriptor_buffer), where tensor descriptors can be emulated in them.
    VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer{};
    VkPhysicalDeviceDescriptorBufferPropertiesEXT descriptor_buffer_properties{};

    // The driver's spec version of an extension, 0 if it does not have it.
    uint32_t native_spec_version(std::string_view extension) const;
};

PhysicalDeviceFacts read_physical_device_facts(VkPhysicalDevice physical_device, const VkuInstanceDispatchTable& next);

}  // namespace vkpolyfill
