#include <spirv/unified1/spirv.hpp>

#include "emulated_sets.h"
#include "ir/instruction.h"
#include "ir/module.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

// Reads only the capability and extension sections: they open every valid module, so the scan stops
// at the first other instruction, long before the functions.
EmulatedSet scan_emulated_capabilities(std::span<const uint32_t> words) {
    if (words.size() < ir::kHeaderWords || words[0] != ir::kMagicNumber) return 0;
    try {
        EmulatedSet found = 0;
        for (size_t offset = ir::kHeaderWords; offset < words.size();) {
            const uint32_t word_count = words[offset] >> 16;
            const uint32_t opcode = words[offset] & 0xFFFFu;
            if (word_count == 0 || word_count > words.size() - offset) return 0;
            if (opcode == spv::OpCapability) {
                if (word_count != 2) return 0;
                found |= sets_of_capability(emulated_sets(), words[offset + 1]);
            } else if (opcode == spv::OpExtension) {
                const auto name = ir::decode_literal_string(words.subspan(offset + 1, word_count - 1));
                found |= sets_of_extension(emulated_sets(), name);
            } else {
                break;
            }
            offset += word_count;
        }
        // Workgroup-scope matrices with only SPV_KHR_cooperative_matrix declared (implicit_cooperative_matrix2.h).
        const EmulatedSet khr = bit(Emulated::KhrCooperativeMatrix), nv2 = bit(Emulated::NvCooperativeMatrix2);
        if ((found & (khr | nv2)) == khr) {
            const std::optional<CooperativeMatrix2Use> use = cooperative_matrix2_use(words);
            if (use && use->workgroup_scope) found |= nv2;
        }
        return found;
    } catch (...) {  // only decoding a long extension name allocates
        return 0;
    }
}

}  // namespace vkpolyfill::lowering
