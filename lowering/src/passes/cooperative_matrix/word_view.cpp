#include "passes/cooperative_matrix/word_view.h"

#include <array>
#include <spirv/unified1/spirv.hpp>

#include "ir/builtin_variable.h"
#include "ir/decorations.h"
#include "passes/cooperative_matrix/component_bits.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

uint32_t make_view(LoweringState& state, uint32_t set, uint32_t binding, uint32_t width) {
    ir::Module& module = state.module();
    const uint32_t words_type = module.take_next_id();  // a fresh type: it gets an ArrayStride
    const uint32_t runtime_array[] = {words_type, state.types().get_type_int(width, false)};
    module.types_values_constants.push_back(ir::make_instruction(spv::OpTypeRuntimeArray, runtime_array));
    module.register_definition(*module.types_values_constants.back());
    const uint32_t members[] = {words_type};
    const uint32_t block = state.types().create_type_struct(members);
    const uint32_t pointer = state.types().get_type_pointer(spv::StorageClassStorageBuffer, block);
    const uint32_t variable = module.take_next_id();
    const uint32_t declaration[] = {pointer, variable, spv::StorageClassStorageBuffer};
    module.types_values_constants.push_back(ir::make_instruction(spv::OpVariable, declaration));
    module.register_definition(*module.types_values_constants.back());
    ir::decorate(module, words_type, spv::DecorationArrayStride, std::array{width / 8});
    ir::decorate(module, block, spv::DecorationBlock);
    ir::decorate_member(module, block, 0, spv::DecorationOffset, std::array{0u});
    ir::decorate_member(module, block, 0, spv::DecorationNonWritable);
    ir::decorate(module, variable, spv::DecorationDescriptorSet, std::array{set});
    ir::decorate(module, variable, spv::DecorationBinding, std::array{binding});
    ir::add_to_entry_point_interfaces(module, variable);
    return variable;
}

// The view as `width`-bit elements of the descriptor `variable` is bound to, made on first use.
std::optional<uint32_t> binding_view(LoweringState& state, uint32_t variable, uint32_t width) {
    const std::optional<uint32_t> set = ir::find_decoration(state.module(), variable, spv::DecorationDescriptorSet);
    const std::optional<uint32_t> binding = ir::find_decoration(state.module(), variable, spv::DecorationBinding);
    if (!set || !binding) return std::nullopt;
    std::vector<uint32_t> key{0x574F5244u /* "WORD" */, variable, width};
    uint32_t view = state.find_function(key);
    if (!view) {
        view = make_view(state, *set, *binding, width);
        state.remember_function(std::move(key), view);
    }
    return view;
}

}  // namespace

std::optional<uint32_t> binding_word_view(LoweringState& state, uint32_t variable) { return binding_view(state, variable, 32); }

std::optional<WordView> word_view(LoweringState& state, uint32_t base, std::span<const uint32_t> indices,
                                  uint32_t element_type, uint32_t width) {
    ir::Module& module = state.module();
    if (width == 16 && !module.has_capability(spv::CapabilityStorageBuffer16BitAccess) &&
        !module.has_capability(spv::CapabilityUniformAndStorageBuffer16BitAccess)) {
        return std::nullopt;
    }
    const ir::Instruction* variable = module.find_definition(base);
    if (!variable || variable->opcode() != spv::OpVariable || variable->operand_words()[0] != spv::StorageClassStorageBuffer ||
        indices.size() != 2) {
        return std::nullopt;
    }
    const ir::Instruction* pointer = module.find_definition(variable->type_id());
    const ir::Instruction* block = pointer ? module.find_definition(pointer->word(3)) : nullptr;
    const std::optional<uint64_t> member = evaluate_constant(module, indices[0], {});
    if (!block || block->opcode() != spv::OpTypeStruct || !member ||
        *member + 1 != block->operand_words().size()) {
        return std::nullopt;
    }
    const auto member_index = static_cast<uint32_t>(*member);
    const ir::Instruction* array = module.find_definition(block->operand_words()[member_index]);
    const ir::Instruction* element = module.find_definition(element_type);
    const std::optional<ir::FloatFormat> format = state.types().float_format(element_type);
    const bool narrow_int = element && element->opcode() == spv::OpTypeInt && (element->word(2) == 8 || element->word(2) == 16);
    if (!narrow_int && format != ir::kFloat16 && format != ir::kBFloat16) return std::nullopt;
    const std::optional<uint32_t> offset = ir::find_member_decoration(module, block->result_id(), member_index, spv::DecorationOffset);
    const bool read_only = ir::find_decoration(module, base, spv::DecorationNonWritable) ||
                           ir::find_member_decoration(module, block->result_id(), member_index, spv::DecorationNonWritable);
    if (!array || array->opcode() != spv::OpTypeRuntimeArray || array->word(2) != element_type || !element || !offset ||
        *offset % 4 != 0 || !read_only) {
        return std::nullopt;
    }
    const std::optional<uint32_t> view = binding_view(state, base, width);
    if (!view) return std::nullopt;
    return WordView{*view, *offset / (element->word(2) / 8), width};
}

namespace {

// The view's element holding element `index` of the shader's array (of `width`-bit elements), as a
// uint, and the element's index in the buffer.
uint32_t load_word(LoweringState& state, ir::Builder& b, const WordView& view, uint32_t index, uint32_t width, uint32_t& element) {
    const uint32_t u = state.uint_type(), viewed = state.types().get_type_int(view.width, false);
    element = b.add(spv::OpIAdd, u, {index, state.uint_constant(view.first_element)});
    const uint32_t word = b.add(spv::OpUDiv, u, {element, state.uint_constant(view.width / width)});
    const uint32_t pointer = b.add(spv::OpAccessChain, state.types().get_type_pointer(spv::StorageClassStorageBuffer, viewed),
                                   {view.variable, state.uint_constant(0), word});
    const uint32_t bits = b.add(spv::OpLoad, viewed, {pointer});
    return view.width == 32 ? bits : b.add(spv::OpUConvert, u, {bits});
}

}  // namespace

uint32_t load_through_word_view(LoweringState& state, ir::Builder& b, const WordView& view, uint32_t index,
                                const ComponentInfo& component) {
    const uint32_t u = state.uint_type();
    uint32_t element = 0;
    const uint32_t word = load_word(state, b, view, index, component.width, element);
    const uint32_t shift = b.add(spv::OpIMul, u, {b.add(spv::OpUMod, u, {element, state.uint_constant(32 / component.width)}),
                                                  state.uint_constant(component.width)});
    return component_from_bits(state, b, b.add(spv::OpShiftRightLogical, u, {word, shift}), component);
}

uint32_t load_whole_component(LoweringState& state, ir::Builder& b, const WordView& view, uint32_t index,
                              uint32_t scalar_width, const ComponentInfo& component) {
    uint32_t element = 0;
    return component_from_bits(state, b, load_word(state, b, view, index, scalar_width, element), component);
}

std::vector<uint32_t> load_word_through_view(LoweringState& state, ir::Builder& b, const WordView& view, uint32_t index,
                                             const ComponentInfo& component) {
    uint32_t element = 0;
    const uint32_t word = load_word(state, b, view, index, component.width, element);
    std::vector<uint32_t> components;
    for (uint32_t shift = 0; shift < 32; shift += component.width) {
        const uint32_t bits = shift ? b.add(spv::OpShiftRightLogical, state.uint_type(), {word, state.uint_constant(shift)}) : word;
        components.push_back(component_from_bits(state, b, bits, component));
    }
    return components;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
