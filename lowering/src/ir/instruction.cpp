#include "ir/instruction.h"

#include <algorithm>

namespace vkpolyfill::lowering::ir {

Instruction::Instruction(std::span<const uint32_t> words, const grammar::InstructionInfo& info,
                         uint32_t source_offset)
    : words_(words.begin(), words.end()), info_(&info), source_offset_(source_offset) {}

std::unique_ptr<Instruction> make_instruction(uint32_t opcode, std::span<const uint32_t> operand_words) {
    const grammar::InstructionInfo* info = grammar::find_instruction(opcode);
    std::vector<uint32_t> words;
    words.reserve(operand_words.size() + 1);
    words.push_back(static_cast<uint32_t>(operand_words.size() + 1) << 16 | opcode);
    words.insert(words.end(), operand_words.begin(), operand_words.end());
    return std::make_unique<Instruction>(words, *info);
}

void append_literal_string(std::vector<uint32_t>& words, std::string_view text) {
    const size_t first = words.size();
    words.resize(first + text.size() / 4 + 1, 0);  // the nul always fits: at least one byte of padding
    for (size_t i = 0; i < text.size(); ++i) {
        words[first + i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
    }
}

std::string decode_literal_string(std::span<const uint32_t> words) {
    std::string text;
    for (uint32_t word : words) {
        for (int byte = 0; byte < 4; ++byte) {
            const char c = static_cast<char>((word >> (8 * byte)) & 0xFFu);
            if (c == '\0') return text;
            text.push_back(c);
        }
    }
    return text;
}

size_t entry_point_interface_start(std::span<const uint32_t> entry_point_words) {
    if (entry_point_words.size() <= 3) return entry_point_words.size();
    return std::min(entry_point_words.size(), 3 + (decode_literal_string(entry_point_words.subspan(3)).size() + 4) / 4);
}

}  // namespace vkpolyfill::lowering::ir
