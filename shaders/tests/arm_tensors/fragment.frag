#version 460
// A fragment shader reading a [height, width] tensor at its pixel (OutOfBoundsValueARM outside) and
// writing the value it output to a second tensor.
#extension GL_ARM_tensors : require

layout(set = 0, binding = 0) uniform tensorARM<float, 2> image;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> written;
layout(location = 0) out vec4 color;

void main() {
    const uvec2 pixel = uvec2(gl_FragCoord.xy);
    float value;
    tensorReadARM(image, uint[](pixel.y, pixel.x), value, gl_TensorOperandsOutOfBoundsValueARM, 0.25);
    tensorWriteARM(written, uint[](pixel.y, pixel.x), value);
    color = vec4(value);
}
