// Typed values read by byte address from a buffer's word view (word_view.h's binding_word_view),
// following the explicit layout decorations (Offset, ArrayStride): how a decode function written
// for a PhysicalStorageBuffer pointer reads a StorageBuffer descriptor instead (decode_call.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class ByteAddress {
  public:
    // `words` is a StorageBuffer variable whose member 0 is a runtime array of uint.
    ByteAddress(LoweringState& state, uint32_t words) : state_(state), words_(words) {}

    // The byte offset `base` (a uint id) moved by access-chain `indices` into a value of `type`;
    // sets `type` to the type reached. nullopt after setting `why`.
    std::optional<uint32_t> offset(ir::Builder& builder, uint32_t base, uint32_t& type, std::span<const uint32_t> indices,
                                   std::string& why);

    // A value of `type` (scalars, vectors, arrays and structs of them) read at byte offset `at`, a
    // load per scalar: at most kMostScalars of them.
    std::optional<uint32_t> load(ir::Builder& builder, uint32_t type, uint32_t at, std::string& why);

    // Decode functions read a block of a quantized format (llama.cpp's largest, q6_K, holds 210
    // bytes); a whole array or struct of more scalars is a module the lowering would write
    // instructions without end for (a legal array type may hold 2^32 - 1 elements).
    static constexpr uint64_t kMostScalars = 4096;

  private:
    // The scalars in a value of `type`, saturated just above kMostScalars, or kTooDeep past
    // ir::kMostNesting levels below `depth`; nullopt for a type load_parts reports.
    std::optional<uint64_t> scalars(uint32_t type, uint32_t depth = 0) const;
    static constexpr uint64_t kTooDeep = UINT64_MAX;
    std::optional<uint32_t> load_parts(ir::Builder& builder, uint32_t type, uint32_t at, std::string& why);
    std::optional<uint32_t> stride_of(uint32_t type, std::string& why) const;
    // The `width` (8, 16 or 32) bits at byte offset `at` in the low bits of a uint; `width` 32 may
    // straddle two words when `at` is not word-aligned.
    uint32_t bits(ir::Builder& builder, uint32_t at, uint32_t width);
    uint32_t word(ir::Builder& builder, uint32_t index);

    LoweringState& state_;
    uint32_t words_;
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
