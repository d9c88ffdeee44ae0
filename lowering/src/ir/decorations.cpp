#include "ir/decorations.h"

#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace vkpolyfill::lowering::ir {

std::optional<uint32_t> find_decoration(const Module& module, uint32_t target, uint32_t decoration) {
    for (const auto& annotation : module.annotations) {
        const auto w = annotation->words();
        if (annotation->opcode() == spv::OpDecorate && w[1] == target && w[2] == decoration) return w.size() > 3 ? w[3] : 0;
    }
    return std::nullopt;
}

std::optional<uint32_t> find_member_decoration(const Module& module, uint32_t structure, uint32_t member,
                                               uint32_t decoration) {
    for (const auto& annotation : module.annotations) {
        const auto w = annotation->words();
        if (annotation->opcode() == spv::OpMemberDecorate && w[1] == structure && w[2] == member && w[3] == decoration) {
            return w.size() > 4 ? w[4] : 0;
        }
    }
    return std::nullopt;
}

void decorate(Module& module, uint32_t target, uint32_t decoration, std::span<const uint32_t> literals) {
    std::vector<uint32_t> words{target, decoration};
    words.insert(words.end(), literals.begin(), literals.end());
    module.annotations.push_back(make_instruction(spv::OpDecorate, words));
}

void decorate_member(Module& module, uint32_t structure, uint32_t member, uint32_t decoration,
                     std::span<const uint32_t> literals) {
    std::vector<uint32_t> words{structure, member, decoration};
    words.insert(words.end(), literals.begin(), literals.end());
    module.annotations.push_back(make_instruction(spv::OpMemberDecorate, words));
}

}  // namespace vkpolyfill::lowering::ir
