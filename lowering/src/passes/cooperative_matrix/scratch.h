// Shared memory through which matrices change layout (use conversions, transposes, reductions):
// each subgroup has its own slice of one Workgroup array per component type. Sizes are only known
// once every use is generated, so the variables and the slice-length constants are declared at the
// end (finish) under ids taken up front.
#pragma once

#include <cstdint>
#include <map>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class Scratch {
  public:
    explicit Scratch(LoweringState& state) : state_(state) {}

    // A pointer to element `index` (a uint id) of the calling subgroup's slice for `component_type`,
    // which must hold at least `elements` of them.
    uint32_t element_pointer(ir::Builder& builder, uint32_t component_type, uint32_t index, uint32_t elements);
    // Orders the subgroup's shared-memory accesses before the barrier against those after it.
    void barrier(ir::Builder& builder);

    // Declares what was used. Reports (and returns false) when it does not fit next to the module's
    // own shared memory in target.max_shared_memory_bytes.
    bool finish();
    uint32_t reserved_bytes() const { return reserved_bytes_; }

  private:
    struct Slice {
        uint32_t variable;  // the Workgroup array, declared by finish()
        uint32_t length;    // the constant holding the slice length, declared by finish()
        uint32_t elements = 0;
    };
    uint32_t subgroup_offset(ir::Builder& builder, const Slice& slice);

    LoweringState& state_;
    std::map<uint32_t, Slice> slices_;  // by component type
    uint32_t reserved_bytes_ = 0;
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
