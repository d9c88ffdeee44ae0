#include "passes/float16/float16_pass.h"

#include <bit>
#include <format>
#include <string>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

#include "ir/id_remap.h"
#include "ir/instruction_text.h"
#include "ir/operand_walker.h"
#include "ir/type_order.h"
#include "passes/common/shared_memory.h"
#include "passes/float16/half_arithmetic.h"
#include "passes/float16/memory_boundary.h"
#include "passes/float16/widened_types.h"

namespace vkpolyfill::lowering {
namespace {

using namespace float16;

// The f32 with the value of the f16 `bits` (exactly: f32 holds every f16, subnormals included).
uint32_t single_bits(uint32_t bits) {
    const uint32_t sign = (bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F) return sign | 0x7F800000u | (mantissa << 13);
    if (exponent != 0) return sign | ((exponent + 112) << 23) | (mantissa << 13);
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;  // zero or a subnormal
    return sign | std::bit_cast<uint32_t>(magnitude);
}

bool is_type_declaration(const ir::Instruction& instruction) {
    const uint32_t opcode = instruction.opcode();
    return (opcode >= spv::OpTypeVoid && opcode <= spv::OpTypeForwardPointer) || opcode == spv::OpTypeCooperativeMatrixKHR ||
           opcode == spv::OpTypeCooperativeMatrixNV || opcode == spv::OpTypeTensorARM;
}

class Float16Pass final : public Pass {
  public:
    std::string_view name() const override { return "Float16"; }

    bool run(PassContext& context) override {
        ir::Module& module = context.module;
        WidenedTypes widths(module, context.types, context.diagnostics, context.target.shader_int16);
        if (widths.half()) {
            check_execution_modes(context);
            if (!widen(context, widths)) return false;
        }
        std::erase_if(module.capabilities, [](const auto& i) { return i->word(1) == spv::CapabilityFloat16; });
        return true;
    }

  private:
    // Float controls for 16-bit floats would apply to arithmetic that now happens in f32.
    static void check_execution_modes(PassContext& context) {
        for (const auto& mode : context.module.execution_modes) {
            if (mode->opcode() != spv::OpExecutionMode || mode->words().size() < 4) continue;
            switch (mode->word(2)) {
                case spv::ExecutionModeDenormPreserve:
                case spv::ExecutionModeDenormFlushToZero:
                case spv::ExecutionModeSignedZeroInfNanPreserve:
                case spv::ExecutionModeRoundingModeRTE:
                case spv::ExecutionModeRoundingModeRTZ:
                    if (mode->word(3) == 16) {
                        context.diagnostics.error(
                            "float controls for 16-bit floats are not emulated (the device lacks shaderFloat16)",
                            mode->source_offset(), ir::instruction_text(mode->words(), context.module));
                    }
                    break;
                default:
                    break;
            }
        }
    }

    static bool widen(PassContext& context, WidenedTypes& widths) {
        ir::Module& module = context.module;
        const uint64_t shared_bytes = module_shared_memory(module);
        std::unordered_map<uint32_t, uint32_t> original_types;
        module.for_each_instruction([&](const ir::Instruction& i) {
            if (i.type_id() && i.result_id()) original_types[i.result_id()] = i.type_id();
        });
        // Widened copies of the types values have: a laid-out struct only memory uses gets none (a
        // copy of a block with a runtime array would be invalid).
        const auto widen_types_used = [&](const ir::Instruction& instruction) {
            std::vector<ir::Operand> operands;
            if (!ir::walk_operands(instruction.words(), module, operands).empty()) return;
            for (const ir::Operand& operand : operands) {
                if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult) continue;
                const ir::Instruction* definition = module.find_definition(instruction.word(operand.first_word));
                if (definition && is_type_declaration(*definition)) widths.widened(definition->result_id());
            }
        };
        // By index: widening appends types.
        for (size_t i = 0; i < module.types_values_constants.size(); ++i) {
            const ir::Instruction& instruction = *module.types_values_constants[i];
            if (!is_type_declaration(instruction)) widen_types_used(instruction);
        }
        for (const auto& function : module.functions) function->for_each_instruction(widen_types_used);
        if (context.diagnostics.has_errors()) return false;

        const std::unordered_map<uint32_t, uint32_t> changed = widths.changed();
        const ir::IdMap map(changed.begin(), changed.end());
        for (const auto& instruction : module.types_values_constants) {
            if (is_type_declaration(*instruction)) continue;
            if (!widen_constant(context, widths, *instruction)) return false;
            ir::remap_id_operands(*instruction, map, module);
        }
        for (const auto& function : module.functions) {
            function->for_each_instruction([&](const ir::Instruction& i) {
                ir::remap_id_operands(const_cast<ir::Instruction&>(i), map, module);
            });
        }
        null_initializers_of_bits(module, context.types, widths, original_types);
        round_half_arithmetic(module, context.types, widths, original_types, context.diagnostics);
        convert_memory_accesses(module, context.types, widths, original_types, context.diagnostics);
        if (context.diagnostics.has_errors()) return false;

        // Every f16 type registers had is gone; memory keeps its own.
        std::unordered_set<uint32_t> replaced;
        for (size_t i = 0; i < module.types_values_constants.size(); ++i) {
            const ir::Instruction& instruction = *module.types_values_constants[i];
            const uint32_t type = instruction.result_id();
            if (is_type_declaration(instruction) && widths.holds_half(type) && !widths.in_memory().contains(type) &&
                widths.widened(type) != type) {
                replaced.insert(type);
            }
        }
        // A declaration the pass keeps must not name a replaced type (one it does not know, holding f16).
        for (const auto& instruction : module.types_values_constants) {
            if (!is_type_declaration(*instruction) || replaced.contains(instruction->result_id())) continue;
            std::vector<ir::Operand> operands;
            if (!ir::walk_operands(instruction->words(), module, operands).empty()) continue;
            for (const ir::Operand& operand : operands) {
                if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult ||
                    !replaced.contains(instruction->word(operand.first_word))) {
                    continue;
                }
                context.diagnostics.error(
                    std::string("16-bit floats in a ") + std::string(instruction->name()) +
                        " are not emulated (the device lacks shaderFloat16)",
                    instruction->source_offset(), ir::instruction_text(instruction->words(), module));
                return false;
            }
        }
        ir::remove_global_definitions(module, replaced);
        ir::sort_types_values_constants(module);
        declare_storage_capabilities(module, widths);
        if (widths.uses_bits()) module.add_capability(spv::CapabilityInt16);
        return fits_shared_memory(context, shared_bytes);
    }

    // A workgroup variable's initializer (only a null one is allowed) in the integer form of its f16 data.
    static void null_initializers_of_bits(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                                          const std::unordered_map<uint32_t, uint32_t>& original_types) {
        for (const auto& instruction : module.types_values_constants) {
            const auto original = original_types.find(instruction->result_id());
            if (instruction->opcode() != spv::OpVariable || instruction->words().size() < 5 ||
                original == original_types.end() || !widths.points_at_bits(original->second)) {
                continue;
            }
            instruction->set_word(4, types.get_constant_null(module.find_definition(instruction->type_id())->word(3)));
        }
    }

    // f16 data in plain workgroup memory widened to f32 (a device without shaderInt16) takes twice
    // the shared memory, which may pass the device's limit. A module over the limit before is left
    // to the driver, as it would be without the layer.
    static bool fits_shared_memory(PassContext& context, uint64_t bytes_before) {
        const uint64_t bytes = module_shared_memory(context.module);
        const uint32_t limit = context.target.max_shared_memory_bytes;
        if (limit == 0 || bytes <= limit || bytes_before > limit) return true;
        context.diagnostics.error(std::format(
            "with its 16-bit floats in shared memory widened to 32 bits (the device lacks shaderFloat16) the shader's "
            "shared memory takes {} bytes instead of {}, more than the device's {} (maxComputeSharedMemorySize)",
            bytes, bytes_before, limit));
        return false;
    }

    // Without Float16, f16 data left in memory needs the 16-bit storage capability of its storage
    // class (Float16 alone allowed it there; the application enabled the matching feature for it).
    static void declare_storage_capabilities(ir::Module& module, WidenedTypes& widths) {
        for (const auto& instruction : module.types_values_constants) {
            if (instruction->opcode() == spv::OpTypePointer && widths.laid_out(instruction->word(2)) &&
                widths.holds_half(instruction->word(3))) {
                module.add_capability(storage_capability(instruction->word(2)));
            }
        }
    }

    static uint32_t storage_capability(uint32_t storage_class) {
        switch (storage_class) {
            case spv::StorageClassUniform:
                return spv::CapabilityUniformAndStorageBuffer16BitAccess;
            case spv::StorageClassPushConstant:
                return spv::CapabilityStoragePushConstant16;
            case spv::StorageClassWorkgroup:
                return spv::CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR;
            default:  // storage buffers, physical storage buffers, shader records
                return spv::CapabilityStorageBuffer16BitAccess;
        }
    }

    // An f16 constant becomes the f32 of the same value; specialization constants would need the
    // application's 2-byte value converted, which lowering cannot do.
    static bool widen_constant(PassContext& context, WidenedTypes& widths, ir::Instruction& instruction) {
        const uint32_t opcode = instruction.opcode();
        if (opcode == spv::OpConstant && instruction.type_id() == widths.half()) {
            instruction.set_word(3, single_bits(instruction.word(3) & 0xFFFFu));
            return true;
        }
        const bool specialized = opcode == spv::OpSpecConstant || opcode == spv::OpSpecConstantOp;
        if (specialized && widths.holds_half(instruction.type_id())) {
            context.diagnostics.error(
                "16-bit float specialization constants are not emulated (the device lacks shaderFloat16)",
                instruction.source_offset(), ir::instruction_text(instruction.words(), context.module));
            return false;
        }
        return true;
    }
};

}  // namespace

std::unique_ptr<Pass> make_float16_pass() { return std::make_unique<Float16Pass>(); }

}  // namespace vkpolyfill::lowering
