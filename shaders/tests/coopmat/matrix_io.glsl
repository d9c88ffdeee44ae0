// What the shaders run by coopmat_runs.h's run_a_b_to_o share: a ROWS x COLS matrix type of TYPE
// with use USE (constants 1-3), MATRIX for it, and A and B in, O out, tight row-major arrays.
layout(constant_id = 1) const uint ROWS = 8;
layout(constant_id = 2) const uint COLS = 8;
layout(constant_id = 3) const uint USE = gl_MatrixUseAccumulator;

#define MATRIX coopmat<TYPE, gl_ScopeSubgroup, ROWS, COLS, USE>

layout(std430, set = 0, binding = 0) readonly buffer BufferA { TYPE a_data[]; };
layout(std430, set = 0, binding = 1) readonly buffer BufferB { TYPE b_data[]; };
layout(std430, set = 0, binding = 2) writeonly buffer BufferO { TYPE o_data[]; };

#define LOAD(m, data) coopMatLoad(m, data, 0, COLS, gl_CooperativeMatrixLayoutRowMajor)
#define STORE_O(m) coopMatStore(m, o_data, 0, COLS, gl_CooperativeMatrixLayoutRowMajor)
