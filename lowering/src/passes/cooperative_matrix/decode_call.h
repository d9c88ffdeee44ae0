// How a tensor load calls its DecodeFunc for one element: with a PhysicalStorageBuffer pointer to
// the element's block (pointer + index * sizeof(pointee), as the spec says), or, when the load reads
// a StorageBuffer descriptor, the clone of decode_clone.h with the block's byte offset; then the
// block coordinates and the coordinates within the block (as the function takes them: arrays by
// value or pointers to Function arrays).
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
    // coordinate arrays. nullopt after setting `why`.
    static std::optional<DecodeCall> prepare(LoweringState& state, uint32_t function, const ElementAccess& access,
                                             const MatrixType& matrix, uint32_t dimensions, std::string& why);

    void append_key(std::vector<uint32_t>& key) const { key.push_back(callee_); }

    // The component decoded for the block `index` (a uint id, in pointees from the Pointer);
    // `block_coordinates` and `coordinates_in_block` are Function variables of uint[dimensions].
    uint32_t call(ir::Builder& builder, ElementAccess& access, const ElementAccess::Bound& bound, uint32_t index,
                  uint32_t block_coordinates, uint32_t coordinates_in_block) const;

  private:
    DecodeCall(LoweringState& state, uint32_t callee, uint32_t return_type, std::vector<uint32_t> parameter_types,
               bool through_words, uint32_t words)
        : state_(&state), callee_(callee), return_type_(return_type), parameter_types_(std::move(parameter_types)),
          through_words_(through_words), words_(words) {}

    LoweringState* state_;
    uint32_t callee_;  // the application's function, or its clone
    uint32_t return_type_;
    std::vector<uint32_t> parameter_types_;  // the application's function's
    bool through_words_;
    uint32_t words_;  // the word view, when through_words_
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
