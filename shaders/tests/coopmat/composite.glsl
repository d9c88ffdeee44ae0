// Constants and composites of matrix type; OP selects what the result O is:
//   0 OpConstantComposite splat: TYPE(3) everywhere;
//   1 OpConstantNull (a `= {}` initializer): zeros;
//   2 OpCompositeConstruct splat of a run-time (push-constant) scalar;
//   3 A + B component by component, indexing every component below length() (OpAccessChain into
//     matrix variables, OpCooperativeMatrixLengthKHR);
//   4 A with components 0 and 1 taken from B (constant indices: OpCompositeExtract/Insert once
//     spirv-opt has run); which elements those are is the implementation's mapping.
// (glslang writes no OpSpecConstantComposite of matrix type: the test assembles that one.)
// Wrappers (composite_*.comp) define TYPE.
#include "common.glsl"
#include "matrix_io.glsl"
#extension GL_EXT_null_initializer : require

layout(constant_id = 4) const uint OP = 0;

layout(push_constant) uniform Push { float value; };

const MATRIX constant_matrix = MATRIX(TYPE(3));

void main() {
    MATRIX a, b, o;
    LOAD(a, a_data);
    LOAD(b, b_data);
    switch (OP) {
        case 0: o = constant_matrix; break;
        case 1: {
            MATRIX zero = {};
            o = zero;
            break;
        }
        case 2: o = MATRIX(TYPE(value)); break;
        case 3:
            for (uint i = 0; i < o.length(); ++i) o[i] = a[i] + b[i];
            break;
        default:
            o = a;
            o[0] = b[0];
            o[1] = b[1];
            break;
    }
    STORE_O(o);
}
