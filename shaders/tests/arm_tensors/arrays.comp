#version 460
// Arrays of tensors indexed by a constant, a dynamically uniform push constant and a non-uniform
// invocation index: invocation i of 4 x 4 sums element i of tables[2], tables[pick] and tables[i % 4]
// (each 16 elements) into out[i]. The non-uniform read and the write are Nontemporal (a hint the
// lowering carries over to the buffer accesses).
#extension GL_ARM_tensors : require
#extension GL_EXT_nonuniform_qualifier : require

layout(local_size_x = 16) in;

layout(set = 0, binding = 0) uniform tensorARM<int, 1> tables[4];
layout(set = 0, binding = 1) uniform tensorARM<int, 1> out_tensor;
layout(push_constant) uniform Push { uint pick; };

void main() {
    const uint i = gl_GlobalInvocationID.x;
    int constant_pick, uniform_pick, non_uniform_pick;
    tensorReadARM(tables[2], uint[](i), constant_pick);
    tensorReadARM(tables[pick], uint[](i), uniform_pick);
    tensorReadARM(tables[nonuniformEXT(i % 4)], uint[](i), non_uniform_pick, gl_TensorOperandsNonTemporalARM);
    tensorWriteARM(out_tensor, uint[](i), constant_pick + uniform_pick + non_uniform_pick, gl_TensorOperandsNonTemporalARM);
}
