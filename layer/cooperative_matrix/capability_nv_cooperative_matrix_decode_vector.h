// VK_NV_cooperative_matrix_decode_vector: DecodeVectorFunc on tensor loads, lowered with the rest of
// VK_NV_cooperative_matrix2 by lowering::Emulated::NvCooperativeMatrixDecodeVector.
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability nv_cooperative_matrix_decode_vector_capability();

}  // namespace vkpolyfill
