// Whether VK_NV_cooperative_matrix2's workgroup-scope multiply-adds run on the driver's own
// VK_KHR_cooperative_matrix (lowering::Target::matrix_units).
#pragma once

#include <vector>

#include <vkpolyfill/lowering/cooperative_matrix.h>

#include "core/physical_device_facts.h"
#include "core/settings.h"

namespace vkpolyfill {

// The driver's subgroup-scope configurations the lowering may multiply on, empty when it does not use
// them: the device must have been created with the driver's VK_KHR_cooperative_matrix and its
// cooperativeMatrix feature (as VK_NV_cooperative_matrix2 requires of an application; the layer must
// not be emulating it, force_emulation), and the matrix_units setting decide for them.
std::vector<lowering::CooperativeMatrixConfiguration> matrix_units(const PhysicalDeviceFacts& facts, const Settings& settings,
                                                                   const VkDeviceCreateInfo& create_info);

}  // namespace vkpolyfill
