// VK_ARM_tensors: tensors emulated over storage buffers (tensor_*), their shaders lowered to
// storage-buffer code (lowering::Emulated::ArmTensors, the contract in lowering/arm_tensors.h).
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability arm_tensors_capability();

// What the layer reports in VkPhysicalDeviceTensorPropertiesARM, and checks tensors against.
VkPhysicalDeviceTensorPropertiesARM tensor_properties(const PhysicalDeviceFacts& facts);

// Bytes of a tensor descriptor in a descriptor buffer: the two storage-buffer descriptors of the
// contract; 0 where the layer cannot put tensor descriptors in descriptor buffers.
size_t tensor_descriptor_size(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
