// target-env: vulkan1.3
#version 460
// A cooperative-matrix shader with two specialization constants: one shapes the matrices (the layer
// freezes it when lowering), one does not (it stays specializable in the lowered module).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;

layout(constant_id = 0) const uint kRows = 16;
layout(constant_id = 1) const float kScale = 1.0;

layout(std430, set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, set = 0, binding = 1) buffer C { float c[]; };

void main() {
    coopmat<float16_t, gl_ScopeSubgroup, kRows, 16, gl_MatrixUseAccumulator> half_tile;
    coopMatLoad(half_tile, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeSubgroup, kRows, 16, gl_MatrixUseAccumulator> tile =
        coopmat<float, gl_ScopeSubgroup, kRows, 16, gl_MatrixUseAccumulator>(half_tile);
    tile = tile * kScale;
    coopMatStore(tile, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
