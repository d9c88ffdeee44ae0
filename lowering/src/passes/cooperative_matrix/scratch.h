// Shared memory through which matrices change layout (use conversions, transposes, reductions) and
// through which workgroup-scope multiply-adds stage A and B: per component type, one Workgroup
// array in which each subgroup has its own slice (for subgroup-scope matrices), and one region the
// whole workgroup shares (for workgroup-scope ones). Sizes are only known once every use is
// generated, so the variables and the slice-length constants are declared at the end (finish)
// under ids taken up front.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class Scratch {
  public:
    explicit Scratch(LoweringState& state) : state_(state) {}

    // A pointer to element `index` (a uint id) of the calling subgroup's slice for `component_type`
    // (or of the workgroup's shared region), which must hold at least `elements` of them.
    uint32_t element_pointer(ir::Builder& builder, uint32_t component_type, uint32_t index, uint32_t elements,
                             bool workgroup);
    // The `type` component at element `index` of an area of `elements` of them, read (written) in the
    // subgroup's slice (workgroup's region) for `type`, or with a narrower `carrier` type, in the one
    // for it: each component as the bits of as many carrier elements as it is wider (so areas that
    // are never live at once share the bytes instead of adding them up).
    uint32_t load(ir::Builder& builder, uint32_t type, uint32_t index, uint32_t elements, bool workgroup, uint32_t carrier = 0);
    void store(ir::Builder& builder, uint32_t type, uint32_t index, uint32_t value, uint32_t elements, bool workgroup,
               uint32_t carrier = 0);
    // How many `carrier` elements hold one `type` component (1 without a carrier).
    uint32_t carried_ratio(uint32_t type, uint32_t carrier) const;
    // Orders the subgroup's (or workgroup's) shared-memory accesses before the barrier against
    // those after it.
    void barrier(ir::Builder& builder, bool workgroup);

    // How many subgroups share the workgroup's shared memory (each with its slices); nullopt after
    // reporting to `diagnostics` why the workgroup size is not known.
    std::optional<uint32_t> subgroups(Diagnostics& diagnostics) const;

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
    Slice& slice(std::map<uint32_t, Slice>& slices, uint32_t component_type, uint32_t elements);
    void declare(std::map<uint32_t, Slice>& slices, uint32_t copies, uint64_t& bytes);

    LoweringState& state_;
    std::map<uint32_t, Slice> slices_;      // per subgroup, by component type
    std::map<uint32_t, Slice> workgroup_;   // one for the workgroup, by component type
    uint32_t reserved_bytes_ = 0;
};

// The shared memory a workgroup-scope operation may stage through at once: what the layer reserves for
// the lowering, else half the device's (0: no limit known).
uint32_t staging_budget(const Target& target);

// The most of `total` items (rows, K columns) of `bytes_each` staged at once within `budget`: the
// largest divisor of `total` that fits, so the items go in equal chunks (1 when none fits).
uint32_t items_at_once(uint32_t total, uint64_t bytes_each, uint32_t budget);

}  // namespace vkpolyfill::lowering::cooperative_matrix
