#include "passes/cooperative_matrix/cooperative_matrix_pass.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/id_remap.h"
#include "ir/instruction_text.h"
#include "ir/type_dedup.h"
#include "ir/type_order.h"
#include "passes/common/entry_point_reach.h"
#include "passes/common/packed_16bit_arrays.h"
#include "passes/common/selection_control.h"
#include "passes/cooperative_matrix/carried_matrices.h"
#include "passes/cooperative_matrix/element_ops.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/memory_access.h"
#include "passes/cooperative_matrix/multiply_add.h"
#include "passes/cooperative_matrix/per_element.h"
#include "passes/cooperative_matrix/relayout.h"
#include "passes/cooperative_matrix/resident_accumulators.h"
#include "passes/cooperative_matrix/row_values.h"
#include "passes/cooperative_matrix/scratch.h"
#include "passes/cooperative_matrix/tensor_memory.h"
#include "passes/cooperative_matrix/tensor_state.h"

namespace vkpolyfill::lowering {
namespace {

using cooperative_matrix::LoweringState;
using cooperative_matrix::MatrixType;
using cooperative_matrix::Scratch;

// What this pass lowers: SPV_KHR_cooperative_matrix, the parts of SPV_NV_cooperative_matrix2
// implemented so far (reductions, conversions, per-element operations, tensor loads and stores with
// decode functions; subgroup and workgroup scope), SPV_NV_tensor_addressing's layouts and views and
// SPV_NV_cooperative_matrix_decode_vector's vector decode functions.
constexpr uint32_t kLoweredCapabilities[] = {
    spv::CapabilityCooperativeMatrixKHR, spv::CapabilityCooperativeMatrixReductionsNV,
    spv::CapabilityCooperativeMatrixConversionsNV, spv::CapabilityCooperativeMatrixPerElementOperationsNV,
    spv::CapabilityCooperativeMatrixTensorAddressingNV, spv::CapabilityCooperativeMatrixBlockLoadsNV,
    spv::CapabilityTensorAddressingNV, spv::CapabilityCooperativeMatrixDecodeVectorNV};
constexpr std::string_view kLoweredExtensions[] = {"SPV_KHR_cooperative_matrix", "SPV_NV_cooperative_matrix2",
                                                   "SPV_NV_tensor_addressing", "SPV_NV_cooperative_matrix_decode_vector"};

// The instructions of these extensions that compute on matrices.
bool is_matrix_operation(uint32_t opcode) {
    switch (opcode) {
        case spv::OpCooperativeMatrixLoadKHR:
        case spv::OpCooperativeMatrixStoreKHR:
        case spv::OpCooperativeMatrixMulAddKHR:
        case spv::OpCooperativeMatrixLengthKHR:
        case spv::OpCooperativeMatrixReduceNV:
        case spv::OpCooperativeMatrixPerElementOpNV:
        case spv::OpCooperativeMatrixConvertNV:
        case spv::OpCooperativeMatrixTransposeNV:
        case spv::OpCooperativeMatrixLoadTensorNV:
        case spv::OpCooperativeMatrixStoreTensorNV:
            return true;
        default:
            return false;
    }
}

// The layer reports cooperativeMatrixSupportedStages = compute: the lane layouts need the fixed
// subgroup size only compute pipelines can ask for.
constexpr StageRule kComputeOnly{[](uint32_t model) { return model == spv::ExecutionModelGLCompute; }, is_matrix_operation,
                                 "a compute shader", "cooperative matrices are supported in compute shaders only"};

class CooperativeMatrixPass final : public Pass {
  public:
    std::string_view name() const override { return "cooperative matrices (KHR and NV2)"; }

    bool run(PassContext& context) override {
        if (report_outside_allowed_stages(context.module, kComputeOnly, context.diagnostics)) return false;
        LoweringState state(context);
        if (!state.matrices.collect(context) || !state.tensors.collect(context)) return false;
        state.layout_values.collect(context.module, state.tensors, context.specialization);
        cooperative_matrix::choose_resident_accumulators(state);
        cooperative_matrix::keep_row_values(state);
        Scratch scratch(state);
        expand_splat_constants(state);
        const size_t original_functions = context.module.functions.size();
        for (size_t f = 0; f < original_functions; ++f) {
            for (ir::BasicBlock& block : context.module.functions[f]->blocks) {
                // Backwards, so the instructions a rewrite inserts never shift the ones still to come.
                for (size_t i = block.instructions.size(); i-- > 0;) {
                    lower_instruction(state, scratch, block, cooperative_matrix::plain_around(state, scratch, block, i));
                }
            }
        }
        for (size_t f = 0; f < original_functions; ++f) reject_unknown_uses(state, *context.module.functions[f]);
        if (context.diagnostics.has_errors() || !scratch.finish()) return false;
        for (size_t f = 0; f < original_functions; ++f) cooperative_matrix::carry_matrices_in_variables(state, *context.module.functions[f]);
        replace_types(state);
        remove_declarations(context.module);
        if (context.target.unflattened_selections) keep_entry_point_selections(context.module);
        // The GPU layout: a GPU's registers hold 16-bit components two at a time (as 32-bit words
        // where the Float16 pass, after this one, will hold halves as f32).
        if (context.target.distributed_matrices) {
            const bool halves_widened = (context.target.emulate & bit(Emulated::Float16)) != 0;
            pack_16bit_arrays(context.module, context.types, halves_widened ? PairForm::Word : PairForm::Vector);
        }
        if (state.uses_matrix_units()) {  // the driver's own, kept
            context.module.add_capability(spv::CapabilityCooperativeMatrixKHR);
            context.module.add_extension("SPV_KHR_cooperative_matrix");
        }
        return true;
    }

  private:
    static void lower_instruction(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t i) {
        const ir::Instruction& instruction = *block.instructions[i];
        const uint32_t opcode = instruction.opcode();
        if (cooperative_matrix::is_row_expansion(state, instruction)) {
            cooperative_matrix::lower_row_expansion(state, block, i);
            return;
        }
        if (cooperative_matrix::needs_relayout(state, instruction)) {
            cooperative_matrix::lower_relayout(state, scratch, block, i);
            return;
        }
        switch (opcode) {
            case spv::OpCooperativeMatrixReduceNV:
                cooperative_matrix::lower_reduce(state, scratch, block, i);
                return;
            case spv::OpCooperativeMatrixPerElementOpNV:
                cooperative_matrix::lower_per_element(state, block, i);
                return;
            case spv::OpCooperativeMatrixLoadKHR:
            case spv::OpCooperativeMatrixStoreKHR:
                cooperative_matrix::lower_memory_access(state, block, i);
                return;
            case spv::OpCooperativeMatrixLoadTensorNV:
            case spv::OpCooperativeMatrixStoreTensorNV:
                cooperative_matrix::lower_tensor_memory_access(state, block, i);
                return;
            case spv::OpCooperativeMatrixMulAddKHR:
                cooperative_matrix::lower_multiply_add(state, scratch, block, i);
                return;
            case spv::OpCooperativeMatrixLengthKHR:
                lower_length(state, block, i);
                return;
            default:
                if (cooperative_matrix::is_tensor_state_op(opcode)) {
                    cooperative_matrix::lower_tensor_state(state, block, i);
                    return;
                }
                break;
        }
        const MatrixType* result = state.matrices.find(instruction.type_id());
        if (!result) return;
        if (opcode == spv::OpCompositeConstruct || opcode == spv::OpCompositeConstructReplicateEXT) {
            if (auto expanded = splat(state, instruction, spv::OpCompositeConstruct, result->length)) {
                block.instructions[i] = std::move(expanded);
                state.module().register_definition(*block.instructions[i]);
            }
        } else if (cooperative_matrix::is_element_wise(opcode)) {
            cooperative_matrix::lower_element_wise(state, block, i);
        }
    }

    // OpCooperativeMatrixLengthKHR is a constant of the lane layout.
    static void lower_length(LoweringState& state, ir::BasicBlock& block, size_t i) {
        const ir::Instruction& instruction = *block.instructions[i];
        const MatrixType* matrix = state.matrices.find(instruction.operand_words()[0]);
        if (!matrix) {
            state.context.diagnostics.error("OpCooperativeMatrixLengthKHR names a type that is not a cooperative matrix",
                                            instruction.source_offset(), ir::instruction_text(instruction.words(), state.module()));
            return;
        }
        const uint32_t words[] = {instruction.type_id(), instruction.result_id(), state.uint_constant(matrix->length)};
        block.instructions[i] = ir::make_instruction(spv::OpCopyObject, words);
        state.module().register_definition(*block.instructions[i]);
    }

    // A composite with a single constituent that fills the matrix (the only matrix composite the
    // extensions define), spelled out once per component; any other count is reported: nullptr.
    static std::unique_ptr<ir::Instruction> splat(LoweringState& state, const ir::Instruction& instruction, uint32_t opcode,
                                                  uint32_t length) {
        if (const size_t constituents = instruction.operand_words().size(); constituents != 1) {
            state.context.diagnostics.error(
                std::format("{} of a cooperative matrix must have one constituent, not {}", instruction.name(), constituents),
                instruction.source_offset(), ir::instruction_text(instruction.words(), state.module()));
            return nullptr;
        }
        std::vector<uint32_t> words{instruction.type_id(), instruction.result_id()};
        words.insert(words.end(), length, instruction.operand_words()[0]);
        return ir::make_instruction(opcode, words);
    }

    static void expand_splat_constants(LoweringState& state) {
        ir::InstructionList& constants = state.module().types_values_constants;
        for (size_t i = 0; i < constants.size(); ++i) {  // resident splats add their tiles' constants
            const ir::Instruction& instruction = *constants[i];
            const MatrixType* matrix = state.matrices.find(instruction.type_id());
            if (!matrix) continue;
            uint32_t opcode = 0;
            switch (instruction.opcode()) {
                case spv::OpConstantComposite:
                case spv::OpConstantCompositeReplicateEXT:
                    opcode = spv::OpConstantComposite;
                    break;
                case spv::OpSpecConstantComposite:
                case spv::OpSpecConstantCompositeReplicateEXT:
                    opcode = spv::OpSpecConstantComposite;
                    break;
                default:
                    continue;  // OpConstantNull and OpUndef hold for arrays as they are
            }
            std::unique_ptr<ir::Instruction> expanded;
            if (!matrix->resident) {
                expanded = splat(state, instruction, opcode, matrix->length);
            } else if (instruction.operand_words().size() == 1) {
                expanded = cooperative_matrix::resident_splat(state, *matrix, opcode, instruction.result_id(), instruction.operand_words()[0]);
            } else {
                expanded = splat(state, instruction, opcode, 1);  // reports the count
            }
            if (expanded) {
                constants[i] = std::move(expanded);
                state.module().register_definition(*constants[i]);
            }
        }
    }

    // Anything else that takes or makes a matrix would see an array it does not expect: say so.
    static void reject_unknown_uses(LoweringState& state, const ir::Function& function) {
        ir::Module& module = state.module();
        function.for_each_instruction([&](const ir::Instruction& instruction) {
            if (cooperative_matrix::passes_matrices_through(instruction.opcode()) ||
                cooperative_matrix::only_describes_values(module, instruction)) {
                return;
            }
            bool uses_matrix = state.matrices.find(instruction.type_id()) != nullptr;
            std::vector<ir::Operand> operands;
            ir::walk_operands(instruction.words(), module, operands);
            for (const ir::Operand& operand : operands) {
                if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult ||
                    operand.kind == grammar::OperandKind::IdResultType) {
                    continue;
                }
                uses_matrix |= state.matrices.of_value(module, instruction.word(operand.first_word)) != nullptr;
            }
            if (uses_matrix) {
                state.context.diagnostics.error(std::format("{} on a cooperative matrix is not supported", instruction.name()),
                                                instruction.source_offset(), ir::instruction_text(instruction.words(), module));
            }
        });
    }

    static void replace_types(LoweringState& state) {
        ir::Module& module = state.module();
        ir::IdMap lowered;
        std::unordered_set<uint32_t> removed;
        for (const auto& [id, matrix] : state.matrices.all()) {
            lowered[id] = matrix.resident ? matrix.resident->array : matrix.lowered;
            removed.insert(id);
        }
        for (const auto& [id, array] : state.tensors.replacements()) {
            lowered[id] = array;
            removed.insert(id);
        }
        ir::remap_id_operands(module, lowered);
        ir::remove_global_definitions(module, removed);
        ir::merge_duplicate_types(module);
        ir::sort_types_values_constants(module);
    }

    static void remove_declarations(ir::Module& module) {
        std::erase_if(module.capabilities, [](const std::unique_ptr<ir::Instruction>& i) {
            return std::ranges::find(kLoweredCapabilities, i->word(1)) != std::end(kLoweredCapabilities);
        });
        std::erase_if(module.extensions, [](const std::unique_ptr<ir::Instruction>& i) {
            return std::ranges::find(kLoweredExtensions, ir::decode_literal_string(i->operand_words())) != std::end(kLoweredExtensions);
        });
    }
};

}  // namespace

std::unique_ptr<Pass> make_cooperative_matrix_pass() { return std::make_unique<CooperativeMatrixPass>(); }

}  // namespace vkpolyfill::lowering
