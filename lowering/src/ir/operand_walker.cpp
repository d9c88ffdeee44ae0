#include "ir/operand_walker.h"

#include <algorithm>
#include <format>

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

namespace {

using grammar::Category;
using grammar::OperandKind;
using grammar::OperandSpec;
using grammar::Quantifier;

class Walker {
  public:
    Walker(std::span<const uint32_t> words, const OperandContext& context, std::vector<Operand>& operands)
        : words_(words), context_(context), operands_(operands) {}

    std::string walk() {
        const grammar::InstructionInfo& info = *grammar::find_instruction(words_[0] & 0xFFFFu);
        if (walk_specs(info.operands) && position_ < words_.size()) {
            fail(std::format("{} word(s) beyond the operands the grammar defines", words_.size() - position_));
        }
        return error_;
    }

  private:
    // Walks `specs` in order. An operand that decides the layout of everything after it (an OpExtInst's
    // instruction number, an OpSpecConstantOp's opcode) walks the rest itself and ends the list.
    bool walk_specs(std::span<const OperandSpec> specs) {
        for (const OperandSpec& spec : specs) {
            switch (spec.quantifier) {
                case Quantifier::One:
                    if (!walk_one(spec.kind)) return false;
                    break;
                case Quantifier::Optional:
                    if (position_ < words_.size() && !walk_one(spec.kind)) return false;
                    break;
                case Quantifier::Variadic:
                    while (position_ < words_.size()) {
                        if (!walk_one(spec.kind)) return false;
                    }
                    break;
            }
            if (rest_walked_) return true;
        }
        return true;
    }

    bool walk_one(OperandKind kind) {
        const grammar::OperandKindInfo& info = grammar::operand_kind(kind);
        if (position_ >= words_.size()) return fail(std::format("missing {} operand", info.name));
        switch (info.category) {
            case Category::Id:
                return take(kind, 1);
            case Category::Literal:
                return walk_literal(kind);
            case Category::ValueEnum: {
                const uint32_t value = words_[position_];
                const grammar::EnumerantInfo* enumerant = grammar::find_enumerant(kind, value);
                if (!enumerant) return fail(std::format("unknown {} value {}", info.name, value));
                return take(kind, 1) && walk_specs(enumerant->parameters);
            }
            case Category::BitEnum:
                return walk_bit_enum(kind);
            case Category::Composite:
                for (OperandKind base : info.bases) {
                    if (!walk_one(base)) return false;
                }
                return true;
        }
        return fail("operand kind with no category");
    }

    // A mask's parameters follow it in the order of its bits, lowest first (MemoryAccess Aligned's
    // alignment before MakePointerAvailable's scope).
    bool walk_bit_enum(OperandKind kind) {
        const uint32_t mask = words_[position_];
        if (!take(kind, 1)) return false;
        for (uint32_t bit = 0; bit < 32; ++bit) {
            if (!(mask & (1u << bit))) continue;
            const grammar::EnumerantInfo* enumerant = grammar::find_enumerant(kind, 1u << bit);
            if (!enumerant) {
                return fail(std::format("unknown bit {:#x} in {}", 1u << bit, grammar::operand_kind(kind).name));
            }
            if (!walk_specs(enumerant->parameters)) return false;
        }
        return true;
    }

    bool walk_literal(OperandKind kind) {
        switch (kind) {
            case OperandKind::LiteralString:
                for (size_t end = position_; end < words_.size(); ++end) {
                    if (has_nul_byte(words_[end])) return take(kind, static_cast<uint32_t>(end - position_ + 1));
                }
                return fail("string without a terminating nul");
            case OperandKind::LiteralContextDependentNumber:
                // Its width is that of the instruction's result type (OpConstant, OpSpecConstant).
                return take_number(kind, words_[1], "result type");
            case OperandKind::LiteralExtInstInteger:  // follows the set's id
                return take(kind, 1) && walk_ext_inst(words_[position_ - 2], words_[position_ - 1]);
            case OperandKind::LiteralSpecConstantOpInteger:
                return take(kind, 1) && walk_spec_constant_op(words_[position_ - 1]);
            default:
                // OpSwitch's case literals are as wide as its selector; the grammar cannot say so.
                if ((words_[0] & 0xFFFFu) == spv::OpSwitch && kind == OperandKind::LiteralInteger) {
                    return take_number(kind, context_.type_of(words_[1]), "selector's type");
                }
                return take(kind, 1);
        }
    }

    bool take_number(OperandKind kind, uint32_t type_id, const char* what) {
        const uint32_t count = context_.literal_word_count(type_id);
        if (count == 0) return fail(std::format("the {} %{} is not a numeric scalar type", what, type_id));
        return take(kind, count);
    }

    bool walk_ext_inst(uint32_t set_id, uint32_t number) {
        const grammar::ExtInstSetInfo* set = context_.ext_inst_set(set_id);
        if (!set) return fail(std::format("%{} is not an OpExtInstImport", set_id));
        const grammar::ExtInstInfo* instruction = grammar::find_ext_inst(*set, number);
        if (!instruction && !set->non_semantic) {
            return fail(std::format("instruction {} is not in {}", number, set->import_name));
        }
        const bool ok = instruction ? walk_specs(instruction->operands) : take_remaining_as_ids();
        rest_walked_ = true;
        return ok;
    }

    bool take_remaining_as_ids() {
        while (position_ < words_.size()) take(OperandKind::IdRef, 1);
        return true;
    }

    // The embedded opcode's operands follow, without its result type and result id. It must be an
    // operation with a fixed layout: one choosing its layout itself would recurse.
    bool walk_spec_constant_op(uint32_t opcode) {
        const grammar::InstructionInfo* embedded = grammar::find_instruction(opcode);
        const auto decides_layout = [](const OperandSpec& spec) {
            return spec.kind == OperandKind::LiteralSpecConstantOpInteger ||
                   spec.kind == OperandKind::LiteralExtInstInteger;
        };
        if (!embedded || !embedded->has_result_type || !embedded->has_result ||
            std::ranges::any_of(embedded->operands, decides_layout)) {
            return fail(std::format("opcode {} cannot be an OpSpecConstantOp operation", opcode));
        }
        const bool ok = walk_specs(embedded->operands.subspan(2));
        rest_walked_ = true;
        return ok;
    }

    bool take(OperandKind kind, uint32_t count) {
        if (position_ + count > words_.size()) {
            return fail(std::format("{} operand runs past the end of the instruction",
                                    grammar::operand_kind(kind).name));
        }
        operands_.push_back({kind, static_cast<uint32_t>(position_), count});
        position_ += count;
        return true;
    }

    bool fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
        return false;
    }

    static bool has_nul_byte(uint32_t word) {
        return (word & 0xFFu) == 0 || (word & 0xFF00u) == 0 || (word & 0xFF0000u) == 0 || (word & 0xFF000000u) == 0;
    }

    std::span<const uint32_t> words_;
    const OperandContext& context_;
    std::vector<Operand>& operands_;
    size_t position_ = 1;
    bool rest_walked_ = false;
    std::string error_;
};

}  // namespace

std::string walk_operands(std::span<const uint32_t> words, const OperandContext& context,
                          std::vector<Operand>& operands) {
    operands.clear();
    return Walker(words, context, operands).walk();
}

}  // namespace vkpolyfill::lowering::ir
