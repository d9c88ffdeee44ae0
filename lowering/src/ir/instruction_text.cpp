#include "ir/instruction_text.h"

#include <algorithm>
#include <format>
#include <vector>

#include "ir/instruction.h"

namespace vkpolyfill::lowering::ir {

namespace {

using grammar::Category;
using grammar::OperandKind;

std::string raw_words(std::span<const uint32_t> words) {
    std::string text;
    for (uint32_t word : words.first(std::min<size_t>(words.size(), 8))) text += std::format(" {:#010x}", word);
    if (words.size() > 8) text += " ...";
    return text;
}

std::string enum_text(OperandKind kind, uint32_t value) {
    const grammar::OperandKindInfo& info = grammar::operand_kind(kind);
    if (info.category == Category::ValueEnum || value == 0) {
        const grammar::EnumerantInfo* enumerant = grammar::find_enumerant(kind, value);
        return enumerant ? std::string(enumerant->name) : std::to_string(value);
    }
    std::string text;
    for (uint32_t bit = 0; bit < 32; ++bit) {
        if (!(value & (1u << bit))) continue;
        const grammar::EnumerantInfo* enumerant = grammar::find_enumerant(kind, 1u << bit);
        if (!text.empty()) text += '|';
        text += enumerant ? std::string(enumerant->name) : std::format("{:#x}", 1u << bit);
    }
    return text;
}

std::string operand_text(std::span<const uint32_t> words, const Operand& operand, const OperandContext& context) {
    const auto operand_words = words.subspan(operand.first_word, operand.word_count);
    const uint32_t value = operand_words[0];
    switch (grammar::operand_kind(operand.kind).category) {
        case Category::Id:
            return std::format("%{}", value);
        case Category::ValueEnum:
        case Category::BitEnum:
            return enum_text(operand.kind, value);
        case Category::Literal:
        case Category::Composite:
            break;
    }
    switch (operand.kind) {
        case OperandKind::LiteralString:
            return '"' + decode_literal_string(operand_words) + '"';
        case OperandKind::LiteralSpecConstantOpInteger: {
            const auto name = grammar::opcode_name(value);
            return name.empty() ? std::to_string(value) : std::string(name.substr(2));  // spirv-dis drops "Op"
        }
        case OperandKind::LiteralExtInstInteger: {
            const grammar::ExtInstSetInfo* set = context.ext_inst_set(words[3]);
            const grammar::ExtInstInfo* instruction = set ? grammar::find_ext_inst(*set, value) : nullptr;
            return instruction ? std::string(instruction->name) : std::to_string(value);
        }
        default:
            if (operand.word_count == 2) return std::to_string(uint64_t{operand_words[1]} << 32 | value);
            return operand.word_count == 1 ? std::to_string(value) : raw_words(operand_words);
    }
}

}  // namespace

std::string raw_instruction_text(std::span<const uint32_t> words) {
    const auto name = grammar::opcode_name(words[0] & 0xFFFFu);
    const std::string opcode = name.empty() ? std::format("opcode {}", words[0] & 0xFFFFu) : std::string(name);
    return opcode + raw_words(words.subspan(1));
}

std::string instruction_text(std::span<const uint32_t> words, const OperandContext& context) {
    std::vector<Operand> operands;
    if (!grammar::find_instruction(words[0] & 0xFFFFu) || !walk_operands(words, context, operands).empty()) {
        return raw_instruction_text(words);
    }
    // A message names an instruction, it does not reprint it: a long composite's 65,000 constituents
    // made megabyte messages (and were a quarter of the long-composites fuzzer's time).
    constexpr size_t kShownOperands = 24;
    std::string result;
    std::string text(grammar::opcode_name(words[0] & 0xFFFFu));
    size_t shown = 0;
    for (const Operand& operand : operands) {
        if (operand.kind == OperandKind::IdResult) {
            result = std::format("%{} = ", words[operand.first_word]);
        } else if (shown++ < kShownOperands) {
            text += ' ' + operand_text(words, operand, context);
        }
    }
    if (shown > kShownOperands) text += std::format(" ... ({} more operands)", shown - kShownOperands);
    return result + text;
}

std::string short_instruction_text(std::span<const uint32_t> words, const OperandContext& context) {
    constexpr size_t kShownWords = 10;
    if (words.size() <= kShownWords) return instruction_text(words, context);
    // Structs and composites end in a list of ids, so a prefix still walks (anything else comes out raw).
    return std::format("{} ... ({} words)", instruction_text(words.first(kShownWords), context), words.size());
}

}  // namespace vkpolyfill::lowering::ir
