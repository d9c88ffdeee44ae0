#version 460
// cooperativeMatrixRobustBufferAccess: an 8x8 float accumulator (row-major, stride 8) loaded from a
// buffer that ends inside the matrix, stored whole to a buffer that holds it, and stored to a buffer
// that ends inside it again.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) readonly buffer Source { float source[]; };
layout(std430, set = 0, binding = 1) buffer Loaded { float loaded[]; };
layout(std430, set = 0, binding = 2) buffer Short { float short_destination[]; };

void main() {
    coopmat<float, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, source, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(m, loaded, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(m, short_destination, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
}
