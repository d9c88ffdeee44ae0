// Rewriting id operands across a module: the tool for replacing one definition by another (a
// lowered type for a cooperative-matrix type, say) without touching every instruction by hand.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

using IdMap = std::unordered_map<uint32_t, uint32_t>;

// Replaces every id operand (result type included, result id not) found in `map`.
void remap_id_operands(Instruction& instruction, const IdMap& map, const OperandContext& context);
void remap_id_operands(Module& module, const IdMap& map);

// Drops OpName / OpMemberName and decorations whose target is in `ids` (ids about to disappear).
void remove_names_and_decorations(Module& module, const std::unordered_set<uint32_t>& ids);

// Removes the types, constants and global variables whose result ids are in `ids`, with their names
// and decorations, and forgets their definitions. Remap their uses first (remap_id_operands): the
// walk that remaps an OpConstant reads its type's definition.
void remove_global_definitions(Module& module, const std::unordered_set<uint32_t>& ids);

}  // namespace vkpolyfill::lowering::ir
