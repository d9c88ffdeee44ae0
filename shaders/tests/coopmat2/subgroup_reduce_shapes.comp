// target-env: vulkan1.3
// One OpCooperativeMatrixReduceNV on an M x N subgroup accumulator, shaped by specialization so that
// some invocations hold no element of a line (N below the subgroup size splits the rows between
// groups of invocations) and results differ from the source in shape. MODE is the Reduce mask (1 Row,
// 2 Column, 3 Row|Column, 4 2x2); the result is M x RN (Row), RM x N (Column), RM x RN (both) or
// M/2 x N/2 (2x2: HM x HN); FUNC 0 combines by adding, 1 by max. Source row-major at data[0],
// result row-major at result[0]. SCOPE (gl_ScopeSubgroup unless specialized to gl_ScopeWorkgroup)
// and the workgroup size INVOCATIONS make the same reductions workgroup-scope.
#version 460
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x_id = 8) in;
layout(constant_id = 0) const uint MODE = 1;
layout(constant_id = 1) const uint M = 16;
layout(constant_id = 2) const uint N = 16;
layout(constant_id = 3) const uint RM = 8;
layout(constant_id = 4) const uint RN = 8;
layout(constant_id = 5) const uint HM = 8;
layout(constant_id = 6) const uint HN = 8;
layout(constant_id = 7) const uint FUNC = 0;
layout(constant_id = 9) const uint SCOPE = gl_ScopeSubgroup;

layout(std430, set = 0, binding = 0) buffer Data { float data[]; };
layout(std430, set = 0, binding = 1) buffer Out { float result[]; };

float combine(const in float a, const in float b) { return FUNC == 0 ? a + b : max(a, b); }

void main() {
    coopmat<float, SCOPE, M, N, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, data, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    if (MODE == 1) {
        coopmat<float, SCOPE, M, RN, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, combine);
        coopMatStore(r, result, 0, RN, gl_CooperativeMatrixLayoutRowMajor);
    } else if (MODE == 2) {
        coopmat<float, SCOPE, RM, N, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceColumnNV, combine);
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    } else if (MODE == 3) {
        coopmat<float, SCOPE, RM, RN, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowAndColumnNV, combine);
        coopMatStore(r, result, 0, RN, gl_CooperativeMatrixLayoutRowMajor);
    } else {
        coopmat<float, SCOPE, HM, HN, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduce2x2NV, combine);
        coopMatStore(r, result, 0, HN, gl_CooperativeMatrixLayoutRowMajor);
    }
}
