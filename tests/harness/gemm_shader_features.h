// The device features tests/coopmat_khr.comp needs (16-bit storage, float16, the Vulkan memory model)
// and VK_KHR_cooperative_matrix's, chained from `features13` (a ContextOptions::device_features_next)
// to `coopmat`, whose pNext may continue the chain.
#pragma once

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::test {

struct GemmShaderFeatures {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    VkPhysicalDeviceVulkan11Features features11 = vku::InitStructHelper(&coopmat);
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features11);
    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper(&features12);

    // cooperativeMatrix as `enable_coopmat` (the struct stays chained either way).
    explicit GemmShaderFeatures(bool enable_coopmat) {
        coopmat.cooperativeMatrix = enable_coopmat;
        features11.storageBuffer16BitAccess = VK_TRUE;
        features12.shaderFloat16 = VK_TRUE;
        features12.vulkanMemoryModel = VK_TRUE;
    }
    GemmShaderFeatures(const GemmShaderFeatures&) = delete;  // the chain points into itself
    GemmShaderFeatures& operator=(const GemmShaderFeatures&) = delete;
};

}  // namespace vkpolyfill::test
