// VK_NV_cooperative_matrix2: workgroup-scope and flexible-dimension matrices, reductions,
// conversions, per-element operations; lowered by lowering::Emulated::NvCooperativeMatrix2.
#pragma once

#include "capabilities.h"

namespace vkpolyfill {

Capability nv_cooperative_matrix2_capability();

// The shared memory the lowering may take for itself on this device, reported as
// cooperativeMatrixWorkgroupScopeReservedSharedMemory: half the device's, so a shader keeps the
// other half for its own arrays.
uint32_t reserved_shared_memory(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
