#include "specialization.h"

#include <algorithm>
#include <format>
#include <unordered_map>
#include <spirv/unified1/spirv.hpp>

#include "ir/decorations.h"
#include "ir/instruction_text.h"

namespace vkpolyfill::lowering {
namespace {

struct ScalarType {
    bool is_bool;
    uint32_t width;
    bool is_signed;
};

std::optional<ScalarType> scalar_type(const ir::Module& module, uint32_t type_id) {
    const ir::Instruction* type = module.find_definition(type_id);
    if (!type) return std::nullopt;
    if (type->opcode() == spv::OpTypeBool) return ScalarType{true, 1, false};
    if (type->opcode() == spv::OpTypeInt && type->word(2) <= 64) return ScalarType{false, type->word(2), type->word(3) != 0};
    return std::nullopt;
}

uint64_t truncate(uint64_t value, uint32_t width) { return width >= 64 ? value : value & ((uint64_t{1} << width) - 1); }

int64_t sign_extend(uint64_t value, uint32_t width) {
    if (width >= 64) return static_cast<int64_t>(value);
    const uint64_t sign = uint64_t{1} << (width - 1);
    return static_cast<int64_t>((truncate(value, width) ^ sign) - sign);
}

// The pipeline's value for `spec_id`, as VkSpecializationMapEntry bytes (little-endian).
std::optional<uint64_t> pipeline_value(std::span<const SpecializationValue> values, uint32_t spec_id) {
    for (const SpecializationValue& value : values) {
        if (value.spec_id != spec_id) continue;
        uint64_t bits = 0;
        for (size_t i = 0; i < std::min<size_t>(value.bytes.size(), 8); ++i) bits |= uint64_t{value.bytes[i]} << (8 * i);
        return bits;
    }
    return std::nullopt;
}

std::optional<uint64_t> fold(uint32_t opcode, const ScalarType& result, const ScalarType& operand_type,
                             std::span<const uint64_t> v) {
    const uint32_t w = operand_type.width;
    const auto s = [&](size_t i) { return sign_extend(v[i], w); };
    const auto boolean = [](bool b) -> std::optional<uint64_t> { return b ? 1 : 0; };
    switch (opcode) {
        case spv::OpIAdd: return truncate(v[0] + v[1], w);
        case spv::OpISub: return truncate(v[0] - v[1], w);
        case spv::OpIMul: return truncate(v[0] * v[1], w);
        case spv::OpUDiv: return v[1] ? std::optional(v[0] / v[1]) : std::nullopt;
        case spv::OpUMod: return v[1] ? std::optional(v[0] % v[1]) : std::nullopt;
        case spv::OpSDiv: return s(1) ? std::optional(truncate(static_cast<uint64_t>(s(0) / s(1)), w)) : std::nullopt;
        case spv::OpSRem: return s(1) ? std::optional(truncate(static_cast<uint64_t>(s(0) % s(1)), w)) : std::nullopt;
        case spv::OpSMod: {
            if (!s(1)) return std::nullopt;
            int64_t r = s(0) % s(1);
            if (r != 0 && ((r < 0) != (s(1) < 0))) r += s(1);
            return truncate(static_cast<uint64_t>(r), w);
        }
        case spv::OpShiftLeftLogical: return v[1] < 64 ? truncate(v[0] << v[1], w) : 0;
        case spv::OpShiftRightLogical: return v[1] < 64 ? v[0] >> v[1] : 0;
        case spv::OpShiftRightArithmetic: return truncate(static_cast<uint64_t>(s(0) >> std::min<uint64_t>(v[1], 63)), w);
        case spv::OpBitwiseOr: return v[0] | v[1];
        case spv::OpBitwiseAnd: return v[0] & v[1];
        case spv::OpBitwiseXor: return v[0] ^ v[1];
        case spv::OpNot: return truncate(~v[0], w);
        case spv::OpSNegate: return truncate(static_cast<uint64_t>(-s(0)), w);
        case spv::OpLogicalOr: return boolean(v[0] || v[1]);
        case spv::OpLogicalAnd: return boolean(v[0] && v[1]);
        case spv::OpLogicalNot: return boolean(!v[0]);
        case spv::OpLogicalEqual: return boolean(v[0] == v[1]);
        case spv::OpLogicalNotEqual: return boolean(v[0] != v[1]);
        case spv::OpSelect: return v[0] ? v[1] : v[2];
        case spv::OpIEqual: return boolean(v[0] == v[1]);
        case spv::OpINotEqual: return boolean(v[0] != v[1]);
        case spv::OpULessThan: return boolean(v[0] < v[1]);
        case spv::OpUGreaterThan: return boolean(v[0] > v[1]);
        case spv::OpULessThanEqual: return boolean(v[0] <= v[1]);
        case spv::OpUGreaterThanEqual: return boolean(v[0] >= v[1]);
        case spv::OpSLessThan: return boolean(s(0) < s(1));
        case spv::OpSGreaterThan: return boolean(s(0) > s(1));
        case spv::OpSLessThanEqual: return boolean(s(0) <= s(1));
        case spv::OpSGreaterThanEqual: return boolean(s(0) >= s(1));
        case spv::OpUConvert: return truncate(v[0], result.width);
        case spv::OpSConvert: return truncate(static_cast<uint64_t>(s(0)), result.width);
        default: return std::nullopt;
    }
}

// Where `id` is defined in the types section (constants live there).
std::unique_ptr<ir::Instruction>* find_in_types(ir::Module& module, uint32_t id) {
    for (auto& instruction : module.types_values_constants) {
        if (instruction->result_id() == id) return &instruction;
    }
    return nullptr;
}

// Spec-constant expressions share operands (`a + a` nested 40 deep names 2^40 paths) and may nest
// without end: each id is evaluated once per question, a cycle is unevaluable, and so is nesting past
// ir::kMostNesting.
class ConstantEvaluator {
  public:
    ConstantEvaluator(const ir::Module& module, std::span<const SpecializationValue> values) : module_(module), values_(values) {}

    std::optional<uint64_t> of(uint32_t id, uint32_t depth = 0) {
        const ir::Instruction* definition = module_.find_definition(id);
        if (!definition) return std::nullopt;
        const std::optional<ScalarType> type = scalar_type(module_, definition->type_id());
        if (!type) return std::nullopt;
        // Only expressions have operands to share or cycle through; the rest (most questions) are
        // answered without the memo.
        if (definition->opcode() != spv::OpSpecConstantOp) return leaf(id, *definition, *type);
        if (depth > ir::kMostNesting) return std::nullopt;
        if (const auto known = known_.find(id); known != known_.end()) return known->second;
        known_[id] = std::nullopt;  // while it is evaluated: a cycle back to it ends here
        const std::optional<uint64_t> result = expression(*definition, *type, depth);
        known_[id] = result;
        return result;
    }

  private:
    // A constant that is not an expression: a literal, or a specialization constant's value.
    std::optional<uint64_t> leaf(uint32_t id, const ir::Instruction& definition, ScalarType type) const {
        switch (definition.opcode()) {
            case spv::OpConstantTrue: return 1;
            case spv::OpConstantFalse: return 0;
            case spv::OpConstant: {
                uint64_t value = definition.operand_words()[0];
                if (type.width > 32) value |= uint64_t{definition.operand_words()[1]} << 32;
                return value;
            }
            case spv::OpSpecConstantTrue:
            case spv::OpSpecConstantFalse: {
                const std::optional<uint32_t> spec_id = ir::find_decoration(module_, id, spv::DecorationSpecId);
                const std::optional<uint64_t> given = spec_id ? pipeline_value(values_, *spec_id) : std::nullopt;
                if (given) return *given != 0 ? 1 : 0;
                return definition.opcode() == spv::OpSpecConstantTrue ? 1 : 0;
            }
            case spv::OpSpecConstant: {
                const std::optional<uint32_t> spec_id = ir::find_decoration(module_, id, spv::DecorationSpecId);
                const std::optional<uint64_t> given = spec_id ? pipeline_value(values_, *spec_id) : std::nullopt;
                uint64_t value = definition.operand_words()[0];
                if (type.width > 32) value |= uint64_t{definition.operand_words()[1]} << 32;
                return truncate(given.value_or(value), type.width);
            }
            default:
                return std::nullopt;
        }
    }

    std::optional<uint64_t> expression(const ir::Instruction& definition, ScalarType type, uint32_t depth) {
        const auto operand_words = definition.operand_words();
        if (operand_words.size() < 2) return std::nullopt;
        std::vector<uint64_t> operands;
        std::optional<ScalarType> operand_type;
        for (uint32_t operand : operand_words.subspan(1)) {
            const std::optional<uint64_t> operand_value = of(operand, depth + 1);
            if (!operand_value) return std::nullopt;
            operands.push_back(*operand_value);
            const std::optional<ScalarType> t = scalar_type(module_, module_.type_of(operand));
            if (t && !t->is_bool) operand_type = t;  // Select's condition is not the operand type
        }
        return fold(operand_words[0], type, operand_type.value_or(type), operands);
    }

    const ir::Module& module_;
    std::span<const SpecializationValue> values_;
    std::unordered_map<uint32_t, std::optional<uint64_t>> known_;
};

}  // namespace

std::optional<uint64_t> evaluate_constant(const ir::Module& module, uint32_t id, std::span<const SpecializationValue> values) {
    return ConstantEvaluator(module, values).of(id);
}

std::optional<uint64_t> freeze_constant(ir::Module& module, uint32_t id, std::span<const SpecializationValue> values,
                                        Diagnostics& diagnostics) {
    std::unique_ptr<ir::Instruction>* slot = find_in_types(module, id);
    const std::optional<uint64_t> value = evaluate_constant(module, id, values);
    if (!slot || !value) {
        const ir::Instruction* definition = module.find_definition(id);
        diagnostics.error(std::format("%{} must be a scalar integer or boolean constant the lowering can evaluate", id),
                          definition ? definition->source_offset() : ir::kNoOffset,
                          definition ? ir::instruction_text(definition->words(), module) : std::string());
        return std::nullopt;
    }
    ir::Instruction& instruction = **slot;
    switch (instruction.opcode()) {
        case spv::OpSpecConstantOp:
            for (uint32_t operand : instruction.operand_words().subspan(1)) {
                if (!freeze_constant(module, operand, values, diagnostics)) return std::nullopt;
            }
            break;
        case spv::OpSpecConstant:
        case spv::OpSpecConstantTrue:
        case spv::OpSpecConstantFalse:
            break;
        default:
            return value;  // already a constant
    }
    const uint32_t type = instruction.type_id();
    std::vector<uint32_t> words{type, id};
    uint32_t opcode = spv::OpConstant;
    if (scalar_type(module, type)->is_bool) {
        opcode = *value ? spv::OpConstantTrue : spv::OpConstantFalse;
    } else {
        words.push_back(static_cast<uint32_t>(*value));
        if (scalar_type(module, type)->width > 32) words.push_back(static_cast<uint32_t>(*value >> 32));
    }
    *slot = ir::make_instruction(opcode, words);
    module.register_definition(**slot);
    std::erase_if(module.annotations, [&](const std::unique_ptr<ir::Instruction>& a) {
        return a->opcode() == spv::OpDecorate && a->word(1) == id && a->word(2) == spv::DecorationSpecId;
    });
    return value;
}

}  // namespace vkpolyfill::lowering
