// target-env: vulkan1.3
#version 460
// What a tensor copy's compute path must leave as it was: out[i] = in[i] * scale + offset, with its
// own pipeline, descriptor set and push constants.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint in_values[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint out_values[]; };
layout(push_constant) uniform Constants { uint scale; uint offset; };

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i < in_values.length()) out_values[i] = in_values[i] * scale + offset;
}
