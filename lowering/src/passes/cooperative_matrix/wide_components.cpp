#include "passes/cooperative_matrix/wide_components.h"

#include <format>
#include <spirv/unified1/spirv.hpp>

#include "passes/cooperative_matrix/component_bits.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

bool is_half(const ir::TypeManager& types, const ComponentInfo& c) { return c.is_float && types.float_format(c.type) == ir::kFloat16; }

}  // namespace

std::optional<std::string> wide_component_problem(const ir::TypeManager& types, const ComponentInfo& piece,
                                                  const ComponentInfo& component) {
    if (component.width % piece.width != 0 || piece.width > 32) {
        return std::format("a {}-bit component cannot be made of {}-bit array elements", component.width, piece.width);
    }
    if (piece.is_float && piece.width != 32 && !is_half(types, piece)) {
        return std::format("a {}-bit component cannot be made of {}-bit array elements of a float type other than IEEE half",
                           component.width, piece.width);
    }
    return std::nullopt;
}

uint32_t assemble_component(LoweringState& state, ir::Builder& b, std::span<const uint32_t> pieces, const ComponentInfo& piece,
                            const ComponentInfo& component) {
    const uint32_t u = state.uint_type();
    std::vector<uint32_t> words(component.width > 32 ? 2 : 1, 0);
    for (size_t j = 0; j < pieces.size(); ++j) {
        const uint32_t bit = static_cast<uint32_t>(j) * piece.width;
        uint32_t bits = component_to_bits(state, b, pieces[j], piece);
        if (bit % 32) bits = b.add(spv::OpShiftLeftLogical, u, {bits, state.uint_constant(bit % 32)});
        uint32_t& word = words[bit / 32];
        word = word ? b.add(spv::OpBitwiseOr, u, {word, bits}) : bits;
    }
    if (component.width <= 32) return component_from_bits(state, b, words[0], component);
    // 64 bits through a pair of words: no 64-bit integer type needed.
    const uint32_t pair = b.add(spv::OpCompositeConstruct, state.types().get_type_vector(u, 2), words);
    return b.add(spv::OpBitcast, component.type, {pair});
}

std::vector<uint32_t> split_component(LoweringState& state, ir::Builder& b, uint32_t value, const ComponentInfo& piece,
                                      const ComponentInfo& component) {
    const uint32_t u = state.uint_type();
    std::vector<uint32_t> words;
    if (component.width <= 32) {
        words.push_back(component_to_bits(state, b, value, component));
    } else {
        const uint32_t pair = b.add(spv::OpBitcast, state.types().get_type_vector(u, 2), {value});
        words = {b.add(spv::OpCompositeExtract, u, {pair, 0}), b.add(spv::OpCompositeExtract, u, {pair, 1})};
    }
    std::vector<uint32_t> pieces;
    for (uint32_t bit = 0; bit < component.width; bit += piece.width) {
        uint32_t bits = words[bit / 32];
        if (bit % 32) bits = b.add(spv::OpShiftRightLogical, u, {bits, state.uint_constant(bit % 32)});
        pieces.push_back(component_from_bits(state, b, bits, piece));
    }
    return pieces;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
