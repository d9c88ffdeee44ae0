// Matrices through control flow; OP selects:
//   0 if/else assignment: O = FLAG != 0 ? A : B;
//   1 a loop accumulating O = A + A + ... from a zero matrix, over COUNT iterations but the one
//     numbered FLAG (a `continue`: the continue target merges O from two paths).
// After spirv-opt -O the matrices travel through OpPhi. FLAG and COUNT are push constants.
// (The ?: expression is OpSelect of matrix type, which spirv-val rejects, so the lowering tests'
// corpus of these shaders must not hold it: the test assembles that module.)
// Wrappers (control_flow_*.comp) define TYPE.
#include "common.glsl"
#include "matrix_io.glsl"

layout(constant_id = 4) const uint OP = 0;

layout(push_constant) uniform Push { uint flag; uint count; };

void main() {
    MATRIX a, b, o;
    LOAD(a, a_data);
    LOAD(b, b_data);
    if (OP == 0) {
        if (flag != 0) {
            o = a;
        } else {
            o = b;
        }
    } else {
        o = MATRIX(TYPE(0));
        for (uint i = 0; i < count; ++i) {
            if (i == flag) continue;
            o = o + a;
        }
    }
    STORE_O(o);
}
