// Composites of split types — constants, specialization-constant composites and OpCompositeConstruct,
// spelled out or replicated — rebuilt as nested composites: one inner composite per chunk, made by the
// same kind of instruction, so a specialization-constant composite stays one (its constituents are
// still the module's specialization constants) and specializing the pipeline still reaches it.
#pragma once

#include <memory>

#include "ir/module.h"
#include "passes/long_composites/instructions.h"
#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

// The nested composite replacing `composite`, its inner composites made by `emit`; nullptr when
// `composite` is no composite of a split type. The chunk types must exist (type_rewrite.h).
std::unique_ptr<ir::Instruction> nest_composite(const ir::Instruction& composite, const SplitTypes& splits,
                                                const Emit& emit);

// Nests every OpCompositeConstruct of a split type in the functions, its inner constructs right before it.
void rewrite_constructs(ir::Module& module, const SplitTypes& splits);

}  // namespace vkpolyfill::lowering::long_composites
