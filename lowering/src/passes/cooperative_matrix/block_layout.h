// Where a decode function's blocks sit (decode_call.h): the spec hands it Pointer + index x the size
// of its parameter's pointee, which need not be the element of the array Pointer points into
// (llama.cpp's flash attention reads 34-byte q8_0 blocks out of a uint8_t array).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "passes/cooperative_matrix/element_access.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// The bytes a value of `type` covers in an explicitly laid out block (Offset, ArrayStride; scalars,
// vectors, arrays, structs and PhysicalStorageBuffer pointers). An array length that is a
// specialization constant is frozen to the pipeline's value: the lowered addressing depends on it.
// nullopt after setting `why`.
std::optional<uint64_t> layout_bytes(LoweringState& state, uint32_t type, std::string& why);

// The ArrayStride of the array whose element `path`'s last index selects. nullopt after setting `why`.
std::optional<uint32_t> indexed_array_stride(const ir::Module& module, const AccessPath& path, std::string& why);

}  // namespace vkpolyfill::lowering::cooperative_matrix
