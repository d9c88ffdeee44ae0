#include "passes/long_composites/index_rewrite.h"

#include <array>
#include <format>
#include <set>
#include <utility>
#include <spirv/unified1/spirv.hpp>

#include "ir/indexed_type.h"
#include "ir/instruction_text.h"
#include "passes/long_composites/instructions.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

constexpr size_t kMaxIndexes = 255;  // SPIR-V's universal limit on an access chain's indexes

// Where an instruction's indexes start (a word index) and the type the first one walks into.
struct Indexes {
    size_t first_word;
    uint32_t walked_type;
    bool literal;
};

class IndexRewriter {
  public:
    IndexRewriter(ir::Module& module, ir::TypeManager& types, const SplitTypes& splits, Diagnostics& diagnostics)
        : module_(module), types_(types), splits_(splits), diagnostics_(diagnostics) {}

    void rewrite_block(ir::BasicBlock& block) {
        ir::InstructionList rewritten;  // a division goes before the access chain that needs it
        rewritten.reserve(block.instructions.size());
        const Emit emit = emit_into(module_, rewritten);
        for (auto& instruction : block.instructions) {
            if (instruction->opcode() == spv::OpCopyLogical) check_copy_logical(*instruction);
            rewrite(instruction, emit);
            rewritten.push_back(std::move(instruction));
        }
        block.instructions = std::move(rewritten);
    }

    // OpSpecConstantOp's composite operations take literal indexes: nothing to emit, nothing added to
    // the section while it is walked.
    void rewrite_types_section() {
        for (auto& instruction : module_.types_values_constants) {
            if (instruction->opcode() == spv::OpSpecConstantOp) rewrite(instruction, nullptr);
        }
    }

  private:
    void rewrite(std::unique_ptr<ir::Instruction>& instruction, const Emit& emit) {
        const std::optional<Indexes> indexes = indexes_of(*instruction);
        if (!indexes || !find_split_on_the_way(*indexes, *instruction)) return;
        const auto words = instruction->words();
        const auto old_indexes = words.subspan(indexes->first_word);
        const std::optional<std::vector<uint32_t>> path = indexes->literal
                                                              ? literal_path(indexes->walked_type, old_indexes)
                                                              : id_path(indexes->walked_type, old_indexes, emit, *instruction);
        if (!path) return;
        if (!indexes->literal && path->size() > kMaxIndexes) {
            fail(std::format("nesting split types gives this access chain {} indexes, more than {}", path->size(), kMaxIndexes),
                 *instruction);
            return;
        }
        std::vector<uint32_t> operands(words.begin() + 1, words.begin() + static_cast<ptrdiff_t>(indexes->first_word));
        operands.insert(operands.end(), path->begin(), path->end());
        instruction = ir::make_instruction(instruction->opcode(), operands);
        module_.register_definition(*instruction);
    }

    std::optional<Indexes> indexes_of(const ir::Instruction& instruction) const {
        const auto pointee = [&](size_t word) { return pointee_of(module_.type_of(instruction.word(word))); };
        switch (instruction.opcode()) {
            case spv::OpAccessChain:
            case spv::OpInBoundsAccessChain:
                return Indexes{4, pointee(3), false};
            case spv::OpPtrAccessChain:  // the Element operand steps over the base, not into it
            case spv::OpInBoundsPtrAccessChain:
                return Indexes{5, pointee(3), false};
            case spv::OpUntypedAccessChainKHR:
            case spv::OpUntypedInBoundsAccessChainKHR:
                return Indexes{5, instruction.word(3), false};
            case spv::OpUntypedPtrAccessChainKHR:
            case spv::OpUntypedInBoundsPtrAccessChainKHR:
                return Indexes{6, instruction.word(3), false};
            case spv::OpCompositeExtract:
                return Indexes{4, module_.type_of(instruction.word(3)), true};
            case spv::OpCompositeInsert:
                return Indexes{5, module_.type_of(instruction.word(4)), true};
            case spv::OpArrayLength:
                return Indexes{4, pointee(3), true};
            case spv::OpSpecConstantOp:
                if (instruction.word(3) == spv::OpCompositeExtract) return Indexes{5, module_.type_of(instruction.word(4)), true};
                if (instruction.word(3) == spv::OpCompositeInsert) return Indexes{6, module_.type_of(instruction.word(5)), true};
                return std::nullopt;
            default:
                return std::nullopt;
        }
    }

    uint32_t pointee_of(uint32_t pointer_type) const {
        const ir::Instruction* pointer = module_.find_definition(pointer_type);
        return pointer && pointer->opcode() == spv::OpTypePointer ? pointer->word(3) : 0;
    }

    // A cheap first look, so instructions that never reach a split type are left as they are.
    bool find_split_on_the_way(const Indexes& indexes, const ir::Instruction& instruction) const {
        uint32_t type = indexes.walked_type;
        for (uint32_t index : instruction.words().subspan(indexes.first_word)) {
            if (!type) return false;
            if (find_split(splits_, type)) return true;
            type = step(type, indexes.literal ? std::optional<uint64_t>(index) : constant_value(index));
        }
        return false;
    }

    // The type one index leads to from `type` (0 when unknown): a struct member needs the index's value.
    uint32_t step(uint32_t type, std::optional<uint64_t> index) const {
        if (const SplitType* split = find_split(splits_, type)) {
            if (!split->is_struct) return split->element_type;
            return index && *index < split->length ? split->member_types[*index] : 0;
        }
        return ir::indexed_type(module_, type, index);
    }

    std::optional<uint64_t> constant_value(uint32_t id) const {
        const ir::Instruction* definition = module_.find_definition(id);
        if (!definition) return std::nullopt;
        if (definition->opcode() == spv::OpConstantNull) return 0;
        if (definition->opcode() != spv::OpConstant) return std::nullopt;  // a specialization constant is dynamic here
        const auto value = definition->operand_words();
        return value.size() > 1 ? uint64_t{value[1]} << 32 | value[0] : value[0];
    }

    std::optional<std::vector<uint32_t>> literal_path(uint32_t type, std::span<const uint32_t> indexes) const {
        std::vector<uint32_t> path;
        for (uint32_t index : indexes) {
            const SplitType* split = find_split(splits_, type);
            if (split && (!split->is_struct || index < split->length)) {
                const Path p = split->path(index);
                path.push_back(p.outer);
                if (p.inner) path.push_back(*p.inner);
            } else {
                path.push_back(index);
            }
            type = step(type, index);
        }
        return path;
    }

    std::optional<std::vector<uint32_t>> id_path(uint32_t type, std::span<const uint32_t> indexes, const Emit& emit,
                                                 const ir::Instruction& instruction) {
        std::vector<uint32_t> path;
        for (uint32_t index : indexes) {
            const SplitType* split = find_split(splits_, type);
            const std::optional<uint64_t> value = constant_value(index);
            if (!split) {
                path.push_back(index);
            } else if (value && (!split->is_struct || *value < split->length)) {
                const Path p = split->path(static_cast<uint32_t>(*value));
                const uint32_t index_type = module_.type_of(index);
                path.push_back(constant(index_type, p.outer));
                if (p.inner) path.push_back(constant(index_type, *p.inner));
            } else if (!split->is_struct) {
                divide(index, split->chunk_length, emit, path);
            } else {
                fail(std::format("index %{} into split struct %{} is not a constant in range", index, split->id), instruction);
                return std::nullopt;
            }
            type = step(type, value);
        }
        return path;
    }

    // i / chunk_length, then i % chunk_length, in i's own integer type (signed division is the same
    // for the non-negative indexes that are in bounds).
    void divide(uint32_t index, uint32_t chunk_length, const Emit& emit, std::vector<uint32_t>& path) {
        const uint32_t type = module_.type_of(index);
        const ir::Instruction* definition = module_.find_definition(type);
        const bool is_signed = definition && definition->opcode() == spv::OpTypeInt && definition->word(3) != 0;
        const uint32_t divisor = constant(type, chunk_length);
        path.push_back(emit(is_signed ? spv::OpSDiv : spv::OpUDiv, type, std::array{index, divisor}));
        path.push_back(emit(is_signed ? spv::OpSRem : spv::OpUMod, type, std::array{index, divisor}));
    }

    uint32_t constant(uint32_t integer_type, uint32_t value) {
        const uint32_t words[] = {value, 0};
        return types_.get_constant(integer_type, std::span(words).first(module_.literal_word_count(integer_type) > 1 ? 2 : 1));
    }

    // OpCopyLogical copies between types that match member for member: a split type on one side needs
    // one split the same way on the other.
    void check_copy_logical(const ir::Instruction& copy) {
        if (!split_alike(copy.type_id(), module_.type_of(copy.word(3)))) {
            fail("OpCopyLogical between types that must be split differently is not supported", copy);
        }
    }

    bool split_alike(uint32_t a, uint32_t b) const {
        std::set<std::pair<uint32_t, uint32_t>> compared;
        return split_alike(a, b, 0, compared);
    }

    // Types share their parts (a struct of two of the struct below, 40 deep, has 2^40 paths), so each
    // pair is compared once: a pair met again is alike, or the first meeting has answered already.
    // Nesting past ir::kMostNesting levels is not alike.
    bool split_alike(uint32_t a, uint32_t b, uint32_t depth, std::set<std::pair<uint32_t, uint32_t>>& compared) const {
        if (depth > ir::kMostNesting) return false;
        if (!compared.insert({a, b}).second) return true;
        const SplitType* split_a = find_split(splits_, a);
        const SplitType* split_b = find_split(splits_, b);
        if (split_a || split_b) return split_a && split_b && split_a->same_grouping(*split_b);
        const ir::Instruction* type_a = module_.find_definition(a);
        const ir::Instruction* type_b = module_.find_definition(b);
        if (a == b || !type_a || !type_b || type_a->opcode() != type_b->opcode()) return true;
        if (type_a->opcode() == spv::OpTypeArray) return split_alike(type_a->word(2), type_b->word(2), depth + 1, compared);
        if (type_a->opcode() != spv::OpTypeStruct) return true;
        const auto members_a = type_a->operand_words();
        const auto members_b = type_b->operand_words();
        for (size_t m = 0; m < std::min(members_a.size(), members_b.size()); ++m) {
            if (!split_alike(members_a[m], members_b[m], depth + 1, compared)) return false;
        }
        return true;
    }

    void fail(const std::string& message, const ir::Instruction& at) {
        diagnostics_.error(message, at.source_offset(), ir::short_instruction_text(at.words(), module_));
    }

    ir::Module& module_;
    ir::TypeManager& types_;
    const SplitTypes& splits_;
    Diagnostics& diagnostics_;
};

}  // namespace

bool rewrite_indexes(ir::Module& module, ir::TypeManager& types, const SplitTypes& splits, Diagnostics& diagnostics) {
    IndexRewriter rewriter(module, types, splits, diagnostics);
    rewriter.rewrite_types_section();
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) rewriter.rewrite_block(block);
    }
    return !diagnostics.has_errors();
}

}  // namespace vkpolyfill::lowering::long_composites
