// Matrices through functions and variables: by-value parameters and a matrix return value, an
// inout parameter, a Function array of matrices indexed at run time, a struct member and a Private
// (global) variable. O = 2 * (INDEX == 2 ? -(A + B) : INDEX == 1 ? B : A), INDEX a push constant.
// Wrappers (function_*.comp) define TYPE.
#include "common.glsl"
#include "matrix_io.glsl"

layout(push_constant) uniform Push { uint index; };

struct Holder {
    MATRIX m;
    uint tag;
};

MATRIX kept;  // Private

MATRIX negated_sum(MATRIX x, MATRIX y) { return -(x + y); }

void double_in_place(inout MATRIX x) { x = x + x; }

void main() {
    MATRIX a, b;
    LOAD(a, a_data);
    LOAD(b, b_data);
    MATRIX choices[3];
    choices[0] = a;
    choices[1] = b;
    choices[2] = negated_sum(a, b);
    Holder holder;
    holder.m = choices[index];
    holder.tag = index;
    kept = holder.m;
    double_in_place(kept);
    STORE_O(kept);
}
