#include "ir/indexed_type.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

uint32_t indexed_type(const Module& module, uint32_t type, std::optional<uint64_t> index) {
    const Instruction* definition = module.find_definition(type);
    if (!definition) return 0;
    switch (definition->opcode()) {
        case spv::OpTypeStruct:
            return index && *index < definition->operand_words().size() ? definition->operand_words()[*index] : 0;
        case spv::OpTypeArray:
        case spv::OpTypeRuntimeArray:
        case spv::OpTypeVector:
        case spv::OpTypeMatrix:
            return definition->word(2);
        default:
            return 0;
    }
}

}  // namespace vkpolyfill::lowering::ir
