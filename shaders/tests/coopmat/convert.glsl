// A conversion between matrices of one use and shape: the constructor coopmat<TO_TYPE>(from) is
// OpFConvert, OpConvertFToS/FToU, OpConvertSToF/UToF, OpSConvert, OpUConvert or OpBitcast by the
// two types. Tight row-major arrays in and out. Wrappers (convert_*.comp) define FROM_TYPE and
// TO_TYPE.
#include "common.glsl"

layout(constant_id = 1) const uint ROWS = 8;
layout(constant_id = 2) const uint COLS = 8;
layout(constant_id = 3) const uint USE = gl_MatrixUseAccumulator;

layout(std430, set = 0, binding = 0) readonly buffer BufferIn { FROM_TYPE in_data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer BufferOut { TO_TYPE out_data[]; };

void main() {
    coopmat<FROM_TYPE, gl_ScopeSubgroup, ROWS, COLS, USE> from;
    coopMatLoad(from, in_data, 0, COLS, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<TO_TYPE, gl_ScopeSubgroup, ROWS, COLS, USE> to = coopmat<TO_TYPE, gl_ScopeSubgroup, ROWS, COLS, USE>(from);
    coopMatStore(to, out_data, 0, COLS, gl_CooperativeMatrixLayoutRowMajor);
}
