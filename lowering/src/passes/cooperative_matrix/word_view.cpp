#include "passes/cooperative_matrix/word_view.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "ir/builtin_variable.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// The literal of `decoration` on `target` (or on its member `member`), if decorated.
std::optional<uint32_t> decoration(const ir::Module& module, uint32_t target, uint32_t decoration_kind,
                                   std::optional<uint32_t> member = std::nullopt) {
    for (const auto& a : module.annotations) {
        const auto w = a->words();
        if (!member && a->opcode() == spv::OpDecorate && w[1] == target && w[2] == decoration_kind) {
            return w.size() > 3 ? w[3] : 0;
        }
        if (member && a->opcode() == spv::OpMemberDecorate && w[1] == target && w[2] == *member && w[3] == decoration_kind) {
            return w.size() > 4 ? w[4] : 0;
        }
    }
    return std::nullopt;
}

void decorate(ir::Module& module, std::initializer_list<uint32_t> words, uint32_t opcode = spv::OpDecorate) {
    module.annotations.push_back(ir::make_instruction(opcode, std::span(words.begin(), words.size())));
}

uint32_t make_view(LoweringState& state, uint32_t set, uint32_t binding) {
    ir::Module& module = state.module();
    const uint32_t words_type = module.take_next_id();  // a fresh type: it gets an ArrayStride
    const uint32_t runtime_array[] = {words_type, state.uint_type()};
    module.types_values_constants.push_back(ir::make_instruction(spv::OpTypeRuntimeArray, runtime_array));
    module.register_definition(*module.types_values_constants.back());
    const uint32_t members[] = {words_type};
    const uint32_t block = state.types().create_type_struct(members);
    const uint32_t pointer = state.types().get_type_pointer(spv::StorageClassStorageBuffer, block);
    const uint32_t variable = module.take_next_id();
    const uint32_t declaration[] = {pointer, variable, spv::StorageClassStorageBuffer};
    module.types_values_constants.push_back(ir::make_instruction(spv::OpVariable, declaration));
    module.register_definition(*module.types_values_constants.back());
    decorate(module, {words_type, spv::DecorationArrayStride, 4});
    decorate(module, {block, spv::DecorationBlock});
    decorate(module, {block, 0, spv::DecorationOffset, 0}, spv::OpMemberDecorate);
    decorate(module, {block, 0, spv::DecorationNonWritable}, spv::OpMemberDecorate);
    decorate(module, {variable, spv::DecorationDescriptorSet, set});
    decorate(module, {variable, spv::DecorationBinding, binding});
    ir::add_to_entry_point_interfaces(module, variable);
    return variable;
}

}  // namespace

std::optional<WordView> word_view(LoweringState& state, uint32_t base, std::span<const uint32_t> indices,
                                  uint32_t element_type) {
    ir::Module& module = state.module();
    const ir::Instruction* variable = module.find_definition(base);
    if (!variable || variable->opcode() != spv::OpVariable || variable->operand_words()[0] != spv::StorageClassStorageBuffer ||
        indices.size() != 2) {
        return std::nullopt;
    }
    const std::optional<uint32_t> set = decoration(module, base, spv::DecorationDescriptorSet);
    const std::optional<uint32_t> binding = decoration(module, base, spv::DecorationBinding);
    const ir::Instruction* pointer = module.find_definition(variable->type_id());
    const ir::Instruction* block = pointer ? module.find_definition(pointer->word(3)) : nullptr;
    const std::optional<uint64_t> member = evaluate_constant(module, indices[0], {});
    if (!set || !binding || !block || block->opcode() != spv::OpTypeStruct || !member ||
        *member + 1 != block->operand_words().size()) {
        return std::nullopt;
    }
    const auto member_index = static_cast<uint32_t>(*member);
    const ir::Instruction* array = module.find_definition(block->operand_words()[member_index]);
    const ir::Instruction* element = module.find_definition(element_type);
    const std::optional<ir::FloatFormat> format = state.types().float_format(element_type);
    const bool narrow_int = element && element->opcode() == spv::OpTypeInt && element->word(2) < 32;
    if (!narrow_int && format != ir::kFloat16 && format != ir::kBFloat16) return std::nullopt;
    const std::optional<uint32_t> offset = decoration(module, block->result_id(), spv::DecorationOffset, member_index);
    const bool read_only = decoration(module, base, spv::DecorationNonWritable) ||
                           decoration(module, block->result_id(), spv::DecorationNonWritable, member_index);
    if (!array || array->opcode() != spv::OpTypeRuntimeArray || array->word(2) != element_type || !element || !offset ||
        *offset % 4 != 0 || !read_only) {
        return std::nullopt;
    }
    const uint32_t element_bytes = element->word(2) / 8;
    std::vector<uint32_t> key{0x574F5244u /* "WORD" */, base};
    uint32_t view = state.find_function(key);
    if (!view) {
        view = make_view(state, *set, *binding);
        state.remember_function(std::move(key), view);
    }
    return WordView{view, *offset / element_bytes};
}

uint32_t load_through_word_view(LoweringState& state, ir::Builder& b, const WordView& view, uint32_t index,
                                const ComponentInfo& component) {
    ir::TypeManager& types = state.types();
    const uint32_t u = state.uint_type();
    const uint32_t per_word = 32 / component.width;
    const uint32_t element = b.add(spv::OpIAdd, u, {index, state.uint_constant(view.first_element)});
    const uint32_t word = b.add(spv::OpUDiv, u, {element, state.uint_constant(per_word)});
    const uint32_t shift = b.add(spv::OpIMul, u, {b.add(spv::OpUMod, u, {element, state.uint_constant(per_word)}),
                                                  state.uint_constant(component.width)});
    const uint32_t pointer = b.add(spv::OpAccessChain, types.get_type_pointer(spv::StorageClassStorageBuffer, u),
                                   {view.variable, state.uint_constant(0), word});
    const uint32_t bits = b.add(spv::OpShiftRightLogical, u, {b.add(spv::OpLoad, u, {pointer}), shift});
    const uint32_t f32 = types.get_type_float(ir::kFloat32);
    if (component.is_float && types.float_format(component.type) == ir::kFloat16) {
        const uint32_t pair = b.add(spv::OpExtInst, types.get_type_vector(f32, 2),
                                    {state.module().get_ext_inst_import("GLSL.std.450"), GLSLstd450UnpackHalf2x16, bits});
        return b.add(spv::OpFConvert, component.type, {b.add(spv::OpCompositeExtract, f32, {pair, 0})});  // exact
    }
    if (component.is_float) {  // bfloat16: the high half of a float32
        const uint32_t wide = b.add(spv::OpShiftLeftLogical, u, {bits, state.uint_constant(16)});
        return b.add(spv::OpFConvert, component.type, {b.add(spv::OpBitcast, f32, {wide})});  // exact
    }
    const uint32_t narrow = types.get_type_int(component.width, false);
    const uint32_t value = b.add(spv::OpUConvert, narrow, {bits});
    return narrow == component.type ? value : b.add(spv::OpBitcast, component.type, {value});
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
