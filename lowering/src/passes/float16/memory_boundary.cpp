#include "passes/float16/memory_boundary.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/instruction_text.h"
#include "passes/float16/half_bits.h"

namespace vkpolyfill::lowering::float16 {
namespace {

// What a pointer points into, as far as its f16 data is concerned.
enum class Memory {
    Registers,  // f32 as in registers (Function, Private, plain workgroup memory widened), or no f16
    LaidOut,    // f16 itself
    Bits,       // the f16's bits in 16-bit integers (plain workgroup memory)
};

class MemoryBoundary {
  public:
    MemoryBoundary(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                   const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics)
        : module_(module), types_(types), widths_(widths), original_types_(original_types), diagnostics_(diagnostics) {}

    void run() {
        for (auto& function : module_.functions) {
            for (ir::BasicBlock& block : function->blocks) {
                for (size_t i = 0; i < block.instructions.size(); ++i) i = rewrite(block, i);
            }
        }
    }

  private:
    // Rewrites instruction i of `block` if it moves f16 data in or out of laid-out memory; returns the
    // index of the last instruction that replaced it.
    size_t rewrite(ir::BasicBlock& block, size_t i) {
        const ir::Instruction& instruction = *block.instructions[i];
        switch (instruction.opcode()) {
            case spv::OpLoad: {
                const Memory memory = memory_of(instruction.word(3));
                if (memory == Memory::Registers || !unrollable(instruction, pointee(instruction.word(3)))) return i;
                return replace(block, i, [&](ir::Builder& b) {
                    load(b, instruction.word(3), memory, pointee(instruction.word(3)), instruction.words().subspan(4),
                         instruction.result_id());
                });
            }
            case spv::OpStore: {
                const Memory memory = memory_of(instruction.word(1));
                if (memory == Memory::Registers || !unrollable(instruction, pointee(instruction.word(1)))) return i;
                return replace(block, i, [&](ir::Builder& b) {
                    store(b, instruction.word(1), memory, pointee(instruction.word(1)), instruction.word(2),
                          instruction.words().subspan(3));
                });
            }
            case spv::OpCopyMemory:
                if (!is_pointer(instruction.word(1)) || !is_pointer(instruction.word(2)) ||
                    pointee(instruction.word(1)) == pointee(instruction.word(2)) ||
                    !unrollable(instruction, pointee(instruction.word(2)))) {
                    return i;
                }
                return replace(block, i, [&](ir::Builder& b) {
                    const uint32_t value = load(b, instruction.word(2), memory_of(instruction.word(2)), pointee(instruction.word(2)), {}, 0);
                    store(b, instruction.word(1), memory_of(instruction.word(1)), pointee(instruction.word(1)), value, {});
                });
            case spv::OpCopyLogical:
                // Two laid-out types (an array with its stride and one without) can widen to one.
                if (instruction.type_id() != module_.type_of(instruction.word(3))) return i;
                return replace(block, i, [&](ir::Builder& b) {
                    b.add(spv::OpCopyObject, instruction.type_id(), {instruction.word(3)}, instruction.result_id());
                });
            default:
                if (is_atomic(instruction.opcode()) && instruction.words().size() > 3 &&
                    widths_.holds_half(module_.type_of(instruction.word(instruction.type_id() ? 3 : 1)))) {
                    diagnostics_.error("atomic operations on 16-bit floats are not emulated (the device lacks shaderFloat16)",
                                       instruction.source_offset(), ir::instruction_text(instruction.words(), module_));
                }
                return i;
        }
    }

    static bool is_atomic(uint32_t opcode) {
        return (opcode >= spv::OpAtomicLoad && opcode <= spv::OpAtomicXor) || opcode == spv::OpAtomicFAddEXT ||
               opcode == spv::OpAtomicFMinEXT || opcode == spv::OpAtomicFMaxEXT;
    }

    Memory memory_of(uint32_t pointer) {
        const uint32_t type = module_.type_of(pointer);
        if (const auto original = original_types_.find(pointer);
            original != original_types_.end() && widths_.points_at_bits(original->second)) {
            return Memory::Bits;
        }
        const bool laid_out = widths_.is_laid_out_pointer(type) && widths_.holds_half(module_.find_definition(type)->word(3));
        return laid_out ? Memory::LaidOut : Memory::Registers;
    }

    // The type in registers of the data of `type` in `memory`.
    uint32_t in_registers(Memory memory, uint32_t type) {
        switch (memory) {
            case Memory::Bits: return widths_.registers_of_bits(type);
            case Memory::LaidOut: return widths_.widened(type);
            default: return type;
        }
    }

    // An access converts piece by piece, so its code grows with the f16 numbers it moves; past
    // kMostNumbers (a 64x64 matrix) the access is reported rather than unrolled.
    static constexpr uint64_t kMostNumbers = 4096;

    bool unrollable(const ir::Instruction& instruction, uint32_t type) {
        if (numbers(type) <= kMostNumbers) return true;
        diagnostics_.error(std::format("a copy of more than {} 16-bit floats between memory and registers is not "
                                       "emulated (the device lacks shaderFloat16)", kMostNumbers),
                           instruction.source_offset(), ir::instruction_text(instruction.words(), module_));
        return false;
    }

    // The numbers in a value of `type`, counted up to kMostNumbers + 1 (also past ir::kMostNesting
    // levels) and once per type (types share members); arrays of unknown length count as one
    // element (the conversion reports them).
    uint64_t numbers(uint32_t type, uint32_t depth = 0) {
        if (const auto it = numbers_.find(type); it != numbers_.end()) return it->second;
        const ir::Instruction* definition = module_.find_definition(type);
        const auto bounded = [](uint64_t n) { return std::min(n, kMostNumbers + 1); };
        uint64_t count = 1;
        if (depth > ir::kMostNesting) {
            count = kMostNumbers + 1;
        } else if (definition && definition->opcode() == spv::OpTypeVector) {
            count = definition->word(3);
        } else if (definition && definition->opcode() == spv::OpTypeMatrix) {
            count = bounded(uint64_t{definition->word(3)} * numbers(definition->word(2), depth + 1));
        } else if (definition && definition->opcode() == spv::OpTypeArray) {
            const ir::Instruction* length = module_.find_definition(definition->word(3));
            const uint64_t elements = length && length->opcode() == spv::OpConstant ? length->word(3) : 1;
            count = bounded(elements * numbers(definition->word(2), depth + 1));
        } else if (definition && definition->opcode() == spv::OpTypeStruct) {
            count = 0;
            for (const uint32_t member : definition->operand_words()) count = bounded(count + numbers(member, depth + 1));
        }
        numbers_[type] = count;
        return count;
    }

    bool is_pointer(uint32_t value) const {
        const ir::Instruction* type = module_.find_definition(module_.type_of(value));
        return type && type->opcode() == spv::OpTypePointer;
    }
    uint32_t pointee(uint32_t pointer) const { return module_.find_definition(module_.type_of(pointer))->word(3); }
    uint32_t storage_class(uint32_t pointer) const { return module_.find_definition(module_.type_of(pointer))->word(2); }

    template <typename Emit>
    size_t replace(ir::BasicBlock& block, size_t i, Emit&& emit) {
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            module_.forget_definition(old.result_id());
            original_ = &old;
            emit(b);
        });
    }

    // A piece of a struct, array or matrix: the original access's memory operands no longer apply,
    // but a physical-storage-buffer access needs its alignment, a scalar's.
    std::vector<uint32_t> piece_operands(uint32_t pointer, uint32_t type) const {
        if (storage_class(pointer) != spv::StorageClassPhysicalStorageBuffer) return {};
        const ir::Instruction* scalar = module_.find_definition(type);
        if (scalar->opcode() == spv::OpTypeVector) scalar = module_.find_definition(scalar->word(2));
        return {spv::MemoryAccessAlignedMask, scalar->word(2) / 8};
    }

    // The value at `pointer` (of `type` there) in registers; `result` names it when not 0.
    uint32_t load(ir::Builder& b, uint32_t pointer, Memory memory, uint32_t type, std::span<const uint32_t> memory_operands,
                  uint32_t result) {
        const uint32_t widened = in_registers(memory, type);
        if (widened == type) return b.add(spv::OpLoad, widened, with(pointer, memory_operands), result);
        const ir::Instruction& definition = *module_.find_definition(type);
        if (is_scalar_or_vector(definition)) {
            const uint32_t narrow = b.add(spv::OpLoad, type, with(pointer, memory_operands));
            if (memory == Memory::Bits) return halves_of_bits(b, narrow, widened, result);
            return b.add(spv::OpFConvert, widened, {narrow}, result);
        }
        std::vector<uint32_t> parts;
        for (uint32_t k = 0; k < pieces(definition); ++k) {
            const uint32_t piece_type = piece(definition, k);
            const uint32_t at = access(b, pointer, piece_type, k);
            parts.push_back(load(b, at, memory, piece_type, piece_operands(at, piece_type), 0));
        }
        return b.add(spv::OpCompositeConstruct, widened, parts, result);
    }

    void store(ir::Builder& b, uint32_t pointer, Memory memory, uint32_t type, uint32_t value,
               std::span<const uint32_t> memory_operands) {
        const uint32_t widened = in_registers(memory, type);
        if (widened == type) {
            b.add(spv::OpStore, 0, with(pointer, value, memory_operands));
            return;
        }
        const ir::Instruction& definition = *module_.find_definition(type);
        if (is_scalar_or_vector(definition)) {
            const uint32_t narrow = memory == Memory::Bits ? bits_of_halves(b, value, type) : b.add(spv::OpFConvert, type, {value});
            b.add(spv::OpStore, 0, with(pointer, narrow, memory_operands));
            return;
        }
        for (uint32_t k = 0; k < pieces(definition); ++k) {
            const uint32_t piece_type = piece(definition, k);
            const uint32_t at = access(b, pointer, piece_type, k);
            const uint32_t part = b.add(spv::OpCompositeExtract, in_registers(memory, piece_type), {value, k});
            store(b, at, memory, piece_type, part, piece_operands(at, piece_type));
        }
    }

    static bool is_scalar_or_vector(const ir::Instruction& definition) {
        const uint32_t opcode = definition.opcode();
        return opcode == spv::OpTypeFloat || opcode == spv::OpTypeInt || opcode == spv::OpTypeVector;
    }

    // f32s (a scalar or vector, `type` in registers) from the f16 bits 16-bit integers hold, and back.
    uint32_t halves_of_bits(ir::Builder& b, uint32_t bits, uint32_t type, uint32_t result) {
        std::vector<uint32_t> parts;
        for (uint32_t k = 0; k < components(type); ++k) parts.push_back(single_of_bits(b, module_, types_, component(b, bits, k, module_.type_of(bits))));
        return finish(b, type, parts, result);
    }
    uint32_t bits_of_halves(ir::Builder& b, uint32_t value, uint32_t type) {
        std::vector<uint32_t> parts;
        const uint32_t registers = module_.type_of(value);
        for (uint32_t k = 0; k < components(type); ++k) parts.push_back(bits_of_single(b, module_, types_, component(b, value, k, registers)));
        return finish(b, type, parts, 0);
    }
    uint32_t components(uint32_t type) const {
        const ir::Instruction& definition = *module_.find_definition(type);
        return definition.opcode() == spv::OpTypeVector ? definition.word(3) : 1;
    }
    uint32_t component(ir::Builder& b, uint32_t value, uint32_t k, uint32_t type) {
        const ir::Instruction& definition = *module_.find_definition(type);
        if (definition.opcode() != spv::OpTypeVector) return value;
        return b.add(spv::OpCompositeExtract, definition.word(2), {value, k});
    }
    uint32_t finish(ir::Builder& b, uint32_t type, const std::vector<uint32_t>& parts, uint32_t result) {
        return parts.size() == 1 ? b.add(spv::OpCopyObject, type, {parts[0]}, result)
                                 : b.add(spv::OpCompositeConstruct, type, parts, result);
    }

    uint32_t access(ir::Builder& b, uint32_t pointer, uint32_t piece_type, uint32_t k) {
        const auto storage = static_cast<spv::StorageClass>(storage_class(pointer));
        return b.add(spv::OpAccessChain, types_.get_type_pointer(storage, piece_type),
                     {pointer, types_.get_constant_uint32(k)});
    }

    // The pieces of a struct (members), matrix (columns) or array of known length (elements).
    uint32_t pieces(const ir::Instruction& definition) {
        switch (definition.opcode()) {
            case spv::OpTypeStruct: return static_cast<uint32_t>(definition.operand_words().size());
            case spv::OpTypeMatrix: return definition.word(3);
            case spv::OpTypeArray: {
                const ir::Instruction* length = module_.find_definition(definition.word(3));
                if (length && length->opcode() == spv::OpConstant) return length->word(3);
                break;
            }
            default: break;
        }
        diagnostics_.error(std::format("a {} of 16-bit floats cannot be copied between memory and registers here "
                                       "(the device lacks shaderFloat16)", definition.name()),
                           original_->source_offset(), ir::instruction_text(original_->words(), module_));
        return 0;
    }

    static uint32_t piece(const ir::Instruction& definition, uint32_t k) {
        return definition.opcode() == spv::OpTypeStruct ? definition.word(2 + k) : definition.word(2);
    }

    static std::vector<uint32_t> with(uint32_t first, std::span<const uint32_t> rest) {
        std::vector<uint32_t> words{first};
        words.insert(words.end(), rest.begin(), rest.end());
        return words;
    }
    static std::vector<uint32_t> with(uint32_t first, uint32_t second, std::span<const uint32_t> rest) {
        std::vector<uint32_t> words{first, second};
        words.insert(words.end(), rest.begin(), rest.end());
        return words;
    }

    ir::Module& module_;
    ir::TypeManager& types_;
    WidenedTypes& widths_;
    const std::unordered_map<uint32_t, uint32_t>& original_types_;
    Diagnostics& diagnostics_;
    const ir::Instruction* original_ = nullptr;  // the access being replaced, for diagnostics
    std::unordered_map<uint32_t, uint64_t> numbers_;
};

}  // namespace

void convert_memory_accesses(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                             const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics) {
    MemoryBoundary(module, types, widths, original_types, diagnostics).run();
}

}  // namespace vkpolyfill::lowering::float16
