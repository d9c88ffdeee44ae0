#include "grammar/grammar.h"

#include <algorithm>

#include "grammar/tables.h"

namespace vkpolyfill::lowering::grammar {

namespace {

constexpr uint16_t kNoInstruction = 0xFFFF;

// Sets named "NonSemantic.*" may be ignored by consumers that do not know them; their operands are
// all ids, so walking them needs no grammar.
constexpr ExtInstSetInfo kUnknownNonSemanticSet{"NonSemantic.", true, true, {}};

}  // namespace

const InstructionInfo* find_instruction(uint32_t opcode) {
    const auto index = opcode_index_table();
    if (opcode >= index.size() || index[opcode] == kNoInstruction) return nullptr;
    return &instruction_table()[index[opcode]];
}

const OperandKindInfo& operand_kind(OperandKind kind) { return operand_kind_table()[static_cast<size_t>(kind)]; }

const EnumerantInfo* find_enumerant(OperandKind kind, uint32_t value) {
    const auto enumerants = operand_kind(kind).enumerants;
    const auto it = std::ranges::lower_bound(enumerants, value, {}, &EnumerantInfo::value);
    return it != enumerants.end() && it->value == value ? &*it : nullptr;
}

const ExtInstSetInfo* find_ext_inst_set(std::string_view import_name) {
    for (const ExtInstSetInfo& set : ext_inst_set_table()) {
        if (set.versioned ? import_name.starts_with(set.import_name) : import_name == set.import_name) return &set;
    }
    return import_name.starts_with(kUnknownNonSemanticSet.import_name) ? &kUnknownNonSemanticSet : nullptr;
}

const ExtInstInfo* find_ext_inst(const ExtInstSetInfo& set, uint32_t number) {
    const auto it = std::ranges::lower_bound(set.instructions, number, {}, &ExtInstInfo::number);
    return it != set.instructions.end() && it->number == number ? &*it : nullptr;
}

bool is_known_extension(std::string_view name) { return std::ranges::binary_search(extension_name_table(), name); }

std::string_view opcode_name(uint32_t opcode) {
    const InstructionInfo* info = find_instruction(opcode);
    return info ? info->name : std::string_view{};
}

std::string_view capability_name(uint32_t capability) { return enumerant_name(OperandKind::Capability, capability); }

std::string_view enumerant_name(OperandKind kind, uint32_t value) {
    const EnumerantInfo* enumerant = find_enumerant(kind, value);
    return enumerant ? enumerant->name : std::string_view{};
}

}  // namespace vkpolyfill::lowering::grammar
