// A decode function (OpCooperativeMatrixLoadTensorNV's DecodeFunc) rewritten for a StorageBuffer
// source: the spec hands the function a PhysicalStorageBuffer pointer to the element's block, but
// a shader cannot take a descriptor's address. The clone takes the block's byte offset in the
// buffer instead, and everything the original did through the pointer (access chains, pointer
// casts, pointers kept in Function variables, loads) becomes arithmetic on that offset and reads of
// the binding's word view (byte_address.h). The original function stays for any other caller.
#pragma once

#include <cstdint>
#include <string>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// The clone of `function` (its first parameter a PhysicalStorageBuffer pointer) reading through
// `words` (a word view); one per function and view. 0 after setting `why`.
uint32_t decode_through_words(LoweringState& state, uint32_t function, uint32_t words, std::string& why);

}  // namespace vkpolyfill::lowering::cooperative_matrix
