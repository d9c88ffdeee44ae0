// What the SPV_NV_cooperative_matrix2 tests that lower with the library (no layer) share: the
// device's subgroup size and the Target emulating cooperative matrices and tensor addressing on it.
#pragma once

#include <cstdint>

#include <vulkan/vulkan_core.h>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::test {

uint32_t subgroup_size(VkPhysicalDevice physical_device);

lowering::Target coopmat2_target(VkPhysicalDevice physical_device, uint32_t max_shared_memory_bytes);

}  // namespace vkpolyfill::test
