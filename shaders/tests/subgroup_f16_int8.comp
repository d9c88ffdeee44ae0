#version 460
// Subgroup operations and explicit arithmetic types (float16, int8, int64): small and wide literals
// and the capabilities that come with them.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Halves { f16vec4 halves[]; };
layout(std430, set = 0, binding = 1) buffer Bytes { int8_t bytes[]; };
layout(std430, set = 0, binding = 2) buffer Totals { int64_t totals[]; };
layout(std430, set = 0, binding = 3) buffer Maxima { float16_t maxima[]; };

void main() {
    uint index = gl_GlobalInvocationID.x;
    f16vec4 h = halves[index] * float16_t(0.5) + f16vec4(1.0hf, -2.0hf, 0.25hf, 65504.0hf);
    float16_t m = subgroupMax(max(max(h.x, h.y), max(h.z, h.w)));
    int8_t b = bytes[index] + int8_t(-3);
    int64_t wide = int64_t(b) * 0x100000001l + 0x7fffffff00000000l;
    int64_t sum = subgroupAdd(wide);
    uvec4 ballot = subgroupBallot(b > int8_t(0));
    h = subgroupShuffle(h, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
    if (subgroupElect()) {
        totals[gl_WorkGroupID.x] = sum + int64_t(subgroupBallotBitCount(ballot));
        maxima[gl_WorkGroupID.x] = m;
    }
    halves[index] = h;
    bytes[index] = b;
}
