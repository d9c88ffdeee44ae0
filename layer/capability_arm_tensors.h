// VK_ARM_tensors: tensors emulated over storage buffers (tensor_*), their shaders lowered to
// storage-buffer code (lowering::Emulated::ArmTensors, the contract in lowering/arm_tensors.h).
#pragma once

#include "capabilities.h"

namespace vkpolyfill {

Capability arm_tensors_capability();

// What the layer reports in VkPhysicalDeviceTensorPropertiesARM, and checks tensors against.
VkPhysicalDeviceTensorPropertiesARM tensor_properties(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
