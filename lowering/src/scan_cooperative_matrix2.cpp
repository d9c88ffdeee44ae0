#include <unordered_map>

#include <spirv/unified1/spirv.hpp>

#include "ir/module.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"

namespace vkpolyfill::lowering {
namespace {

// The feature bit a capability of the extension needs (other capabilities need none).
void record_capability(uint32_t capability, CooperativeMatrix2Use& use) {
    switch (capability) {
        case spv::CapabilityCooperativeMatrixReductionsNV: use.reductions = true; break;
        case spv::CapabilityCooperativeMatrixConversionsNV: use.conversions = true; break;
        case spv::CapabilityCooperativeMatrixPerElementOperationsNV: use.per_element_operations = true; break;
        case spv::CapabilityCooperativeMatrixTensorAddressingNV:
        case spv::CapabilityTensorAddressingNV: use.tensor_addressing = true; break;
        case spv::CapabilityCooperativeMatrixBlockLoadsNV: use.block_loads = true; break;
        case spv::CapabilityCooperativeMatrixDecodeVectorNV: use.other = true; break;
        default: break;
    }
}

}  // namespace

std::optional<CooperativeMatrix2Use> cooperative_matrix2_use(std::span<const uint32_t> words) {
    if (words.size() < ir::kHeaderWords || words[0] != ir::kMagicNumber) return std::nullopt;
    CooperativeMatrix2Use use;
    std::unordered_map<uint32_t, uint32_t> constants;  // result id -> value of each 32-bit OpConstant
    for (size_t offset = ir::kHeaderWords; offset < words.size();) {
        const uint32_t word_count = words[offset] >> 16;
        const uint32_t opcode = words[offset] & 0xFFFFu;
        if (word_count == 0 || word_count > words.size() - offset) return std::nullopt;
        const std::span<const uint32_t> instruction = words.subspan(offset, word_count);
        if (opcode == spv::OpFunction) break;  // types and constants all come before
        if (opcode == spv::OpCapability && word_count == 2) {
            record_capability(instruction[1], use);
        } else if (opcode == spv::OpConstant && word_count == 4) {
            constants[instruction[2]] = instruction[3];
        } else if (opcode == spv::OpTypeCooperativeMatrixKHR && word_count == 7) {
            // A scope that is not a plain constant (a specialization constant) may be Workgroup.
            const auto scope = constants.find(instruction[3]);
            if (scope == constants.end() || scope->second != spv::ScopeSubgroup) use.workgroup_scope = true;
        }
        offset += word_count;
    }
    return use;
}

}  // namespace vkpolyfill::lowering
