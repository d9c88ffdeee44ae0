#include "passes/long_composites/instructions.h"

#include <algorithm>
#include <format>
#include <vector>

#include "ir/instruction_text.h"

namespace vkpolyfill::lowering::long_composites {

std::unique_ptr<ir::Instruction> make_long_instruction(uint32_t opcode, std::span<const uint32_t> operand_words,
                                                       uint32_t source_offset) {
    const size_t word_count = operand_words.size() + 1;
    std::vector<uint32_t> words;
    words.reserve(word_count);
    words.push_back((word_count <= ir::kMaxWordCount ? static_cast<uint32_t>(word_count) << 16 : 0u) | opcode);
    words.insert(words.end(), operand_words.begin(), operand_words.end());
    return std::make_unique<ir::Instruction>(words, *grammar::find_instruction(opcode), source_offset);
}

Emit emit_into(ir::Module& module, ir::InstructionList& list) {
    return [&module, &list](uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) {
        const uint32_t id = module.take_next_id();
        std::vector<uint32_t> words;
        if (type) words.push_back(type);
        words.push_back(id);
        words.insert(words.end(), operands.begin(), operands.end());
        list.push_back(ir::make_instruction(opcode, words));
        module.register_definition(*list.back());
        return id;
    };
}

}  // namespace vkpolyfill::lowering::long_composites
