#include "passes/float16/half_arithmetic.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/builder.h"
#include "ir/instruction_text.h"
#include "passes/float16/half_bits.h"

namespace vkpolyfill::lowering::float16 {
namespace {

// Opcodes whose f16 result f32 arithmetic may not give exactly (OpFNegate, selects and moves do).
bool rounds(uint32_t opcode) {
    switch (opcode) {
        case spv::OpFAdd: case spv::OpFSub: case spv::OpFMul: case spv::OpFDiv: case spv::OpFRem: case spv::OpFMod:
        case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar: case spv::OpVectorTimesMatrix:
        case spv::OpMatrixTimesVector: case spv::OpMatrixTimesMatrix: case spv::OpOuterProduct: case spv::OpDot:
        case spv::OpConvertSToF: case spv::OpConvertUToF:
        case spv::OpDPdx: case spv::OpDPdy: case spv::OpFwidth: case spv::OpDPdxFine: case spv::OpDPdyFine:
        case spv::OpFwidthFine: case spv::OpDPdxCoarse: case spv::OpDPdyCoarse: case spv::OpFwidthCoarse:
        case spv::OpGroupNonUniformFAdd: case spv::OpGroupNonUniformFMul: case spv::OpGroupFAdd:
        case spv::OpExtInst:
            return true;
        default:
            return false;
    }
}

class HalfArithmetic {
  public:
    HalfArithmetic(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                   const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics)
        : module_(module), types_(types), widths_(widths), original_types_(original_types), diagnostics_(diagnostics) {
        glsl_ = module.get_ext_inst_import("GLSL.std.450");
        single_ = widths.single();
        pair_ = types.get_type_vector(single_, 2);
        word_ = types.get_type_int(32, false);
    }

    void run() {
        for (auto& function : module_.functions) {
            for (ir::BasicBlock& block : function->blocks) {
                for (size_t i = 0; i < block.instructions.size(); ++i) i = rewrite(block, i);
            }
        }
    }

  private:
    uint32_t original_type(uint32_t id) const {
        const auto it = original_types_.find(id);
        return it == original_types_.end() ? 0 : it->second;
    }

    size_t rewrite(ir::BasicBlock& block, size_t i) {
        ir::Instruction& instruction = *block.instructions[i];
        const uint32_t result_type = original_type(instruction.result_id());
        if (!result_type || !module_.find_definition(instruction.type_id())) return i;
        const uint32_t opcode = instruction.opcode();
        if (opcode == spv::OpBitcast || opcode == spv::OpFConvert) {
            // Their operand's type decides what they become: a module that leaves it undefined is
            // spirv-val's to refuse, after the passes.
            if (instruction.words().size() < 4 || !module_.find_definition(module_.type_of(instruction.word(3)))) return i;
        }
        if (opcode == spv::OpBitcast) {
            const uint32_t operand_type = original_type(instruction.word(3));
            if (holds_half_pointer(result_type) || holds_half_pointer(operand_type)) return pointer_bitcast(block, i);
            if (!holds_half_value(result_type) && !holds_half_value(operand_type)) return i;
            return bitcast(block, i, result_type);
        }
        if (opcode == spv::OpFConvert) return convert(block, i, result_type);
        if (!is_half_float(result_type) || !rounds(opcode)) return i;
        if (opcode == spv::OpExtInst && instruction.word(3) != glsl_) return i;
        return round_after(block, i);
    }

    // A pointer to f16 data (a physical storage buffer's, for a bit cast).
    bool holds_half_pointer(uint32_t type) {
        const ir::Instruction* definition = type ? module_.find_definition(type) : nullptr;
        return definition && definition->opcode() == spv::OpTypePointer && widths_.holds_half(type);
    }

    // spirv-val takes a bit cast to or from a pointer to f16 data for an f16 conversion, which needs
    // Float16: the address goes through a 64-bit integer instead (OpConvertPtrToU / OpConvertUToPtr).
    size_t pointer_bitcast(ir::BasicBlock& block, size_t i) {
        module_.add_capability(spv::CapabilityInt64);
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            const uint32_t address_type = types_.get_type_int(64, false);
            const uint32_t value = old.word(3);
            const uint32_t value_type = module_.type_of(value);
            uint32_t address = value;
            if (module_.find_definition(value_type)->opcode() == spv::OpTypePointer) {
                address = b.add(spv::OpConvertPtrToU, address_type, {value});
            } else if (value_type != address_type) {
                address = b.add(spv::OpBitcast, address_type, {value});
            }
            const uint32_t type = old.type_id();
            const uint32_t opcode = module_.find_definition(type)->opcode() == spv::OpTypePointer ? spv::OpConvertUToPtr
                                    : type == address_type                                      ? spv::OpCopyObject
                                                                                                : spv::OpBitcast;
            b.add(opcode, type, {address}, old.result_id());
        });
    }

    // A value with f16 in it (a pointer into laid-out memory is none).
    bool holds_half_value(uint32_t type) { return type && widths_.widened(type) != type; }

    // f16, a vector of them, or a matrix of such vectors.
    bool is_half_float(uint32_t type) const {
        const ir::Instruction* definition = module_.find_definition(type);
        if (type == widths_.half()) return true;
        if (!definition || (definition->opcode() != spv::OpTypeVector && definition->opcode() != spv::OpTypeMatrix)) {
            return false;
        }
        return is_half_float(definition->word(2));
    }

    // Gives the instruction a fresh id and rounds its value to f16 under the old one.
    size_t round_after(ir::BasicBlock& block, size_t i) {
        ir::Instruction& instruction = *block.instructions[i];
        const uint32_t result = instruction.result_id();
        const uint32_t type = instruction.type_id();
        const uint32_t exact = module_.take_next_id();
        instruction.set_word(2, exact);
        module_.register_definition(instruction);
        ir::Builder b(module_, block, i + 1);
        quantize(b, type, exact, result);
        return b.position() - 1;
    }

    uint32_t quantize(ir::Builder& b, uint32_t type, uint32_t value, uint32_t result = 0) {
        const ir::Instruction& definition = *module_.find_definition(type);
        if (definition.opcode() != spv::OpTypeMatrix) return b.add(spv::OpQuantizeToF16, type, {value}, result);
        std::vector<uint32_t> columns;
        for (uint32_t c = 0; c < definition.word(3); ++c) {
            const uint32_t column = b.add(spv::OpCompositeExtract, definition.word(2), {value, c});
            columns.push_back(b.add(spv::OpQuantizeToF16, definition.word(2), {column}));
        }
        return b.add(spv::OpCompositeConstruct, type, columns, result);
    }

    // To f16: a rounding of the f32 (an f64 narrowed first). From f16: the f32 itself, or widened.
    size_t convert(ir::BasicBlock& block, size_t i, uint32_t result_type) {
        const ir::Instruction& instruction = *block.instructions[i];
        if (is_half_float(result_type)) {
            return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
                uint32_t value = old.word(3);
                if (module_.type_of(value) != old.type_id()) value = b.add(spv::OpFConvert, old.type_id(), {value});
                quantize(b, old.type_id(), value, old.result_id());
            });
        }
        if (!widths_.holds_half(original_type(instruction.word(3))) || module_.type_of(instruction.word(3)) != instruction.type_id()) {
            return i;
        }
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            b.add(spv::OpCopyObject, old.type_id(), {old.word(3)}, old.result_id());
        });
    }

    uint32_t components(uint32_t type) const {
        const ir::Instruction& definition = *module_.find_definition(type);
        return definition.opcode() == spv::OpTypeVector ? definition.word(3) : 1;
    }
    uint32_t component_type(uint32_t type) const {
        const ir::Instruction& definition = *module_.find_definition(type);
        return definition.opcode() == spv::OpTypeVector ? definition.word(2) : type;
    }
    bool is_numeric_vector(uint32_t type) const {
        const ir::Instruction* scalar = module_.find_definition(component_type(type));
        return scalar && (scalar->opcode() == spv::OpTypeInt || scalar->opcode() == spv::OpTypeFloat);
    }
    uint32_t width(uint32_t scalar_type) const { return module_.find_definition(scalar_type)->word(2); }
    bool is_signed_int(uint32_t scalar_type) const {
        const ir::Instruction& definition = *module_.find_definition(scalar_type);
        return definition.opcode() == spv::OpTypeInt && definition.word(3) == 1;
    }
    uint32_t component(ir::Builder& b, uint32_t value, uint32_t type, uint32_t k) {
        return components(type) == 1 ? value : b.add(spv::OpCompositeExtract, component_type(type), {value, k});
    }
    uint32_t vector_of(uint32_t scalar_type, uint32_t count) {
        return count == 1 ? scalar_type : types_.get_type_vector(scalar_type, count);
    }

    // f16 bits to or from integers (or other floats) of the same total width: each f16 is packed into
    // or unpacked from a 32-bit word, in pairs where the other side has 32- or 64-bit components.
    size_t bitcast(ir::BasicBlock& block, size_t i, uint32_t result_type) {
        const ir::Instruction& instruction = *block.instructions[i];
        const uint32_t operand_type = original_type(instruction.word(3));
        const bool from_halves = holds_half_value(operand_type);
        const uint32_t halves = components(from_halves ? operand_type : result_type);
        const uint32_t other = from_halves ? result_type : operand_type;
        // Scalars and vectors of numbers on both sides (anything else is not a bit cast spirv-val takes).
        if (!is_numeric_vector(from_halves ? operand_type : result_type) || !is_numeric_vector(other) ||
            holds_half_value(other) || (width(component_type(other)) != 16 && halves % 2 != 0)) {
            diagnostics_.error("this bit cast of 16-bit floats is not emulated (the device lacks shaderFloat16)",
                               instruction.source_offset(), ir::instruction_text(instruction.words(), module_));
            return i;
        }
        const uint32_t other_width = width(component_type(other));
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            const uint32_t value = old.word(3);
            const uint32_t type = old.type_id();
            if (from_halves && other_width == 16) {
                std::vector<uint32_t> parts;
                const uint32_t widened_type = module_.type_of(value);  // its f32 form, not operand_type
                for (uint32_t k = 0; k < halves; ++k) {
                    uint32_t bits = bits_of_single(b, module_, types_, component(b, value, widened_type, k));
                    if (is_signed_int(component_type(type))) bits = b.add(spv::OpBitcast, component_type(type), {bits});
                    parts.push_back(bits);
                }
                finish(b, type, parts, old.result_id());
            } else if (from_halves) {
                std::vector<uint32_t> words;
                for (uint32_t k = 0; k < halves; k += 2) {
                    const uint32_t pair = halves == 2 ? value : b.add(spv::OpVectorShuffle, pair_, {value, value, k, k + 1});
                    words.push_back(b.add(spv::OpExtInst, word_, {glsl_, GLSLstd450PackHalf2x16, pair}));
                }
                const uint32_t packed_type = vector_of(word_, halves / 2);
                const uint32_t packed = words.size() == 1 ? words[0] : b.add(spv::OpCompositeConstruct, packed_type, words);
                b.add(packed_type == type ? spv::OpCopyObject : spv::OpBitcast, type, {packed}, old.result_id());
            } else if (other_width == 16) {
                std::vector<uint32_t> parts;
                for (uint32_t k = 0; k < halves; ++k) {
                    uint32_t bits = component(b, value, operand_type, k);
                    if (is_signed_int(component_type(operand_type))) bits = b.add(spv::OpBitcast, types_.get_type_int(16, false), {bits});
                    parts.push_back(single_of_bits(b, module_, types_, bits));
                }
                finish(b, type, parts, old.result_id());
            } else {
                const uint32_t packed_type = vector_of(word_, halves / 2);
                const uint32_t packed = operand_type == packed_type ? value : b.add(spv::OpBitcast, packed_type, {value});
                std::vector<uint32_t> pairs;
                for (uint32_t k = 0; k < halves / 2; ++k) {
                    pairs.push_back(b.add(spv::OpExtInst, pair_, {glsl_, GLSLstd450UnpackHalf2x16, component(b, packed, packed_type, k)}));
                }
                finish(b, type, pairs, old.result_id());
            }
        });
    }

    // The value of `type` made of `parts` (one part: the value itself), under id `result`.
    void finish(ir::Builder& b, uint32_t type, const std::vector<uint32_t>& parts, uint32_t result) {
        if (parts.size() == 1) {
            b.add(spv::OpCopyObject, type, {parts[0]}, result);
        } else {
            b.add(spv::OpCompositeConstruct, type, parts, result);
        }
    }

    ir::Module& module_;
    ir::TypeManager& types_;
    WidenedTypes& widths_;
    const std::unordered_map<uint32_t, uint32_t>& original_types_;
    Diagnostics& diagnostics_;
    uint32_t glsl_ = 0;
    uint32_t single_ = 0;
    uint32_t pair_ = 0;
    uint32_t word_ = 0;
};

}  // namespace

void round_half_arithmetic(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                           const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics) {
    HalfArithmetic(module, types, widths, original_types, diagnostics).run();
}

}  // namespace vkpolyfill::lowering::float16
