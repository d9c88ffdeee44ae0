// The driver's own VK_KHR_cooperative_matrix configurations, for the lowering
// (lowering::Target::native_matrices): which matrices a module that declares only
// SPV_KHR_cooperative_matrix may leave to the driver, and what coopmat2's workgroup-scope
// multiply-adds may run on (the matrix_units setting).
#pragma once

#include <vector>

#include <vkpolyfill/lowering/cooperative_matrix.h>

#include "core/physical_device_facts.h"

namespace vkpolyfill {

// The driver's subgroup-scope configurations where the device was created with its
// VK_KHR_cooperative_matrix and the cooperativeMatrix feature (`create_info` as the driver got it),
// else none.
std::vector<lowering::CooperativeMatrixConfiguration> native_matrices(const PhysicalDeviceFacts& facts,
                                                                      const VkDeviceCreateInfo& create_info);

}  // namespace vkpolyfill
