#include "passes/cooperative_matrix/block_layout.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>

#include "ir/decorations.h"
#include "ir/indexed_type.h"
#include "passes/cooperative_matrix/byte_address.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {

namespace {

using KnownBytes = std::unordered_map<uint32_t, uint64_t>;

std::optional<uint64_t> layout_bytes_of(LoweringState& state, uint32_t type, uint32_t depth, KnownBytes& known, std::string& why);

// Types share their parts (a struct of two of the struct below, 40 deep, has 2^40 paths), so each
// type's bytes are found once; nesting past ir::kMostNesting levels (a stack frame each) is reported.
std::optional<uint64_t> layout_bytes_below(LoweringState& state, uint32_t type, uint32_t depth, KnownBytes& known, std::string& why) {
    if (depth > ir::kMostNesting) {
        why = std::format("a decode block's structs nest more than {} deep", ir::kMostNesting);
        return std::nullopt;
    }
    if (const auto found = known.find(type); found != known.end()) return found->second;
    const std::optional<uint64_t> bytes = layout_bytes_of(state, type, depth, known, why);
    if (bytes) known.emplace(type, *bytes);
    return bytes;
}

std::optional<uint64_t> layout_bytes_of(LoweringState& state, uint32_t type, uint32_t depth, KnownBytes& known, std::string& why) {
    ir::Module& module = state.module();
    const ir::Instruction* definition = module.find_definition(type);
    switch (definition ? definition->opcode() : 0) {
        case spv::OpTypeInt:
        case spv::OpTypeFloat: return definition->word(2) / 8;
        case spv::OpTypePointer: return 8;  // a PhysicalStorageBuffer pointer in the block
        case spv::OpTypeVector: {
            const std::optional<uint64_t> component = layout_bytes_below(state, definition->word(2), depth + 1, known, why);
            if (!component) return std::nullopt;
            return *component * definition->word(3);
        }
        case spv::OpTypeArray: {
            const std::optional<uint32_t> stride = ir::find_decoration(module, type, spv::DecorationArrayStride);
            if (!stride) {
                why = std::format("array type %{} in a decode block has no ArrayStride", type);
                return std::nullopt;
            }
            const uint32_t length_id = definition->word(3);
            const std::optional<uint64_t> length =
                freeze_constant(module, length_id, state.context.specialization, state.context.diagnostics);
            if (!length) {
                why = std::format("the length of array type %{} in a decode block is not a constant", type);
                return std::nullopt;
            }
            return *length * *stride;
        }
        case spv::OpTypeStruct: {
            uint64_t end = 0;
            const size_t members = definition->operand_words().size();
            for (uint32_t member = 0; member < members; ++member) {
                const std::optional<uint32_t> offset = ir::find_member_decoration(module, type, member, spv::DecorationOffset);
                if (!offset) {
                    why = std::format("member {} of struct %{} in a decode block has no Offset", member, type);
                    return std::nullopt;
                }
                const std::optional<uint64_t> bytes =
                    layout_bytes_below(state, module.find_definition(type)->operand_words()[member], depth + 1, known, why);
                if (!bytes) return std::nullopt;
                end = std::max(end, *offset + *bytes);
            }
            return end;
        }
        case spv::OpTypeRuntimeArray:
            why = std::format("a decode block holds runtime array %{}, which has no size", type);
            return std::nullopt;
        default:
            why = std::format("a decode block holds type %{} (only scalars, vectors, arrays, structs and pointers have a size here)", type);
            return std::nullopt;
    }
}

}  // namespace

std::optional<uint64_t> layout_bytes(LoweringState& state, uint32_t type, std::string& why) {
    KnownBytes known;
    return layout_bytes_below(state, type, 0, known, why);
}

std::optional<uint32_t> indexed_array_stride(const ir::Module& module, const AccessPath& path, std::string& why) {
    const ir::Instruction* pointer = module.find_definition(module.type_of(path.base));
    uint32_t type = pointer && pointer->opcode() == spv::OpTypePointer ? pointer->word(3) : 0;
    for (size_t i = 0; type != 0 && i + 1 < path.indices.size(); ++i) {
        type = ir::indexed_type(module, type, evaluate_constant(module, path.indices[i], {}));
    }
    const ir::Instruction* array = type ? module.find_definition(type) : nullptr;
    const bool is_array = array && (array->opcode() == spv::OpTypeArray || array->opcode() == spv::OpTypeRuntimeArray);
    const std::optional<uint32_t> stride = is_array ? ir::find_decoration(module, type, spv::DecorationArrayStride) : std::nullopt;
    if (!stride) why = "the array its pointer points into has no ArrayStride, so its decode blocks cannot be placed";
    return stride;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
