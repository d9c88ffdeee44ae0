// How a tensor load calls its DecodeFunc for one element (or its DecodeVectorFunc for a group of
// block-adjacent elements, SPV_NV_cooperative_matrix_decode_vector): with a PhysicalStorageBuffer pointer to
// the element's block (pointer + index * sizeof(the function's pointee), as the spec says, which may
// span several elements of the array the pointer points into: block_layout.h), or, when the load reads
// a StorageBuffer descriptor, the clone of decode_clone.h with the block's byte offset; then the
// block coordinates and the coordinates within the block (as the function takes them: arrays by
// value or pointers to Function arrays). A function that never refers to its pointer gets an undefined
// one: its block then needs no size (it may be a runtime array) and the source no word view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "passes/cooperative_matrix/element_access.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class DecodeCall {
  public:
    // For `function` decoding components of `matrix` through `access`, with `dimensions`-element
    // coordinate arrays; `vector`: the function is a DecodeVectorFunc. nullopt after setting `why`.
    static std::optional<DecodeCall> prepare(LoweringState& state, uint32_t function, const ElementAccess& access,
                                             const MatrixType& matrix, uint32_t dimensions, bool vector, std::string& why);
    // Only the checks of prepare() on the function's type (for a function the lowering will not call).
    static bool check_signature(LoweringState& state, uint32_t function, const MatrixType& matrix, uint32_t dimensions,
                                bool vector, std::string& why);

    void append_key(std::vector<uint32_t>& key) const { key.push_back(callee_); }
    uint32_t result_type() const { return return_type_; }
    // The elements one call decodes: 1 for a DecodeFunc, V for a DecodeVectorFunc.
    uint32_t components() const { return components_; }

    // The component (or V components) decoded for the block `index` (a uint id, in blocks from the Pointer);
    // `block_coordinates` and `coordinates_in_block` are Function variables of uint[dimensions].
    uint32_t call(ir::Builder& builder, ElementAccess& access, const ElementAccess::Bound& bound, uint32_t index,
                  uint32_t block_coordinates, uint32_t coordinates_in_block) const;

  private:
    // What the function's first argument is.
    enum class Block { Pointer, ByteOffset, Unused };

    DecodeCall(LoweringState& state, uint32_t callee, uint32_t return_type, uint32_t components,
               std::vector<uint32_t> parameter_types, uint32_t elements_per_block, Block block, uint32_t words)
        : state_(&state), callee_(callee), return_type_(return_type), components_(components),
          parameter_types_(std::move(parameter_types)), elements_per_block_(elements_per_block), block_(block),
          words_(words) {}

    uint32_t block_argument(ir::Builder& builder, ElementAccess& access, const ElementAccess::Bound& bound, uint32_t index) const;

    LoweringState* state_;
    uint32_t callee_;  // the application's function, or its clone
    uint32_t return_type_;
    uint32_t components_;
    std::vector<uint32_t> parameter_types_;  // the application's function's
    uint32_t elements_per_block_;            // array elements (of the array the Pointer points into) per block
    Block block_;
    uint32_t words_;  // the word view, for Block::ByteOffset
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
