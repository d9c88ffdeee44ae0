#include "passes/cooperative_matrix/tensor_types.h"

#include <algorithm>
#include <format>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <vector>

#include "ir/instruction_text.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool TensorTypes::collect(PassContext& context) {
    ir::Module& module = context.module;
    module.for_each_instruction([this](const ir::Instruction& instruction) {
        views_clip_ |= instruction.opcode() == spv::OpTensorViewSetClipNV;
    });
    std::vector<const ir::Instruction*> declarations;
    for (const auto& instruction : module.types_values_constants) {
        const uint32_t opcode = instruction->opcode();
        if (opcode == spv::OpTypeTensorLayoutNV || opcode == spv::OpTypeTensorViewNV) declarations.push_back(instruction.get());
    }
    const auto uint_array = [&](uint32_t length) {
        return context.types.get_type_array(context.types.get_type_int(32, false), context.types.get_constant_uint32(length));
    };
    bool ok = true;
    for (const ir::Instruction* declaration : declarations) {
        const bool is_layout = declaration->opcode() == spv::OpTypeTensorLayoutNV;
        const auto error = [&](const std::string& message) {
            context.diagnostics.error(std::format("{} %{}: {}", is_layout ? "OpTypeTensorLayoutNV" : "OpTypeTensorViewNV",
                                                  declaration->result_id(), message),
                                      declaration->source_offset(), ir::instruction_text(declaration->words(), module));
            ok = false;
        };
        std::vector<uint64_t> values;
        for (uint32_t operand : declaration->operand_words()) {
            const std::optional<uint64_t> value = freeze_constant(module, operand, context.specialization, context.diagnostics);
            if (!value) {
                ok = false;
                break;
            }
            values.push_back(*value);
        }
        if (values.size() != declaration->operand_words().size()) continue;
        const uint64_t dimensions = values[0];
        if (dimensions < 1 || dimensions > 5) {
            error(std::format("{} dimensions (1 to 5 are allowed)", dimensions));
            continue;
        }
        const auto d = static_cast<uint32_t>(dimensions);
        if (is_layout) {
            if (values[1] > spv::TensorClampModeRepeatMirrored) {
                error(std::format("clamp mode {} is not a TensorClampMode", values[1]));
                continue;
            }
            TensorLayoutType type{d, static_cast<uint32_t>(values[1]), 0};
            type.lowered = uint_array(type.words());
            layouts_.emplace(declaration->result_id(), type);
            continue;
        }
        if (values.size() != 2 + d) {
            error(std::format("{} permutation operands for {} dimensions", values.size() - 2, d));
            continue;
        }
        TensorViewType type{d, values[1] != 0, {0, 1, 2, 3, 4}, 0};
        std::copy(values.begin() + 2, values.end(), type.permutation.begin());
        std::vector<uint32_t> sorted(type.permutation.begin(), type.permutation.begin() + d);
        std::ranges::sort(sorted);
        if (sorted[d - 1] != d - 1 || std::ranges::adjacent_find(sorted) != sorted.end()) {
            error(std::format("p0..p{} are not a permutation of 0..{}", d - 1, d - 1));
            continue;
        }
        type.lowered = uint_array(type.words());
        views_.emplace(declaration->result_id(), type);
    }
    return ok;
}

const TensorLayoutType* TensorTypes::layout(uint32_t type_id) const {
    const auto it = layouts_.find(type_id);
    return it != layouts_.end() ? &it->second : nullptr;
}

const TensorViewType* TensorTypes::view(uint32_t type_id) const {
    const auto it = views_.find(type_id);
    return it != views_.end() ? &it->second : nullptr;
}

std::unordered_map<uint32_t, uint32_t> TensorTypes::replacements() const {
    std::unordered_map<uint32_t, uint32_t> result;
    for (const auto& [id, type] : layouts_) result.emplace(id, type.lowered);
    for (const auto& [id, type] : views_) result.emplace(id, type.lowered);
    return result;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
