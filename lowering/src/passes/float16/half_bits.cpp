#include "passes/float16/half_bits.h"

#include <array>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::float16 {

uint32_t single_of_bits(ir::Builder& b, ir::Module& module, ir::TypeManager& types, uint32_t bits) {
    const uint32_t single = types.get_type_float(ir::kFloat32);
    const uint32_t word = b.add(spv::OpUConvert, types.get_type_int(32, false), {bits});
    const uint32_t pair = b.add(spv::OpExtInst, types.get_type_vector(single, 2),
                                {module.get_ext_inst_import("GLSL.std.450"), GLSLstd450UnpackHalf2x16, word});
    return b.add(spv::OpCompositeExtract, single, {pair, 0});
}

uint32_t bits_of_single(ir::Builder& b, ir::Module& module, ir::TypeManager& types, uint32_t value) {
    const uint32_t single = types.get_type_float(ir::kFloat32);
    const uint32_t zero = types.get_constant(single, std::array{0u});
    const uint32_t pair = b.add(spv::OpCompositeConstruct, types.get_type_vector(single, 2), {value, zero});
    const uint32_t word = b.add(spv::OpExtInst, types.get_type_int(32, false),
                                {module.get_ext_inst_import("GLSL.std.450"), GLSLstd450PackHalf2x16, pair});
    return b.add(spv::OpUConvert, types.get_type_int(16, false), {word});
}

}  // namespace vkpolyfill::lowering::float16
