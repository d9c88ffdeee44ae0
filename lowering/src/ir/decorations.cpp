#include "ir/decorations.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

std::optional<uint32_t> find_decoration(const Module& module, uint32_t target, uint32_t decoration) {
    for (const auto& annotation : module.annotations) {
        const auto w = annotation->words();
        if (annotation->opcode() == spv::OpDecorate && w[1] == target && w[2] == decoration) return w.size() > 3 ? w[3] : 0;
    }
    return std::nullopt;
}

}  // namespace vkpolyfill::lowering::ir
