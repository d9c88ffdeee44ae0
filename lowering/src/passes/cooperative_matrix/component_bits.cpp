#include "passes/cooperative_matrix/component_bits.h"

#include <array>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// Whether the module may bitcast a component of this width (8/16-bit: only with Int8 / Int16).
bool bitcast_allowed(LoweringState& state, uint32_t width) {
    if (width >= 32) return true;
    return state.module().has_capability(width == 16 ? spv::CapabilityInt16 : spv::CapabilityInt8);
}

}  // namespace

uint32_t component_from_bits(LoweringState& state, ir::Builder& b, uint32_t bits, const ComponentInfo& component) {
    ir::TypeManager& types = state.types();
    const uint32_t u = state.uint_type();
    const uint32_t f32 = types.get_type_float(ir::kFloat32);
    const std::optional<ir::FloatFormat> format = types.float_format(component.type);
    if (component.width == 32) return component.type == u ? bits : b.add(spv::OpBitcast, component.type, {bits});
    if (component.width == 64) {  // through a pair of words: no 64-bit integer type needed
        const uint32_t pair = b.add(spv::OpCompositeConstruct, types.get_type_vector(u, 2), {bits, state.uint_constant(0)});
        return b.add(spv::OpBitcast, component.type, {pair});
    }
    // 16-bit floats without a 16-bit integer type (the device may lack Int16); both conversions are exact.
    if (format == ir::kFloat16) {
        const uint32_t pair = b.add(spv::OpExtInst, types.get_type_vector(f32, 2),
                                    {state.module().get_ext_inst_import("GLSL.std.450"), GLSLstd450UnpackHalf2x16, bits});
        return b.add(spv::OpFConvert, component.type, {b.add(spv::OpCompositeExtract, f32, {pair, 0})});
    }
    if (format == ir::kBFloat16) {  // the high half of a float32
        const uint32_t wide = b.add(spv::OpShiftLeftLogical, u, {bits, state.uint_constant(16)});
        return b.add(spv::OpFConvert, component.type, {b.add(spv::OpBitcast, f32, {wide})});
    }
    if (!component.is_float) {  // truncated straight to the type: no same-width bitcast (see the header)
        const ir::Instruction* type = state.module().find_definition(component.type);
        return b.add(type->word(3) ? spv::OpSConvert : spv::OpUConvert, component.type, {bits});
    }
    const uint32_t narrow = types.get_type_int(component.width, false);
    return b.add(spv::OpBitcast, component.type, {b.add(spv::OpUConvert, narrow, {bits})});
}

uint32_t component_to_bits(LoweringState& state, ir::Builder& b, uint32_t value, const ComponentInfo& component) {
    ir::TypeManager& types = state.types();
    const uint32_t u = state.uint_type();
    if (component.width == 32) return component.type == u ? value : b.add(spv::OpBitcast, u, {value});
    if (types.float_format(component.type) == ir::kFloat16) {
        // PackHalf2x16 needs no 16-bit integer type (the device may lack Int16).
        const uint32_t f32 = types.get_type_float(ir::kFloat32);
        const uint32_t wide = b.add(spv::OpFConvert, f32, {value});
        const uint32_t pair = b.add(spv::OpCompositeConstruct, types.get_type_vector(f32, 2),
                                    {wide, types.get_constant(f32, std::array<uint32_t, 1>{0})});
        return b.add(spv::OpExtInst, u, {state.module().get_ext_inst_import("GLSL.std.450"), GLSLstd450PackHalf2x16, pair});
    }
    if (!component.is_float) return b.add(spv::OpUConvert, u, {value});  // zero-extends either signedness
    if (types.float_format(component.type) == ir::kBFloat16 && !bitcast_allowed(state, 16)) {
        // The high half of the float32 it widens to exactly.
        const uint32_t wide = b.add(spv::OpBitcast, u, {b.add(spv::OpFConvert, types.get_type_float(ir::kFloat32), {value})});
        return b.add(spv::OpShiftRightLogical, u, {wide, state.uint_constant(16)});
    }
    const uint32_t narrow = types.get_type_int(component.width, false);
    return b.add(spv::OpUConvert, u, {b.add(spv::OpBitcast, narrow, {value})});
}

uint32_t reinterpret_component(LoweringState& state, ir::Builder& b, uint32_t value, const ComponentInfo& from,
                               const ComponentInfo& to) {
    if (from.type == to.type) return value;
    if (bitcast_allowed(state, from.width)) return b.add(spv::OpBitcast, to.type, {value});
    return component_from_bits(state, b, component_to_bits(state, b, value, from), to);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
