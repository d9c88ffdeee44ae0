// Load/store round trip: a ROWS x COLS matrix of ELEMENT with use USE, loaded through an array of
// POINTEE (which may be wider than ELEMENT: f16vec2, uint, uvec4; or narrower: uint8_t, uint16_t)
// with one layout, stride and offset and stored with another, in the storage class STORAGE selects. Offsets and strides are
// push constants (run-time values, counted in POINTEEs as the spec has them); stride 0 loads
// broadcast one row (column). Wrappers (load_store_*.comp) define ELEMENT and POINTEE.
#include "common.glsl"
#extension GL_EXT_buffer_reference : require

layout(constant_id = 1) const uint ROWS = 8;
layout(constant_id = 2) const uint COLS = 8;
layout(constant_id = 3) const uint USE = gl_MatrixUseAccumulator;
layout(constant_id = 4) const int LOAD_LAYOUT = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 5) const int STORE_LAYOUT = gl_CooperativeMatrixLayoutRowMajor;
layout(constant_id = 6) const uint STORAGE = 0;          // 0 StorageBuffer, 1 Workgroup, 2 PhysicalStorageBuffer
layout(constant_id = 7) const uint SHARED_POINTEES = 1;  // the Workgroup arrays' length

layout(std430, set = 0, binding = 0) readonly buffer Source { POINTEE source[]; };
layout(std430, set = 0, binding = 1) buffer Target { POINTEE target[]; };
layout(buffer_reference, std430) readonly buffer SourceRef { POINTEE data[]; };
layout(buffer_reference, std430) buffer TargetRef { POINTEE data[]; };
layout(push_constant) uniform Push {
    SourceRef source_ref;  // the same buffers by address, for PhysicalStorageBuffer
    TargetRef target_ref;
    uint load_offset, load_stride, store_offset, store_stride;
    uint source_count, target_count;  // POINTEEs in each buffer
};

shared POINTEE staged_source[SHARED_POINTEES];
shared POINTEE staged_target[SHARED_POINTEES];

void main() {
    coopmat<ELEMENT, gl_ScopeSubgroup, ROWS, COLS, USE> m;
    if (STORAGE == 0) {
        coopMatLoad(m, source, load_offset, load_stride, LOAD_LAYOUT);
        coopMatStore(m, target, store_offset, store_stride, STORE_LAYOUT);
    } else if (STORAGE == 1) {
        for (uint i = gl_LocalInvocationIndex; i < source_count; i += gl_WorkGroupSize.x) staged_source[i] = source[i];
        for (uint i = gl_LocalInvocationIndex; i < target_count; i += gl_WorkGroupSize.x) staged_target[i] = target[i];
        barrier();
        coopMatLoad(m, staged_source, load_offset, load_stride, LOAD_LAYOUT);
        coopMatStore(m, staged_target, store_offset, store_stride, STORE_LAYOUT);
        barrier();
        for (uint i = gl_LocalInvocationIndex; i < target_count; i += gl_WorkGroupSize.x) target[i] = staged_target[i];
    } else {
        coopMatLoad(m, source_ref.data, load_offset, load_stride, LOAD_LAYOUT);
        coopMatStore(m, target_ref.data, store_offset, store_stride, STORE_LAYOUT);
    }
}
