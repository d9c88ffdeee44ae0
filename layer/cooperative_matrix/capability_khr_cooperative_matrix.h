// VK_KHR_cooperative_matrix: subgroup-scope matrices, lowered by lowering::Emulated::KhrCooperativeMatrix.
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability khr_cooperative_matrix_capability();

}  // namespace vkpolyfill
