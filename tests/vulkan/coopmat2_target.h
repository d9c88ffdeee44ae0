// What the SPV_NV_cooperative_matrix2 tests that lower with the library (no layer) share: the
// device's subgroup size and the Target emulating cooperative matrices and tensor addressing on it;
// and the device the block-load (decode function) tests create, with the library or the layer.
#pragma once

#include <cstdint>

#include <vulkan/vulkan_core.h>

#include "vkpolyfill/lowering/lower.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {

// The features the block-load shaders need (16-bit storage, f16, int8, the memory model, buffer
// addresses, which decode functions take) and, through the layer, the cooperative-matrix extensions
// with the bits they use (and VK_NV_cooperative_matrix_decode_vector when `decode_vector`).
class BlockLoadFeatures {
  public:
    BlockLoadFeatures();
    BlockLoadFeatures(const BlockLoadFeatures&) = delete;
    BlockLoadFeatures& operator=(const BlockLoadFeatures&) = delete;
    ContextOptions options(bool through_layer, bool decode_vector = false);

  private:
    VkPhysicalDeviceVulkan11Features v11_{};
    VkPhysicalDeviceVulkan12Features v12_{};
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat_{};
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2_{};
    VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV decode_vector_{};
};

uint32_t subgroup_size(VkPhysicalDevice physical_device);

lowering::Target coopmat2_target(VkPhysicalDevice physical_device, uint32_t max_shared_memory_bytes);

}  // namespace vkpolyfill::test
