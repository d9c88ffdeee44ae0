#include "passes/cooperative_matrix/byte_address.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/decorations.h"
#include "passes/cooperative_matrix/component_bits.h"
#include "passes/cooperative_matrix/element_access.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {

std::optional<uint32_t> ByteAddress::stride_of(uint32_t type, std::string& why) const {
    const std::optional<uint32_t> stride = ir::find_decoration(state_.module(), type, spv::DecorationArrayStride);
    if (!stride) why = std::format("array type %{} has no ArrayStride", type);
    return stride;
}

std::optional<uint32_t> ByteAddress::offset(ir::Builder& b, uint32_t base, uint32_t& type, std::span<const uint32_t> indices,
                                            std::string& why) {
    const ir::Module& module = state_.module();
    const uint32_t u = state_.uint_type();
    uint32_t at = base;
    for (uint32_t index : indices) {
        if (!is_integer_scalar(module, index)) {
            why = "an index of its access chain is not a scalar integer";
            return std::nullopt;
        }
        const ir::Instruction* definition = module.find_definition(type);
        switch (definition ? definition->opcode() : 0) {
            case spv::OpTypeStruct: {
                // SPIR-V selects a member with an OpConstant only; a decode call's chain is re-derived in
                // a generated function, where any other index becomes a parameter.
                const ir::Instruction* selector = module.find_definition(index);
                if (selector->opcode() != spv::OpConstant) {
                    why = std::format("its access chain selects a member of struct %{} with %{}, which is not an OpConstant", type, index);
                    return std::nullopt;
                }
                const std::optional<uint64_t> member = evaluate_constant(module, index, {});
                const std::optional<uint32_t> member_offset =
                    member ? ir::find_member_decoration(module, type, uint32_t(*member), spv::DecorationOffset) : std::nullopt;
                if (!member_offset) {
                    why = std::format("struct %{} has no Offset for the member its access chain selects", type);
                    return std::nullopt;
                }
                if (*member + 2 >= definition->words().size()) {
                    why = std::format("its access chain selects member {} of struct %{}, which has fewer", *member, type);
                    return std::nullopt;
                }
                at = b.add(spv::OpIAdd, u, {at, state_.uint_constant(*member_offset)});
                type = definition->word(2 + uint32_t(*member));
                break;
            }
            case spv::OpTypeArray:
            case spv::OpTypeRuntimeArray: {
                const std::optional<uint32_t> stride = stride_of(type, why);
                if (!stride) return std::nullopt;
                at = b.add(spv::OpIAdd, u, {at, b.add(spv::OpIMul, u, {as_uint(state_, b, index), state_.uint_constant(*stride)})});
                type = definition->word(2);
                break;
            }
            case spv::OpTypeVector: {
                const uint32_t bytes = module.find_definition(definition->word(2))->word(2) / 8;
                at = b.add(spv::OpIAdd, u, {at, b.add(spv::OpIMul, u, {as_uint(state_, b, index), state_.uint_constant(bytes)})});
                type = definition->word(2);
                break;
            }
            default:
                why = std::format("an access chain into type %{} (only structs, arrays and vectors are followed)", type);
                return std::nullopt;
        }
    }
    return at;
}

uint32_t ByteAddress::word(ir::Builder& b, uint32_t index) {
    const uint32_t u = state_.uint_type();
    const uint32_t pointer = b.add(spv::OpAccessChain, state_.types().get_type_pointer(spv::StorageClassStorageBuffer, u),
                                   {words_, state_.uint_constant(0), index});
    return b.add(spv::OpLoad, u, {pointer});
}

uint32_t ByteAddress::bits(ir::Builder& b, uint32_t at, uint32_t width) {
    const uint32_t u = state_.uint_type();
    const uint32_t index = b.add(spv::OpShiftRightLogical, u, {at, state_.uint_constant(2)});
    const uint32_t shift = b.add(spv::OpShiftLeftLogical, u, {b.add(spv::OpBitwiseAnd, u, {at, state_.uint_constant(3)}), state_.uint_constant(3)});
    const uint32_t low = b.add(spv::OpShiftRightLogical, u, {word(b, index), shift});
    if (width < 32) {
        // Naturally aligned narrow values never straddle a word.
        return b.add(spv::OpBitwiseAnd, u, {low, state_.uint_constant((1u << width) - 1)});
    }
    // A 32-bit value at a 2-byte boundary takes the rest from the next word (a shift by 32 is
    // undefined, hence the select for aligned values).
    const uint32_t next = word(b, b.add(spv::OpIAdd, u, {index, state_.uint_constant(1)}));
    const uint32_t high = b.add(spv::OpShiftLeftLogical, u, {next, b.add(spv::OpISub, u, {state_.uint_constant(32), shift})});
    const uint32_t aligned = b.add(spv::OpIEqual, state_.types().get_type_bool(), {shift, state_.uint_constant(0)});
    return b.add(spv::OpSelect, u, {aligned, low, b.add(spv::OpBitwiseOr, u, {low, high})});
}

std::optional<uint64_t> ByteAddress::scalars(uint32_t type, uint32_t depth) const {
    if (depth > ir::kMostNesting) return kTooDeep;
    const ir::Module& module = state_.module();
    const ir::Instruction* definition = module.find_definition(type);
    constexpr uint64_t kTooMany = kMostScalars + 1;
    switch (definition ? definition->opcode() : 0) {
        case spv::OpTypeInt:
        case spv::OpTypeFloat:
            return 1;
        case spv::OpTypeVector:
            return definition->word(3);
        case spv::OpTypeArray: {
            const std::optional<uint64_t> length = evaluate_constant(module, definition->word(3), {});
            const std::optional<uint64_t> each = scalars(definition->word(2), depth + 1);
            if (!length || !each) return std::nullopt;
            if (*each == kTooDeep) return kTooDeep;
            return *length > kMostScalars ? kTooMany : std::min(*length * *each, kTooMany);
        }
        case spv::OpTypeStruct: {
            uint64_t sum = 0;
            for (const uint32_t member : definition->operand_words()) {
                const std::optional<uint64_t> count = scalars(member, depth + 1);
                if (!count || *count == kTooDeep) return count;
                sum += *count;
                if (sum > kMostScalars) return kTooMany;  // also keeps nested structs from taking exponential time
            }
            return sum;
        }
        default:
            return std::nullopt;
    }
}

std::optional<uint32_t> ByteAddress::load(ir::Builder& b, uint32_t type, uint32_t at, std::string& why) {
    const std::optional<uint64_t> count = scalars(type);
    if (count == kTooDeep) {
        why = std::format("a load of type %{}, whose arrays and structs nest more than {} deep", type, ir::kMostNesting);
        return std::nullopt;
    }
    if (count && *count > kMostScalars) {
        why = std::format("a load of type %{}, more than {} numbers (read one by one by byte address)", type, kMostScalars);
        return std::nullopt;
    }
    return load_parts(b, type, at, why);
}

std::optional<uint32_t> ByteAddress::load_parts(ir::Builder& b, uint32_t type, uint32_t at, std::string& why) {
    const ir::Module& module = state_.module();
    const ir::Instruction* definition = module.find_definition(type);
    const uint32_t u = state_.uint_type();
    const uint32_t opcode = definition ? definition->opcode() : 0;
    std::vector<uint32_t> parts;
    const auto add_part = [&](uint32_t part_type, uint32_t byte_offset) {
        const std::optional<uint32_t> part = load_parts(b, part_type, b.add(spv::OpIAdd, u, {at, state_.uint_constant(byte_offset)}), why);
        if (part) parts.push_back(*part);
        return part.has_value();
    };
    switch (opcode) {
        case spv::OpTypeInt:
        case spv::OpTypeFloat: {
            const uint32_t width = definition->word(2);
            const ComponentInfo component{type, opcode == spv::OpTypeFloat, width};
            if (width == 64) {  // two words, low first: no 64-bit integer type needed
                const uint32_t pair = b.add(spv::OpCompositeConstruct, state_.types().get_type_vector(u, 2),
                                            {bits(b, at, 32), bits(b, b.add(spv::OpIAdd, u, {at, state_.uint_constant(4)}), 32)});
                return b.add(spv::OpBitcast, type, {pair});
            }
            return component_from_bits(state_, b, bits(b, at, width), component);
        }
        case spv::OpTypeVector: {
            const uint32_t bytes = module.find_definition(definition->word(2))->word(2) / 8;
            for (uint32_t i = 0; i < definition->word(3); ++i) {
                if (!add_part(definition->word(2), i * bytes)) return std::nullopt;
            }
            break;
        }
        case spv::OpTypeArray: {
            const std::optional<uint64_t> length = evaluate_constant(module, definition->word(3), {});
            const std::optional<uint32_t> stride = stride_of(type, why);
            if (!length || !stride) {
                if (!length) why = std::format("array type %{} has no constant length", type);
                return std::nullopt;
            }
            for (uint32_t i = 0; i < *length; ++i) {
                if (!add_part(definition->word(2), i * *stride)) return std::nullopt;
            }
            break;
        }
        case spv::OpTypeStruct: {
            const auto members = definition->operand_words();
            for (uint32_t i = 0; i < members.size(); ++i) {
                const std::optional<uint32_t> member_offset = ir::find_member_decoration(module, type, i, spv::DecorationOffset);
                if (!member_offset) {
                    why = std::format("struct %{} has no Offset for member {}", type, i);
                    return std::nullopt;
                }
                if (!add_part(members[i], *member_offset)) return std::nullopt;
            }
            break;
        }
        default:
            why = std::format("a load of type %{} (only numbers and vectors, arrays and structs of them are read)", type);
            return std::nullopt;
    }
    return b.add(spv::OpCompositeConstruct, type, parts);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
