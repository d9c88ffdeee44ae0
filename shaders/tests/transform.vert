#version 460
// A vertex shader: uniform-buffer matrices, arrays of structs, per-vertex outputs and gl_Position.
struct Light {
    vec4 position;
    vec4 color;
};

layout(set = 0, binding = 0) uniform Camera {
    mat4 view_projection;
    mat3 normal_matrix;
    Light lights[4];
};

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv_in;
layout(location = 0) out vec2 uv;
layout(location = 1) flat out int layer;
layout(location = 2) out vec3 lit;

void main() {
    vec3 n = normalize(normal_matrix * normal);
    vec3 sum = vec3(0.0);
    for (int i = 0; i < 4; ++i) {
        vec3 to_light = normalize(lights[i].position.xyz - position);
        sum += lights[i].color.rgb * max(dot(n, to_light), 0.0);
    }
    lit = sum;
    uv = uv_in;
    layer = gl_VertexIndex % 4;
    gl_Position = view_projection * vec4(position, 1.0);
}
