#include "passes/cooperative_matrix/tensor_layout_values.h"

#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/operand_walker.h"
#include "passes/common/constant_branches.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// One word of a layout along the paths followed so far: none yet (a path that comes back to a value
// being followed adds nothing of its own), one constant, or more than one or not a constant.
struct Word {
    enum class State { None, Known, Unknown } state = State::None;
    uint32_t value = 0;

    static Word known(uint32_t v) { return {State::Known, v}; }
    static Word unknown() { return {State::Unknown, 0}; }
    void merge(const Word& other) {
        if (other.state == State::None || state == State::Unknown) return;
        if (state == State::None) {
            *this = other;
        } else if (other.state == State::Unknown || other.value != value) {
            *this = unknown();
        }
    }
};

// The most values one access's layout is followed through; past it, nothing is known. Phis after
// one another can make the paths many; glslang's layouts take a few steps. The walk recurses once a
// value, so it also stops deeper than ir::kMostNesting.
constexpr uint32_t kMostSteps = 4096;
// How deep phis of phis are followed for a scalar operand.
constexpr uint32_t kMostPhis = 8;

// The layouts of one function's accesses.
class LayoutTrace {
  public:
    LayoutTrace(const ir::Module& module, const TensorTypes& tensors, std::span<const SpecializationValue> specialization,
                const ir::Function& function)
        : module_(module), tensors_(tensors), specialization_(specialization),
          reached_(blocks_reached(module, function, specialization)) {
        find_variables(function);
    }

    TensorLayoutValues::Words words(uint32_t layout_value) {
        steps_ = 0;
        const TensorLayoutType* type = tensors_.layout(module_.type_of(layout_value));
        std::vector<Word> words = follow(layout_value, type ? type->words() : 0);
        TensorLayoutValues::Words result;
        for (const Word& word : words) result.push_back(word.state == Word::State::Known ? std::optional(word.value) : std::nullopt);
        return result;
    }

    bool reached(uint32_t label) const { return reached_.contains(label); }

  private:
    // The Function variables of a layout type, with the values stored to them in the blocks reached;
    // a variable used any other way (its pointer passed on) is left out: nothing is known of it.
    void find_variables(const ir::Function& function) {
        for (const ir::BasicBlock& block : function.blocks) {
            if (!reached(block.label_id())) continue;
            for (const auto& instruction : block.instructions) {
                if (instruction->opcode() != spv::OpVariable || instruction->operand_words()[0] != spv::StorageClassFunction) continue;
                const ir::Instruction* pointer = module_.find_definition(instruction->type_id());
                if (!pointer || pointer->opcode() != spv::OpTypePointer || !tensors_.layout(pointer->word(3))) continue;
                std::vector<uint32_t>& stored = stored_[instruction->result_id()];
                if (instruction->operand_words().size() > 1) stored.push_back(instruction->operand_words()[1]);  // initializer
            }
        }
        std::vector<ir::Operand> operands;
        for (const ir::BasicBlock& block : function.blocks) {
            if (!reached(block.label_id())) continue;
            for (const auto& instruction : block.instructions) {
                const auto words = instruction->operand_words();
                if (instruction->opcode() == spv::OpStore && stored_.contains(words[0])) {
                    stored_[words[0]].push_back(words[1]);
                    continue;
                }
                if (instruction->opcode() == spv::OpLoad && stored_.contains(words[0])) continue;
                operands.clear();
                if (!ir::walk_operands(instruction->words(), module_, operands).empty()) continue;
                for (const ir::Operand& operand : operands) {
                    const uint32_t id = instruction->word(operand.first_word);
                    if (ir::is_id(operand.kind) && operand.kind != grammar::OperandKind::IdResult && stored_.contains(id)) {
                        passed_on_.insert(id);
                    }
                }
            }
        }
    }

    std::vector<Word> unknown(uint32_t count) const { return std::vector<Word>(count, Word::unknown()); }

    // The words of `value`, a layout of `count` words.
    std::vector<Word> follow(uint32_t value, uint32_t count, uint32_t depth = 0) {
        const ir::Instruction* definition = module_.find_definition(value);
        if (!definition || count == 0 || ++steps_ > kMostSteps || depth > ir::kMostNesting) return unknown(count);
        const auto operands = definition->operand_words();
        switch (definition->opcode()) {
            case spv::OpCreateTensorLayoutNV: {  // as tensor_state.cpp creates it: blocks of 1, the rest 0
                const TensorLayoutType* type = tensors_.layout(definition->type_id());
                if (!type || type->words() != count) return unknown(count);  // another type: the lowering reports it
                std::vector<Word> words(count, Word::known(0));
                for (uint32_t d = 0; d < type->dimensions; ++d) words[type->block_size(d)] = Word::known(1);
                return words;
            }
            case spv::OpTensorLayoutSetDimensionNV:
            case spv::OpTensorLayoutSetStrideNV:
            case spv::OpTensorLayoutSliceNV:
            case spv::OpTensorLayoutSetClampValueNV:
            case spv::OpTensorLayoutSetBlockSizeNV: {
                const TensorLayoutType* type = tensors_.layout(definition->type_id());
                if (!type || type->words() != count || operands.empty()) return unknown(count);
                std::vector<Word> words = follow(operands[0], count, depth + 1);
                set(words, *type, definition->opcode(), operands.subspan(1));
                return words;
            }
            case spv::OpCopyObject:
                return follow(operands[0], count, depth + 1);
            case spv::OpLoad: {
                const auto stored = stored_.find(operands[0]);
                if (stored == stored_.end() || passed_on_.contains(operands[0])) return unknown(count);
                return merge_of(operands[0], stored->second, count, depth);
            }
            case spv::OpPhi: {
                std::vector<uint32_t> incoming;
                for (size_t i = 0; i + 1 < operands.size(); i += 2) {
                    if (reached(operands[i + 1])) incoming.push_back(operands[i]);
                }
                return merge_of(value, incoming, count, depth);
            }
            default:  // a function's parameter or result, a composite's part, ...
                return unknown(count);
        }
    }

    // The words on every path of `values`, merged at `at` (a variable or a phi): a path back to `at`
    // while it is followed adds nothing, so a word a loop keeps stays known.
    std::vector<Word> merge_of(uint32_t at, const std::vector<uint32_t>& values, uint32_t count, uint32_t depth) {
        std::vector<Word> merged(count);
        if (!following_.insert(at).second) return merged;
        for (uint32_t v : values) {
            const std::vector<Word> words = follow(v, count, depth + 1);
            for (uint32_t i = 0; i < count; ++i) merged[i].merge(words[i]);
        }
        following_.erase(at);
        return merged;
    }

    // A word set to an operand: its constant value, else unknown. A phi of constants counts where
    // the blocks reached bring one value (a block size picked by a switch on the data type).
    Word constant(uint32_t id, uint32_t depth = 0) {
        if (++steps_ > kMostSteps) return Word::unknown();
        const ir::Instruction* definition = module_.find_definition(id);
        if (definition && definition->opcode() == spv::OpPhi && depth < kMostPhis) {
            const auto operands = definition->operand_words();
            Word merged;
            for (size_t i = 0; i + 1 < operands.size(); i += 2) {
                if (reached(operands[i + 1])) merged.merge(constant(operands[i], depth + 1));
            }
            return merged.state == Word::State::Known ? merged : Word::unknown();
        }
        const std::optional<uint64_t> value = evaluate_constant(module_, id, specialization_);
        return value ? Word::known(static_cast<uint32_t>(*value)) : Word::unknown();
    }

    // tensor_state.cpp's set_layout on what is known: words set to operands take their constants;
    // words computed from others (offsets a slice adds to, strides a dimension packs) are unknown
    // unless every part is known.
    void set(std::vector<Word>& w, const TensorLayoutType& t, uint32_t opcode, std::span<const uint32_t> values) {
        const uint32_t d = t.dimensions;
        const size_t needed = opcode == spv::OpTensorLayoutSliceNV ? 2 * d : opcode == spv::OpTensorLayoutSetClampValueNV ? 1 : d;
        if (values.size() < needed) {
            w = unknown(static_cast<uint32_t>(w.size()));
            return;
        }
        switch (opcode) {
            case spv::OpTensorLayoutSetDimensionNV:
                for (uint32_t i = 0; i < d; ++i) {
                    w[t.layout_dimension(i)] = w[t.span(i)] = constant(values[i]);
                    w[t.offset(i)] = Word::known(0);
                    w[t.stride(i)] = Word::unknown();
                }
                return;
            case spv::OpTensorLayoutSetStrideNV:
                for (uint32_t i = 0; i < d; ++i) w[t.stride(i)] = constant(values[i]);
                return;
            case spv::OpTensorLayoutSliceNV:
                for (uint32_t i = 0; i < d; ++i) {
                    const Word add = constant(values[2 * i]);
                    Word& offset = w[t.offset(i)];
                    const bool both = offset.state == Word::State::Known && add.state == Word::State::Known;
                    offset = both ? Word::known(offset.value + add.value) : Word::unknown();
                    w[t.span(i)] = constant(values[2 * i + 1]);
                }
                return;
            case spv::OpTensorLayoutSetClampValueNV:
                w[t.clamp_value()] = constant(values[0]);
                return;
            case spv::OpTensorLayoutSetBlockSizeNV:
                for (uint32_t i = 0; i < d; ++i) w[t.block_size(i)] = constant(values[i]);
                return;
            default:
                return;
        }
    }

    const ir::Module& module_;
    const TensorTypes& tensors_;
    std::span<const SpecializationValue> specialization_;
    std::unordered_set<uint32_t> reached_;
    std::unordered_map<uint32_t, std::vector<uint32_t>> stored_;  // variable -> values stored
    std::unordered_set<uint32_t> passed_on_;
    std::unordered_set<uint32_t> following_;
    uint32_t steps_ = 0;
};

}  // namespace

void TensorLayoutValues::collect(const ir::Module& module, const TensorTypes& tensors,
                                 std::span<const SpecializationValue> specialization) {
    for (const auto& function : module.functions) {
        std::optional<LayoutTrace> trace;
        for (const ir::BasicBlock& block : function->blocks) {
            for (const auto& instruction : block.instructions) {
                const uint32_t opcode = instruction->opcode();
                if (opcode != spv::OpCooperativeMatrixLoadTensorNV && opcode != spv::OpCooperativeMatrixStoreTensorNV) continue;
                const auto operands = instruction->operand_words();  // Pointer, Object, TensorLayout, ...
                if (operands.size() < 3 || words_.contains(operands[2])) continue;
                if (!trace) trace.emplace(module, tensors, specialization, *function);
                words_.emplace(operands[2], trace->words(operands[2]));
            }
        }
    }
}

const TensorLayoutValues::Words* TensorLayoutValues::of(uint32_t layout) const {
    const auto found = words_.find(layout);
    return found == words_.end() ? nullptr : &found->second;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
