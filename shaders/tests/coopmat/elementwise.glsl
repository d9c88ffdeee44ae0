// Element-wise arithmetic on matrices of one type and use: OP selects OpFAdd/OpIAdd (0),
// OpFSub/OpISub (1), OpFMul/OpIMul (2), OpFDiv/OpSDiv/OpUDiv (3), OpFNegate/OpSNegate (4) or
// OpMatrixTimesScalar by a push-constant scalar (5). A, B and the result are tight row-major
// arrays. Wrappers (elementwise_*.comp) define TYPE.
#include "common.glsl"
#include "matrix_io.glsl"

layout(constant_id = 4) const uint OP = 0;

layout(push_constant) uniform Push { float scale; };

void main() {
    MATRIX a, b, o;
    LOAD(a, a_data);
    LOAD(b, b_data);
    switch (OP) {
        case 0: o = a + b; break;
        case 1: o = a - b; break;
        case 2: o = a * b; break;
        case 3: o = a / b; break;
        case 4: o = -a; break;
        default: o = a * TYPE(scale); break;
    }
    STORE_O(o);
}
