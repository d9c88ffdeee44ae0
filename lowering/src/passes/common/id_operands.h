// Whether an instruction refers to an id of a set (a tensor type, a removed tensor value, a tile image
// about to go): how passes find the uses of what they do not lower, to report them rather than leave
// them dangling.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "ir/operand_walker.h"

namespace vkpolyfill::lowering {

// Any id operand of `instruction` other than its result id for which `wanted(id)` holds.
template <typename Wanted>
bool refers_to(const ir::Module& module, const ir::Instruction& instruction, Wanted&& wanted) {
    std::vector<ir::Operand> operands;
    if (!ir::walk_operands(instruction.words(), module, operands).empty()) return false;  // parsed modules walk
    for (const ir::Operand& operand : operands) {
        if (ir::is_id(operand.kind) && operand.kind != grammar::OperandKind::IdResult &&
            wanted(instruction.word(operand.first_word))) {
            return true;
        }
    }
    return false;
}

}  // namespace vkpolyfill::lowering
