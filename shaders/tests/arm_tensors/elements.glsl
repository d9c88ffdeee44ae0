// Element access of one element type (wrappers elements_*.comp define ELEMENT and OUT_OF_BOUNDS):
// invocation (x, y) of a grid larger than the tensors reads src[y][x] (OUT_OF_BOUNDS outside, given
// as OutOfBoundsValueARM) and writes it to copy[y][x] (dropped outside); it reads three consecutive
// elements src[y][3x .. 3x+2] as an array (zero for those outside) and writes them to rows[y][3x ..];
// invocation (0, 0) stores the sizes of src in `sizes`.
#extension GL_ARM_tensors : require
#extension GL_EXT_shader_explicit_arithmetic_types : require

layout(local_size_x = 4, local_size_y = 4) in;

layout(set = 0, binding = 0) uniform tensorARM<ELEMENT, 2> src;
layout(set = 0, binding = 1) uniform tensorARM<ELEMENT, 2> copy;
layout(set = 0, binding = 2) uniform tensorARM<ELEMENT, 2> rows;
layout(set = 0, binding = 3) buffer Sizes { uint sizes[2]; };

void main() {
    const uvec2 id = gl_GlobalInvocationID.xy;
    ELEMENT value;
    tensorReadARM(src, uint[](id.y, id.x), value, gl_TensorOperandsOutOfBoundsValueARM, OUT_OF_BOUNDS);
    tensorWriteARM(copy, uint[](id.y, id.x), value);
    ELEMENT three[3];
    tensorReadARM(src, uint[](id.y, 3 * id.x), three);
    tensorWriteARM(rows, uint[](id.y, 3 * id.x), three);
    if (id == uvec2(0)) {
        sizes[0] = tensorSizeARM(src, 0);
        sizes[1] = tensorSizeARM(src, 1);
    }
}
