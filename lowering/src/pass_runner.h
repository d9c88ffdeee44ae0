// Picks the passes a module needs for a Target and runs them.
#pragma once

#include <span>
#include <vector>

#include "diagnostics.h"
#include "emulated_sets.h"
#include "ir/module.h"

namespace vkpolyfill::lowering {

struct DeclaredSet {
    const EmulatedSetInfo* set;
    const ir::Instruction* declaration;  // the first OpCapability or OpExtension naming it
};

// The members of `sets` the module declares.
std::vector<DeclaredSet> declared_sets(const ir::Module& module, std::span<const EmulatedSetInfo> sets);

// Lowers each member of `sets` that the module declares and target.emulate names, by its pass, in the
// order of `sets`.
// Returns whether the module changed. Errors: a set with no pass yet, the passes' own, and a set
// still declared after its pass ran.
bool run_emulation_passes(ir::Module& module, const Target& target, std::span<const SpecializationValue> specialization,
                          std::span<const EmulatedSetInfo> sets, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering
