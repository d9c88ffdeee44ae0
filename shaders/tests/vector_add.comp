#version 460
// An ordinary compute shader with no extension: the layer must pass it through byte-identical.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Push { uint count; float scale; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        c[i] = a[i] * scale + b[i];
    }
}
