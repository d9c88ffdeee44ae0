#version 460
// Tensors passed to functions (glslang passes them as UniformConstant pointers): invocation i writes
// dst[i] = (src[i], or -1 outside src) * weights[1][i] + (bias[i], or -1 outside bias) + size of dst,
// through a reading helper called with two tensors, a helper reading a tensor array's element and a
// writing helper.
#extension GL_ARM_tensors : require

layout(local_size_x = 8) in;

layout(set = 0, binding = 0) uniform tensorARM<float, 1> src;
layout(set = 0, binding = 1) uniform tensorARM<float, 1> dst;
layout(set = 1, binding = 0) uniform tensorARM<float, 1> weights[2];
layout(set = 1, binding = 1) uniform tensorARM<float, 1> bias;

float read_or_minus_one(tensorARM<float, 1> t, uint i) {
    float value;
    tensorReadARM(t, uint[](i), value, gl_TensorOperandsOutOfBoundsValueARM, -1.0);
    return value;
}

float weight(uint i) {
    float value;
    tensorReadARM(weights[1], uint[](i), value);
    return value;
}

void store(tensorARM<float, 1> t, uint i, float value) { tensorWriteARM(t, uint[](i), value); }

void main() {
    const uint i = gl_GlobalInvocationID.x;
    store(dst, i, read_or_minus_one(src, i) * weight(i) + read_or_minus_one(bias, i) + float(tensorSizeARM(dst, 0)));
}
