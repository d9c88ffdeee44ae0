#include "passes/cooperative_matrix/row_values.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/function_builder.h"
#include "ir/operand_walker.h"
#include "passes/common/id_operands.h"
#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/element_ops.h"
#include "passes/cooperative_matrix/multiply_add.h"
#include "passes/cooperative_matrix/relayout.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

constexpr uint32_t kReduceRow = 1, kReduce2x2 = 4;  // OpCooperativeMatrixReduceNV's Reduce mask bits

// Accumulators whose invocations hold more than one column of a row, in row blocks.
bool has_row_values_type(const MatrixType* m) {
    return m && m->use == Use::Accumulator && !m->resident && !m->rows_of && !m->striped() && m->layout.columns_per_lane > 1;
}

// Whether every constituent of a composite is the same id (a matrix filled with one value).
bool one_constituent(const ir::Instruction& instruction) {
    const auto constituents = instruction.operand_words();
    return !constituents.empty() && std::ranges::all_of(constituents, [&](uint32_t c) { return c == constituents[0]; });
}

class RowValues {
  public:
    explicit RowValues(LoweringState& state) : state_(state), module_(state.module()) {}

    void run() {
        find_filled_constants();
        for (const auto& function : module_.functions) {
            for (ir::BasicBlock& block : function->blocks) {
                blocks_[block.label_id()] = &block;
                for (const auto& instruction : block.instructions) {
                    if (has_row_values_type(state_.matrices.find(instruction->type_id()))) candidates_.push_back(instruction.get());
                }
            }
        }
        for (const ir::Instruction* candidate : candidates_) values_.insert(candidate->result_id());
        // Optimistic: a candidate leaves once one of its operands is not held as row values, until none does.
        for (bool changed = true; changed;) {
            changed = false;
            for (const ir::Instruction* candidate : candidates_) {
                if (values_.contains(candidate->result_id()) && !keeps_row_values(*candidate)) {
                    values_.erase(candidate->result_id());
                    changed = true;
                }
            }
        }
        for (ir::Instruction* candidate : candidates_) {
            if (values_.contains(candidate->result_id())) candidate->set_word(1, state_.matrices.row_values_type(state_.context, candidate->type_id()));
        }
        for (const auto& function : module_.functions) {
            for (ir::BasicBlock& block : function->blocks) rewrite_uses(block);
        }
        for (const PhiExpansion& phi : phi_expansions_) expand_on_edge(phi);
    }

  private:
    struct PhiExpansion {
        ir::Instruction* phi;
        size_t word;  // the incoming value's
    };

    // Constants, nulls and undefined values outside functions of accumulator types that hold one
    // value a row, each given a twin of the row-values type where a kept value uses it.
    void find_filled_constants() {
        for (const auto& instruction : module_.types_values_constants) {
            if (!has_row_values_type(state_.matrices.find(instruction->type_id()))) continue;
            switch (instruction->opcode()) {
                case spv::OpConstantNull:
                case spv::OpUndef:
                    break;
                case spv::OpConstantComposite:
                case spv::OpSpecConstantComposite:
                case spv::OpConstantCompositeReplicateEXT:
                case spv::OpSpecConstantCompositeReplicateEXT:
                    if (one_constituent(*instruction)) break;
                    continue;
                default:
                    continue;
            }
            constants_.emplace(instruction->result_id(), 0);
        }
    }

    bool held(uint32_t id) const { return values_.contains(id) || constants_.contains(id); }

    // Whether `instruction`'s result holds one value a row, given which values do so far.
    bool keeps_row_values(const ir::Instruction& instruction) {
        const auto operands = instruction.operand_words();
        switch (instruction.opcode()) {
            case spv::OpCompositeConstruct:
            case spv::OpCompositeConstructReplicateEXT:
                return one_constituent(instruction);
            case spv::OpUndef:
                return true;
            case spv::OpCooperativeMatrixReduceNV:
                return (operands[1] & kReduceRow) != 0 && (operands[1] & kReduce2x2) == 0;
            case spv::OpPhi:
                for (size_t i = 0; i < operands.size(); i += 2) {
                    if (!held(operands[i])) return false;
                }
                return true;
            case spv::OpSelect: {
                const ir::Instruction* condition = module_.find_definition(module_.type_of(operands[0]));
                return condition && condition->opcode() == spv::OpTypeBool && held(operands[1]) && held(operands[2]);
            }
            case spv::OpCopyObject:
            case spv::OpCopyLogical:
                return held(operands[0]);
            case spv::OpCooperativeMatrixPerElementOpNV:
                if (!held(operands[0]) || !ignores_column(operands[1])) return false;
                return std::ranges::all_of(operands.subspan(2), [&](uint32_t extra) { return !state_.matrices.of_value(module_, extra) || held(extra); });
            case spv::OpCooperativeMatrixMulAddKHR:
                return sums_rows_of_a(state_, instruction) && held(operands[2]);
            default:
                if (!is_element_wise(instruction.opcode()) || needs_relayout(state_, instruction)) return false;
                return std::ranges::all_of(operands, [&](uint32_t operand) { return !state_.matrices.of_value(module_, operand) || held(operand); });
        }
    }

    // Whether per-element function `func` never reads its column (its second parameter).
    bool ignores_column(uint32_t func) {
        if (const auto known = ignores_column_.find(func); known != ignores_column_.end()) return known->second;
        bool ignores = false;
        for (const auto& function : module_.functions) {
            if (function->id() != func) continue;
            std::vector<uint32_t> parameters;
            for (const auto& instruction : function->header) {
                if (instruction->opcode() == spv::OpFunctionParameter) parameters.push_back(instruction->result_id());
            }
            if (parameters.size() < 2) break;
            ignores = true;
            function->for_each_instruction([&](const ir::Instruction& instruction) {
                ignores = ignores && !refers_to(module_, instruction, [&](uint32_t id) { return id == parameters[1]; });
            });
        }
        ignores_column_.emplace(func, ignores);
        return ignores;
    }

    // The row-values twin of filled constant `id`.
    uint32_t twin_constant(uint32_t id) {
        uint32_t& twin = constants_.at(id);
        if (twin) return twin;
        const ir::Instruction& constant = *module_.find_definition(id);
        const uint32_t type = state_.matrices.row_values_type(state_.context, constant.type_id());
        std::vector<uint32_t> words{type, module_.take_next_id()};
        uint32_t opcode = constant.opcode();
        if (opcode == spv::OpConstantComposite || opcode == spv::OpConstantCompositeReplicateEXT) {
            opcode = spv::OpConstantComposite;  // one constituent: expanded to the type's components with the others
            words.push_back(constant.operand_words()[0]);
        } else if (opcode == spv::OpSpecConstantComposite || opcode == spv::OpSpecConstantCompositeReplicateEXT) {
            opcode = spv::OpSpecConstantComposite;
            words.push_back(constant.operand_words()[0]);
        }
        module_.types_values_constants.push_back(ir::make_instruction(opcode, words));
        module_.register_definition(*module_.types_values_constants.back());
        twin = words[1];
        return twin;
    }

    // Row-values operands of instructions that keep row values stay (filled constants become their
    // twins); every other use of a row-values value takes its expansion.
    void rewrite_uses(ir::BasicBlock& block) {
        for (size_t i = 0; i < block.instructions.size(); ++i) {
            ir::Instruction& user = *block.instructions[i];
            if (only_describes_values(module_, user)) continue;
            const bool keeps = values_.contains(user.result_id()) && user.opcode() != spv::OpCooperativeMatrixReduceNV;
            std::vector<ir::Operand> operands;
            ir::walk_operands(user.words(), module_, operands);
            for (const ir::Operand& operand : operands) {
                if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult ||
                    operand.kind == grammar::OperandKind::IdResultType) {
                    continue;
                }
                const uint32_t id = user.word(operand.first_word);
                if (keeps) {
                    if (constants_.contains(id)) user.set_word(operand.first_word, twin_constant(id));
                } else if (values_.contains(id)) {
                    if (user.opcode() == spv::OpPhi) {
                        phi_expansions_.push_back({&user, operand.first_word});
                    } else {
                        user.set_word(operand.first_word, expansion(block, i, id));
                        ++i;  // the user moved on by one
                    }
                }
            }
        }
    }

    // OpCopyObject of row-values `value` to its full type, inserted at `position` of `block`.
    uint32_t expansion(ir::BasicBlock& block, size_t position, uint32_t value) {
        const uint32_t full = state_.matrices.of_value(module_, value)->rows_of;
        return ir::Builder(module_, block, position).add(spv::OpCopyObject, full, {value});
    }

    // A phi's incoming row-values value expanded at the end of the block it comes from, before the
    // block's merge instruction and branch.
    void expand_on_edge(const PhiExpansion& phi) {
        const auto parent = blocks_.find(phi.phi->word(phi.word + 1));
        if (parent == blocks_.end() || parent->second->instructions.size() < 2) return;  // not a block: spirv-val's to report
        ir::BasicBlock& from = *parent->second;
        size_t position = from.instructions.size() - 1;
        const uint32_t before = from.instructions[position - 1]->opcode();
        if (before == spv::OpLoopMerge || before == spv::OpSelectionMerge) --position;
        phi.phi->set_word(phi.word, expansion(from, position, phi.phi->word(phi.word)));
    }

    LoweringState& state_;
    ir::Module& module_;
    std::vector<ir::Instruction*> candidates_;
    std::unordered_set<uint32_t> values_;                   // the values kept as row values
    std::unordered_map<uint32_t, uint32_t> constants_;      // filled constant -> its twin (0: none yet)
    std::unordered_map<uint32_t, bool> ignores_column_;     // per-element function -> whether it ignores its column
    std::unordered_map<uint32_t, ir::BasicBlock*> blocks_;  // label -> block
    std::vector<PhiExpansion> phi_expansions_;
};

}  // namespace

void keep_row_values(LoweringState& state) {
    if (!distributes_matrices(state.context)) return;
    RowValues(state).run();
}

bool is_row_expansion(LoweringState& state, const ir::Instruction& instruction) {
    if (instruction.opcode() != spv::OpCopyObject) return false;
    const MatrixType* operand = state.matrices.of_value(state.module(), instruction.operand_words()[0]);
    return operand && operand->rows_of && operand->rows_of == instruction.type_id();
}

void lower_row_expansion(LoweringState& state, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    const uint32_t value = instruction.operand_words()[0];
    const MatrixType& rows = *state.matrices.of_value(state.module(), value);
    const MatrixType& full = *state.matrices.find(rows.rows_of);
    const std::vector<uint32_t> key{0x524F5758u /* "ROWX" */, rows.id};
    uint32_t function_id = state.find_function(key);
    if (!function_id) {
        const uint32_t parameters[] = {rows.lowered};
        ir::FunctionBuilder function(state.module(), state.types(), full.lowered, parameters);
        ir::Builder& b = function.body();
        // Read as the full matrix's components are iterated (written out, or by index in a loop).
        Components held(state, function, rows.lowered, rows.component.type, full.length, function.parameter(0));
        Components expanded(state, function, full.lowered, full.component.type, full.length);
        const uint32_t per_row = full.layout.columns_per_lane;
        repeat(state, function, full.length, [&](const Iteration& e) {
            const Iteration row = e.fixed ? Iteration{state.uint_constant(*e.fixed / per_row), *e.fixed / per_row}
                                          : Iteration{b.add(spv::OpUDiv, state.uint_type(), {e.index, state.uint_constant(per_row)}), std::nullopt};
            expanded.set(e, held.get(row));
        });
        function.finish(expanded.value());
        function_id = function.id();
        state.remember_function(key, function_id);
    }
    const uint32_t type = instruction.type_id(), result = instruction.result_id();
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));  // `instruction` dies here
    ir::Builder(state.module(), block, index).add(spv::OpFunctionCall, type, {function_id, value}, result);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
