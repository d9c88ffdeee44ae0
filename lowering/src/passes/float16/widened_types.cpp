#include "passes/float16/widened_types.h"

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/instruction_text.h"

namespace vkpolyfill::lowering::float16 {

WidenedTypes::WidenedTypes(ir::Module& module, ir::TypeManager& types, Diagnostics& diagnostics, bool int16)
    : module_(module), types_(types), diagnostics_(diagnostics) {
    half_ = types.find_type_float(ir::kFloat16);
    single_ = half_ ? types.get_type_float(ir::kFloat32) : 0;
    // SPV_KHR_workgroup_memory_explicit_layout: once one workgroup variable is a Block, all are.
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpVariable || instruction->word(3) != spv::StorageClassWorkgroup) continue;
        const ir::Instruction* pointer = module.find_definition(instruction->type_id());
        if (!pointer || pointer->opcode() != spv::OpTypePointer) continue;
        for (const auto& annotation : module.annotations) {
            if (annotation->opcode() == spv::OpDecorate && annotation->word(1) == pointer->word(3) &&
                annotation->word(2) == spv::DecorationBlock) {
                workgroup_laid_out_ = true;
            }
        }
    }
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() == spv::OpTypePointer && laid_out(instruction->word(2))) {
            collect_memory_types(instruction->word(3), 0);
        }
    }
    workgroup_bits_ = workgroup_bits_possible(int16);
}

// Where the f16 data plain workgroup memory holds is only scalars, vectors and arrays of them (a matrix
// of integers does not exist, and a struct would need its copies' decorations). The integer form's
// types may be the module's own (its own 16-bit integers in workgroup memory): a pointer holds f16 bits
// by what it pointed at before the remap, not by its type.
bool WidenedTypes::workgroup_bits_possible(bool int16) {
    if (!int16 || !half_ || workgroup_laid_out_) return false;
    for (const auto& instruction : module_.types_values_constants) {
        if (instruction->opcode() != spv::OpTypePointer || instruction->word(2) != spv::StorageClassWorkgroup) continue;
        const uint32_t pointee = instruction->word(3);
        if (holds_half(pointee) && !made_of_arrays_and_vectors(pointee, 0)) return false;
    }
    return true;
}

bool WidenedTypes::made_of_arrays_and_vectors(uint32_t type, uint32_t depth) const {
    const ir::Instruction* definition = module_.find_definition(type);
    if (!definition || depth > ir::kMostNesting) return false;
    switch (definition->opcode()) {
        case spv::OpTypeFloat:
        case spv::OpTypeInt:
        case spv::OpTypeBool:
            return true;
        case spv::OpTypeVector:
        case spv::OpTypeArray:
            return made_of_arrays_and_vectors(definition->word(2), depth + 1);
        default:
            return false;
    }
}

bool WidenedTypes::points_at_bits(uint32_t original_pointer_type) {
    const ir::Instruction* definition = module_.find_definition(original_pointer_type);
    return workgroup_bits_ && definition && definition->opcode() == spv::OpTypePointer &&
           definition->word(2) == spv::StorageClassWorkgroup && holds_half(definition->word(3));
}

// The 16-bit-integer form of an f16-holding type of plain workgroup memory (scalars, vectors, arrays).
uint32_t WidenedTypes::bits(uint32_t type) {
    if (!holds_half(type)) return type;
    if (const auto it = bits_.find(type); it != bits_.end()) return it->second;
    const ir::Instruction& definition = *module_.find_definition(type);
    uint32_t result = types_.get_type_int(16, false);
    if (definition.opcode() == spv::OpTypeVector) {
        result = types_.get_type_vector(bits(definition.word(2)), definition.word(3));
    } else if (definition.opcode() == spv::OpTypeArray) {
        result = types_.get_type_array(bits(definition.word(2)), definition.word(3));
    }
    bits_[type] = result;
    registers_of_bits_[result] = widened(type);
    return result;
}

bool WidenedTypes::laid_out(uint32_t storage_class) const {
    switch (storage_class) {
        case spv::StorageClassStorageBuffer:
        case spv::StorageClassUniform:
        case spv::StorageClassPushConstant:
        case spv::StorageClassPhysicalStorageBuffer:
        case spv::StorageClassShaderRecordBufferKHR:
            return true;
        case spv::StorageClassWorkgroup:
            return workgroup_laid_out_;
        default:
            return false;
    }
}

bool WidenedTypes::is_laid_out_pointer(uint32_t pointer_type) const {
    const ir::Instruction* definition = module_.find_definition(pointer_type);
    return definition && definition->opcode() == spv::OpTypePointer && laid_out(definition->word(2));
}

void WidenedTypes::collect_memory_types(uint32_t type, uint32_t depth) {
    const ir::Instruction* definition = module_.find_definition(type);
    if (!definition || depth > ir::kMostNesting || !in_memory_.insert(type).second) return;
    switch (definition->opcode()) {
        case spv::OpTypeVector:
        case spv::OpTypeMatrix:
        case spv::OpTypeArray:
        case spv::OpTypeRuntimeArray:
            collect_memory_types(definition->word(2), depth + 1);
            break;
        case spv::OpTypeStruct:
            for (const uint32_t member : definition->operand_words()) collect_memory_types(member, depth + 1);
            break;
        default:
            break;
    }
}

bool WidenedTypes::holds_half(uint32_t type) {
    if (!half_) return false;
    if (const auto it = holds_half_.find(type); it != holds_half_.end()) return it->second;
    holds_half_[type] = false;  // a physical-storage-buffer pointer may lead back to its struct
    const ir::Instruction* definition = module_.find_definition(type);
    bool holds = false;
    if (type == half_) {
        holds = true;
    } else if (definition) {
        switch (definition->opcode()) {
            case spv::OpTypeVector:
            case spv::OpTypeMatrix:
            case spv::OpTypeArray:
            case spv::OpTypeRuntimeArray:
            case spv::OpTypeCooperativeMatrixKHR:
            case spv::OpTypeImage:
            case spv::OpTypeTensorARM:
                holds = holds_half(definition->word(2));
                break;
            case spv::OpTypePointer:
                holds = holds_half(definition->word(3));
                break;
            case spv::OpTypeStruct:
            case spv::OpTypeFunction:
                for (size_t i = 2; i < definition->words().size(); ++i) {  // members; return and parameter types
                    holds = holds_half(definition->word(i)) || holds;
                }
                break;
            default:
                break;
        }
    }
    holds_half_[type] = holds;
    return holds;
}

uint32_t WidenedTypes::widened(uint32_t type) {
    if (!holds_half(type)) return type;
    if (const auto it = widened_.find(type); it != widened_.end()) return it->second;
    if (type == half_) return widened_[type] = single_;
    const ir::Instruction& definition = *module_.find_definition(type);
    uint32_t result = type;
    switch (definition.opcode()) {
        case spv::OpTypeVector:
            result = types_.get_type_vector(widened(definition.word(2)), definition.word(3));
            break;
        case spv::OpTypeMatrix:
            result = types_.get_equivalent(spv::OpTypeMatrix, 0, std::array{widened(definition.word(2)), definition.word(3)});
            break;
        case spv::OpTypeArray:
            result = types_.get_type_array(widened(definition.word(2)), definition.word(3));
            break;
        case spv::OpTypeRuntimeArray:
            result = types_.get_type_runtime_array(widened(definition.word(2)));
            break;
        case spv::OpTypeStruct:
            result = widen_struct(definition);
            break;
        case spv::OpTypePointer: {
            const auto storage = static_cast<spv::StorageClass>(definition.word(2));
            if (workgroup_bits_ && storage == spv::StorageClassWorkgroup) {
                result = types_.get_type_pointer(storage, bits(definition.word(3)));
            } else if (!laid_out(storage)) {
                result = types_.get_type_pointer(storage, widened(definition.word(3)));
            }
            break;
        }
        case spv::OpTypeFunction: {
            std::vector<uint32_t> parameters;
            for (size_t i = 3; i < definition.words().size(); ++i) parameters.push_back(widened(definition.word(i)));
            result = types_.get_type_function(widened(definition.word(2)), parameters);
            break;
        }
        default:
            diagnostics_.error(std::format("16-bit floats in a {} are not emulated (the device lacks shaderFloat16)",
                                           definition.name()),
                               definition.source_offset(), ir::instruction_text(definition.words(), module_));
            break;
    }
    widened_[type] = result;
    return result;
}

std::unordered_map<uint32_t, uint32_t> WidenedTypes::changed() const {
    std::unordered_map<uint32_t, uint32_t> changed;
    for (const auto& [type, widened] : widened_) {
        if (widened != type) changed.emplace(type, widened);
    }
    return changed;
}

// A struct only registers use becomes a copy with every decoration (an interface block keeps its
// locations); the value copy of a laid-out struct has no layout.
uint32_t WidenedTypes::widen_struct(const ir::Instruction& definition) {
    std::vector<uint32_t> members;
    for (const uint32_t member : definition.operand_words()) members.push_back(widened(member));
    const uint32_t copy = types_.create_type_struct(members);
    widened_[copy] = copy;  // already in registers' form (it may still lead to f16 in memory)
    if (in_memory_.contains(definition.result_id())) return copy;
    std::vector<std::unique_ptr<ir::Instruction>> copies;
    for (const auto& annotation : module_.annotations) {
        const uint32_t opcode = annotation->opcode();
        const bool decorates = opcode == spv::OpDecorate || opcode == spv::OpMemberDecorate ||
                               opcode == spv::OpDecorateString || opcode == spv::OpMemberDecorateString;
        if (!decorates || annotation->word(1) != definition.result_id()) continue;
        std::vector<uint32_t> operands{copy};
        operands.insert(operands.end(), annotation->words().begin() + 2, annotation->words().end());
        copies.push_back(ir::make_instruction(opcode, operands));
    }
    for (auto& annotation : copies) module_.annotations.push_back(std::move(annotation));
    return copy;
}

}  // namespace vkpolyfill::lowering::float16
