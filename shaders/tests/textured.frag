#version 460
// A fragment shader with images: sampling with explicit lod, gradients and offsets (image operands
// with several parameters), a storage image, discard and push constants.
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform sampler2DArray layers;
layout(set = 0, binding = 2, rgba8) uniform readonly image2D mask;
layout(set = 0, binding = 3) uniform texture2D plain;
layout(set = 0, binding = 4) uniform sampler nearest;
layout(push_constant) uniform Push { vec4 tint; float cutoff; };

layout(location = 0) in vec2 uv;
layout(location = 1) flat in int layer;
layout(location = 0) out vec4 color;

void main() {
    vec4 base = texture(albedo, uv);
    vec4 lod = textureLodOffset(albedo, uv, 2.0, ivec2(1, -1));
    vec4 grad = textureGradOffset(albedo, uv, dFdx(uv), dFdy(uv), ivec2(-2, 3));
    vec4 array = texture(layers, vec3(uv, float(layer)));
    vec4 separate = texture(sampler2D(plain, nearest), uv);
    vec4 m = imageLoad(mask, ivec2(gl_FragCoord.xy));
    vec4 c = (base + lod + grad + array + separate) * 0.2 * tint * m;
    if (c.a < cutoff) discard;
    color = c;
}
