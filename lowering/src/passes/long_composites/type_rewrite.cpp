#include "passes/long_composites/type_rewrite.h"

#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "ir/decorations.h"
#include "passes/long_composites/composite_rewrite.h"
#include "passes/long_composites/instructions.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

// The chunk array, in the integer type of the original length (defined before the array, as its new
// lengths must be); the outer array's length comes back in `chunk_count`.
void emit_chunk_array(ir::Module& module, const ir::Instruction& array, SplitType& split, const Emit& emit,
                      uint32_t& chunk_count) {
    const uint32_t integer = module.type_of(array.word(3));
    const auto length = [&](uint32_t value) {
        const uint32_t words[] = {value, 0};
        return emit(spv::OpConstant, integer, std::span(words).first(module.literal_word_count(integer)));
    };
    const uint32_t operands[] = {split.element_type, length(split.chunk_length)};
    const uint32_t chunk = emit(spv::OpTypeArray, 0, operands);
    if (const std::optional<uint32_t> stride = ir::find_decoration(module, split.id, spv::DecorationArrayStride)) {
        const uint32_t decoration[] = {chunk, spv::DecorationArrayStride, *stride};
        module.annotations.push_back(ir::make_instruction(spv::OpDecorate, decoration));
    }
    for (Group& group : split.groups) group.type = chunk;
    if (split.groups.back().count < split.chunk_length) split.padding = emit(spv::OpConstantNull, split.element_type, {});
    chunk_count = length(static_cast<uint32_t>(split.groups.size()));
}

// Emits the chunk types and returns the outer type that replaces `original`.
std::unique_ptr<ir::Instruction> split_type(ir::Module& module, const ir::Instruction& original, SplitType& split,
                                            const Emit& emit) {
    std::vector<uint32_t> operands{split.id};
    if (!split.is_struct) {
        uint32_t chunk_count = 0;
        emit_chunk_array(module, original, split, emit, chunk_count);
        operands.insert(operands.end(), {split.groups.front().type, chunk_count});
        return ir::make_instruction(spv::OpTypeArray, operands);
    }
    for (Group& group : split.groups) {
        if (!group.direct) {
            group.type = emit(spv::OpTypeStruct, 0, std::span(split.member_types).subspan(group.first, group.count));
        }
        operands.push_back(group.type);
    }
    return ir::make_instruction(spv::OpTypeStruct, operands);
}

// Points an OpMemberDecorate(String) or OpMemberName of a split struct's member at the member's new place.
void move_member_annotation(ir::Instruction& annotation, const SplitType& split) {
    const Path path = split.path(annotation.word(2));
    const Group& group = split.groups[path.outer];
    if (!path.inner) {
        annotation.set_word(2, path.outer);
        return;
    }
    annotation.set_word(1, group.type);
    annotation.set_word(2, *path.inner);
    if (annotation.opcode() == spv::OpMemberDecorate && annotation.word(3) == spv::DecorationOffset && group.offset) {
        annotation.set_word(4, annotation.word(4) - *group.offset);
    }
}

}  // namespace

void rewrite_types_section(ir::Module& module, ir::TypeManager& types, SplitTypes& splits) {
    ir::InstructionList rewritten;
    rewritten.reserve(module.types_values_constants.size() + 8 * splits.size());
    const Emit emit = emit_into(module, rewritten);
    for (auto& instruction : module.types_values_constants) {
        std::unique_ptr<ir::Instruction> replacement;
        if (const auto it = splits.find(instruction->result_id()); it != splits.end()) {
            replacement = split_type(module, *instruction, it->second, emit);
        } else {
            replacement = nest_composite(*instruction, splits, emit);
        }
        if (replacement) {
            types.forget(*instruction);
            instruction = std::move(replacement);
            module.register_definition(*instruction);
        }
        rewritten.push_back(std::move(instruction));
    }
    module.types_values_constants = std::move(rewritten);
}

void move_member_annotations(ir::Module& module, const SplitTypes& splits) {
    for (auto& annotation : module.annotations) {
        const SplitType* split = find_split(splits, annotation->word(1));
        if (!split) continue;
        switch (annotation->opcode()) {
            case spv::OpMemberDecorate:
            case spv::OpMemberDecorateString:
                move_member_annotation(*annotation, *split);
                break;
            case spv::OpDecorate:
                if (annotation->word(2) == spv::DecorationArrayStride) {
                    annotation->set_word(3, annotation->word(3) * split->chunk_length);
                }
                break;
            default:
                break;
        }
    }
    for (auto& name : module.debug_names) {
        const SplitType* split = find_split(splits, name->word(1));
        if (split && name->opcode() == spv::OpMemberName) move_member_annotation(*name, *split);
    }
    for (const auto& [id, split] : splits) {
        for (uint32_t g = 0; g < split.groups.size(); ++g) {
            const Group& group = split.groups[g];
            if (group.direct || !group.offset) continue;
            const uint32_t decoration[] = {id, g, spv::DecorationOffset, *group.offset};
            module.annotations.push_back(ir::make_instruction(spv::OpMemberDecorate, decoration));
        }
    }
}

}  // namespace vkpolyfill::lowering::long_composites
