// Multiply-add: D = C + sum over t < K_TILES of A_t * B_t, one MxNxK OpCooperativeMatrixMulAddKHR per
// step, VK-GL-CTS style: two workgroups of two subgroups, each subgroup working on its own tile
// (tile row = workgroup, tile column = subgroup) of larger A, B, C and D matrices, so tile offsets
// and strides matter. K_TILES > 1 accumulates through a loop (large K). Sizes, layouts and strides
// are specialization constants; STORAGE picks StorageBuffer, Workgroup arrays (each workgroup
// stages its band of rows) or PhysicalStorageBuffer. Wrappers (muladd_*.comp) define A_TYPE,
// B_TYPE, C_TYPE (also D's) and MULADD.
#include "common.glsl"
#extension GL_EXT_buffer_reference : require

layout(constant_id = 1) const uint M = 8;
layout(constant_id = 2) const uint N = 8;
layout(constant_id = 3) const uint K = 8;
layout(constant_id = 4) const uint K_TILES = 1;
layout(constant_id = 5) const int LAYOUT_A = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 6) const int LAYOUT_B = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 7) const int LAYOUT_C = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 8) const int LAYOUT_D = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 9) const uint STRIDE_A = 16;  // elements
layout(constant_id = 10) const uint STRIDE_B = 16;
layout(constant_id = 11) const uint STRIDE_C = 16;
layout(constant_id = 12) const uint STRIDE_D = 16;
layout(constant_id = 13) const uint STORAGE = 0;  // 0 StorageBuffer, 1 Workgroup, 2 PhysicalStorageBuffer
layout(constant_id = 14) const uint SHARED_A = 1;  // Workgroup: the arrays' lengths
layout(constant_id = 15) const uint SHARED_B = 1;
layout(constant_id = 16) const uint SHARED_C = 1;
layout(constant_id = 17) const uint SHARED_D = 1;

layout(std430, set = 0, binding = 0) readonly buffer BufferA { A_TYPE a_data[]; };
layout(std430, set = 0, binding = 1) readonly buffer BufferB { B_TYPE b_data[]; };
layout(std430, set = 0, binding = 2) readonly buffer BufferC { C_TYPE c_data[]; };
layout(std430, set = 0, binding = 3) buffer BufferD { C_TYPE d_data[]; };
layout(buffer_reference, std430) readonly buffer RefA { A_TYPE data[]; };
layout(buffer_reference, std430) readonly buffer RefB { B_TYPE data[]; };
layout(buffer_reference, std430) readonly buffer RefC { C_TYPE data[]; };
layout(buffer_reference, std430) buffer RefD { C_TYPE data[]; };
layout(push_constant) uniform Push { RefA a_ref; RefB b_ref; RefC c_ref; RefD d_ref; };

shared A_TYPE shared_a[SHARED_A];
shared B_TYPE shared_b[SHARED_B];
shared C_TYPE shared_c[SHARED_C];
shared C_TYPE shared_d[SHARED_D];

const uint TILES_X = 2;  // subgroups per workgroup

uint at(uint row, uint col, uint stride, int matrix_layout) {
    return matrix_layout == gl_CooperativeMatrixLayoutColumnMajor ? col * stride + row : row * stride + col;
}

// Workgroup staging of the band of ROWS_ rows from FIRST_ROW_ on, in the same layout and stride.
#define STAGE(TO, TO_ROW, FROM, FROM_ROW, ROWS_, COLS_, STRIDE_, LAYOUT_) \
    for (uint i = gl_LocalInvocationIndex; i < (ROWS_) * (COLS_); i += gl_WorkGroupSize.x) { \
        const uint r = i / (COLS_), c = i % (COLS_); \
        TO[at((TO_ROW) + r, c, STRIDE_, LAYOUT_)] = FROM[at((FROM_ROW) + r, c, STRIDE_, LAYOUT_)]; \
    }

// This subgroup's tile; A_ROW.. are the first rows of the tile row in the arrays used.
#define MULTIPLY(A_ARRAY, B_ARRAY, C_ARRAY, D_ARRAY, A_ROW, B_ROW, C_ROW) { \
    coopmat<C_TYPE, gl_ScopeSubgroup, M, N, gl_MatrixUseAccumulator> acc; \
    coopMatLoad(acc, C_ARRAY, at(C_ROW, tx * N, STRIDE_C, LAYOUT_C), STRIDE_C, LAYOUT_C); \
    for (uint t = 0; t < K_TILES; ++t) { \
        coopmat<A_TYPE, gl_ScopeSubgroup, M, K, gl_MatrixUseA> a; \
        coopmat<B_TYPE, gl_ScopeSubgroup, K, N, gl_MatrixUseB> b; \
        coopMatLoad(a, A_ARRAY, at(A_ROW, (tx * K_TILES + t) * K, STRIDE_A, LAYOUT_A), STRIDE_A, LAYOUT_A); \
        coopMatLoad(b, B_ARRAY, at((B_ROW) + t * K, tx * N, STRIDE_B, LAYOUT_B), STRIDE_B, LAYOUT_B); \
        acc = MULADD(a, b, acc); \
    } \
    coopMatStore(acc, D_ARRAY, at(C_ROW, tx * N, STRIDE_D, LAYOUT_D), STRIDE_D, LAYOUT_D); \
}

void main() {
    const uint ty = gl_WorkGroupID.x, tx = gl_SubgroupID;
    const uint a_row = ty * M, b_row = ty * K * K_TILES, c_row = ty * M;
    if (STORAGE == 0) {
        MULTIPLY(a_data, b_data, c_data, d_data, a_row, b_row, c_row)
    } else if (STORAGE == 1) {
        STAGE(shared_a, 0, a_data, a_row, M, TILES_X * K * K_TILES, STRIDE_A, LAYOUT_A)
        STAGE(shared_b, 0, b_data, b_row, K * K_TILES, TILES_X * N, STRIDE_B, LAYOUT_B)
        STAGE(shared_c, 0, c_data, c_row, M, TILES_X * N, STRIDE_C, LAYOUT_C)
        barrier();
        MULTIPLY(shared_a, shared_b, shared_c, shared_d, 0, 0, 0)
        barrier();
        STAGE(d_data, c_row, shared_d, 0, M, TILES_X * N, STRIDE_D, LAYOUT_D)
    } else {
        MULTIPLY(a_ref.data, b_ref.data, c_ref.data, d_ref.data, a_row, b_row, c_row)
    }
}
