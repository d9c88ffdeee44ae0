// VK_NV_cooperative_matrix2: workgroup-scope and flexible-dimension matrices, reductions,
// conversions, per-element operations; lowered by lowering::Emulated::NvCooperativeMatrix2.
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability nv_cooperative_matrix2_capability();

// The shared memory the lowering may take for itself on this device, reported as
// cooperativeMatrixWorkgroupScopeReservedSharedMemory: half the device's, so a shader keeps the
// other half for its own arrays.
uint32_t reserved_shared_memory(const PhysicalDeviceFacts& facts);

// For the extensions built on this one (VK_NV_cooperative_matrix_decode_vector): whether the driver
// has all of it (then the layer lowers no module of it), and what the device lacks for the lowering.
bool driver_has_all_of_cooperative_matrix2(const PhysicalDeviceFacts& facts);
std::string cooperative_matrix2_missing_requirements(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
