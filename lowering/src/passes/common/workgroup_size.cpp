#include "passes/common/workgroup_size.h"

#include <spirv/unified1/spirv.hpp>

#include "specialization.h"

namespace vkpolyfill::lowering {
namespace {

std::optional<std::array<uint32_t, 3>> frozen(ir::Module& module, std::span<const uint32_t> ids,
                                              std::span<const SpecializationValue> values, Diagnostics& diagnostics) {
    std::array<uint32_t, 3> size{};
    for (size_t i = 0; i < 3; ++i) {
        const std::optional<uint64_t> value = freeze_constant(module, ids[i], values, diagnostics);
        if (!value) return std::nullopt;
        size[i] = static_cast<uint32_t>(*value);
    }
    return size;
}

}  // namespace

std::optional<std::array<uint32_t, 3>> workgroup_size(ir::Module& module, std::span<const SpecializationValue> values,
                                                       Diagnostics& diagnostics) {
    // The built-in wins over the execution modes.
    for (const auto& annotation : module.annotations) {
        if (annotation->opcode() != spv::OpDecorate || annotation->word(2) != spv::DecorationBuiltIn ||
            annotation->word(3) != spv::BuiltInWorkgroupSize) {
            continue;
        }
        const ir::Instruction* composite = module.find_definition(annotation->word(1));
        if (composite && composite->operand_words().size() == 3) {
            // The components must be frozen, but the composite itself may stay a spec composite.
            const auto components = composite->operand_words();
            const uint32_t ids[] = {components[0], components[1], components[2]};
            return frozen(module, ids, values, diagnostics);
        }
    }
    for (const auto& mode : module.execution_modes) {
        const auto words = mode->words();
        if (words.size() < 6) continue;
        if (mode->opcode() == spv::OpExecutionMode && words[2] == spv::ExecutionModeLocalSize) {
            return std::array<uint32_t, 3>{words[3], words[4], words[5]};
        }
        if (mode->opcode() == spv::OpExecutionModeId && words[2] == spv::ExecutionModeLocalSizeId) {
            return frozen(module, words.subspan(3, 3), values, diagnostics);
        }
    }
    diagnostics.error("the module gives no workgroup size (LocalSize, LocalSizeId or a WorkgroupSize built-in)");
    return std::nullopt;
}

}  // namespace vkpolyfill::lowering
