// A copy of a rank-RANK tensor (wrappers ranks_*.comp define RANK): invocation i takes the i-th
// element in row-major order of src's shape (tensorSizeARM of every dimension but the outermost),
// reads it with a coordinates array of RANK entries and writes it at the same coordinates of dst.
// Invocations past the last element read zeros outside the tensor and write nothing.
#extension GL_ARM_tensors : require

layout(local_size_x = 8) in;

layout(set = 0, binding = 0) uniform tensorARM<uint, RANK> src;
layout(set = 0, binding = 1) uniform tensorARM<uint, RANK> dst;

// The coordinate along dimension d (a constant: tensorSizeARM wants one), innermost first.
#define TAKE(d)                                  \
    {                                            \
        const uint size = tensorSizeARM(src, d); \
        coordinates[d] = rest % size;            \
        rest /= size;                            \
    }

void main() {
    uint rest = gl_GlobalInvocationID.x;
    uint coordinates[RANK];
#if RANK > 7
    TAKE(7)
#endif
#if RANK > 6
    TAKE(6)
#endif
#if RANK > 5
    TAKE(5)
#endif
#if RANK > 4
    TAKE(4)
#endif
#if RANK > 3
    TAKE(3)
#endif
#if RANK > 2
    TAKE(2)
#endif
#if RANK > 1
    TAKE(1)
#endif
    coordinates[0] = rest;  // past the outermost size for invocations past the end
    uint value;
    tensorReadARM(src, coordinates, value);
    tensorWriteARM(dst, coordinates, value);
}
