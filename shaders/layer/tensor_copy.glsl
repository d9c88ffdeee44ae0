// vkCmdCopyTensorARM's compute copy of one region (layer/tensors/tensor_copy.cpp). The region's innermost
// dimension is split into chunks of `chunk` elements; invocation i copies chunk i % chunks_per_row of
// row i / chunks_per_row (rows in row-major order of the outer dimensions), so index arithmetic is
// paid per chunk rather than per element. Strides and bases are in elements; ELEMENT is the
// element's storage type.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Source { ELEMENT source[]; };
layout(set = 1, binding = 0) writeonly buffer Destination { ELEMENT destination[]; };

layout(push_constant) uniform Region {
    uint rank;
    uint count;        // chunks in the region
    uint source_base;  // element index of the region's first element
    uint destination_base;
    uint chunk;           // elements per chunk
    uint chunks_per_row;
    uint extent[8];
    uint source_stride[8];
    uint destination_stride[8];
};

void main() {
    // Two-dimensional dispatches cover regions larger than one row of workgroups.
    const uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (i >= count) return;
    uint row = i / chunks_per_row;
    const uint first = (i % chunks_per_row) * chunk;
    const uint inner = rank - 1;
    uint s = source_base + first * source_stride[inner];
    uint d = destination_base + first * destination_stride[inner];
    for (int k = int(inner) - 1; k >= 0; --k) {
        const uint c = row % extent[k];
        row /= extent[k];
        s += c * source_stride[k];
        d += c * destination_stride[k];
    }
    const uint n = min(chunk, extent[inner] - first);
    for (uint e = 0; e < n; ++e) destination[d + e * destination_stride[inner]] = source[s + e * source_stride[inner]];
}
