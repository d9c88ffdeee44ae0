// Length and the element mapping, checked by properties that hold for any mapping. Matrices are
// written as three digit planes (base 64, so every type holds a digit exactly): IN holds each
// element's row-major index. Every invocation reports length(); writes, into component e of its
// TAG planes, the tag invocation * length + e; and records in LOADED[tag] the index it found in
// component e of IN. Wrappers (length_*.comp) define TYPE.
#include "common.glsl"

layout(constant_id = 1) const uint ROWS = 8;
layout(constant_id = 2) const uint COLS = 8;
layout(constant_id = 3) const uint USE = gl_MatrixUseAccumulator;

#define MATRIX coopmat<TYPE, gl_ScopeSubgroup, ROWS, COLS, USE>

layout(std430, set = 0, binding = 0) readonly buffer In { TYPE in_digits[]; };   // 3 planes
layout(std430, set = 0, binding = 1) writeonly buffer Tags { TYPE tag_digits[]; };  // 3 planes
layout(std430, set = 0, binding = 2) writeonly buffer Loaded { uint loaded[]; };  // subgroup size * ROWS * COLS
layout(std430, set = 0, binding = 3) writeonly buffer Lengths { uint lengths[]; };  // one per invocation

void main() {
    const uint plane = ROWS * COLS;
    MATRIX in0, in1, in2, tag0, tag1, tag2;
    coopMatLoad(in0, in_digits, 0, COLS, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(in1, in_digits, plane, COLS, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(in2, in_digits, 2 * plane, COLS, gl_CooperativeMatrixLayoutRowMajor);
    const uint length = in0.length();
    const uint invocation = gl_SubgroupInvocationID;
    lengths[invocation] = length;
    for (uint e = 0; e < length; ++e) {
        const uint tag = invocation * length + e;
        tag0[e] = TYPE(tag % 64);
        tag1[e] = TYPE((tag / 64) % 64);
        tag2[e] = TYPE(tag / 4096);
        if (tag < gl_SubgroupSize * plane) loaded[tag] = uint(in0[e]) + 64 * uint(in1[e]) + 4096 * uint(in2[e]);
    }
    coopMatStore(tag0, tag_digits, 0, COLS, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(tag1, tag_digits, plane, COLS, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(tag2, tag_digits, 2 * plane, COLS, gl_CooperativeMatrixLayoutRowMajor);
}
