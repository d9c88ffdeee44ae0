#include "passes/common/shared_memory.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering {
namespace {

constexpr uint64_t kSaturated = uint64_t{1} << 48;

uint64_t times(uint64_t bytes, uint64_t count) { return count != 0 && bytes > kSaturated / count ? kSaturated : bytes * count; }

}  // namespace

uint64_t WorkgroupBytes::of(uint32_t type, uint32_t depth) {
    if (depth > ir::kMostNesting) return 0;
    if (const auto known = known_.find(type); known != known_.end()) return known->second;
    const uint64_t bytes = size(type, depth);
    known_[type] = bytes;
    return bytes;
}

uint64_t WorkgroupBytes::size(uint32_t type, uint32_t depth) {
    const ir::Instruction* t = module_.find_definition(type);
    if (!t) return 0;
    switch (t->opcode()) {
        case spv::OpTypeBool: return 4;
        case spv::OpTypeInt:
        case spv::OpTypeFloat: return t->word(2) / 8;
        case spv::OpTypeVector:
        case spv::OpTypeMatrix: return times(of(t->word(2), depth + 1), t->word(3));
        case spv::OpTypeArray: {
            const ir::Instruction* length = module_.find_definition(t->word(3));
            return length && length->opcode() == spv::OpConstant ? times(of(t->word(2), depth + 1), length->word(3)) : 0;
        }
        case spv::OpTypeStruct: {
            uint64_t total = 0;
            for (uint32_t member : t->operand_words()) total = std::min(total + of(member, depth + 1), kSaturated);
            return total;
        }
        default: return 0;
    }
}

uint64_t module_shared_memory(const ir::Module& module) {
    WorkgroupBytes bytes(module);
    uint64_t total = 0;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpVariable || instruction->operand_words()[0] != spv::StorageClassWorkgroup) continue;
        const ir::Instruction* pointer = module.find_definition(instruction->type_id());
        if (pointer) total = std::min(total + bytes.of(pointer->word(3)), kSaturated);
    }
    return total;
}

}  // namespace vkpolyfill::lowering
