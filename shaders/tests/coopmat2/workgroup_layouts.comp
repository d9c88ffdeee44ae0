// target-env: vulkan1.3
#version 460
// Workgroup-scope A and B layouts (lowering/src/passes/cooperative_matrix/matrix_types.h) over 4
// subgroups. Q (32x16 A) is multiplied by K (16x32 B) and by K's first 16 columns (a 16x16 B): the
// two accumulators have different bands, so Q stays striped and both multiply-adds stage it
// through shared memory, while each B takes its accumulator's bands. K, converted to f32, and
// P = f16(Q x K), a 32x32 A in the bands of the 32x16 accumulator it multiplies V into, are stored
// back from their copies in several subgroups. Out: Q x K (32x32), Q x K[:, 0:16] (32x16), K
// (16x32), P x V (32x16), P (32x32), row-major one after the other.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };  // 32x16, row-major
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };    // 16x32, row-major
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };  // 32x16, row-major
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o[]; };

void main() {
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseA> mq;
    coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mk;
    coopmat<float16_t, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseB> mk_left;
    coopMatLoad(mq, q, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mk, k, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mk_left, k, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator> s =
        coopMatMulAdd(mq, mk, coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>(0.0));
    coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator> s_left =
        coopMatMulAdd(mq, mk_left, coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator>(0.0));
    coopMatStore(s, o, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(s_left, o, 1024, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mk32 = coopmat<float, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB>(mk);
    coopMatStore(mk32, o, 1536, 32, gl_CooperativeMatrixLayoutRowMajor);

    coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA> p = coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA>(s);
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseB> mv;
    coopMatLoad(mv, v, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator> pv =
        coopMatMulAdd(p, mv, coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator>(0.0));
    coopMatStore(pv, o, 2048, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA> p32 = coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA>(p);
    coopMatStore(p32, o, 2560, 32, gl_CooperativeMatrixLayoutRowMajor);
}
