#include "ir/builder.h"

#include <vector>

namespace vkpolyfill::lowering::ir {

Builder::Builder(Module& module, BasicBlock& block, size_t position)
    : module_(module), block_(block), position_(position) {}

uint32_t Builder::add(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands, uint32_t result) {
    const grammar::InstructionInfo& info = *grammar::find_instruction(opcode);
    if (!info.has_result) {
        result = 0;
    } else if (result == 0) {
        result = module_.take_next_id();
    }
    std::vector<uint32_t> words;
    if (info.has_result_type) words.push_back(type);
    if (result) words.push_back(result);
    words.insert(words.end(), operands.begin(), operands.end());
    auto instruction = make_instruction(opcode, words);
    if (result) module_.register_definition(*instruction);
    const auto at = block_.instructions.begin() + static_cast<ptrdiff_t>(position_++);
    block_.instructions.insert(at, std::move(instruction));
    return result;
}

}  // namespace vkpolyfill::lowering::ir
