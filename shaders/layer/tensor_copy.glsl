// vkCmdCopyTensorARM's compute copy of one region (layer/tensor_copy.cpp): invocation i copies the
// i-th element of the region, in row-major order of its extent, from the source tensor's buffer to
// the destination's. Strides and bases are in elements; ELEMENT is the element's storage type.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Source { ELEMENT source[]; };
layout(set = 1, binding = 0) writeonly buffer Destination { ELEMENT destination[]; };

layout(push_constant) uniform Region {
    uint rank;
    uint count;        // elements in the region
    uint source_base;  // element index of the region's first element
    uint destination_base;
    uint extent[8];
    uint source_stride[8];
    uint destination_stride[8];
};

void main() {
    // Two-dimensional dispatches cover regions larger than one row of workgroups.
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (i >= count) return;
    uint s = source_base;
    uint d = destination_base;
    for (int k = int(rank) - 1; k >= 0; --k) {
        const uint c = i % extent[k];
        i /= extent[k];
        s += c * source_stride[k];
        d += c * destination_stride[k];
    }
    destination[d] = source[s];
}
