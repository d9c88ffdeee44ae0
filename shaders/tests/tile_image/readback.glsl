// Copies every sample of a color attachment into a buffer, 4 x 32 bits a sample (floats as their
// bits), pixel by pixel: texel (x, y, s) at ((y * width + x) * samples + s). Included with SAMPLER
// (texture2D, utexture2DMS, ...), MS when it is multisampled, and TO_BITS (how a texel becomes uvec4).
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform SAMPLER attachment;
layout(set = 0, binding = 1, std430) buffer Texels { uvec4 texels[]; };
layout(push_constant) uniform Constants { uint width; uint samples; } constants;

void main() {
    const ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    for (uint s = 0; s < constants.samples; ++s) {
#ifdef MS
        const uvec4 bits = TO_BITS(texelFetch(attachment, pixel, int(s)));
#else
        const uvec4 bits = TO_BITS(texelFetch(attachment, pixel, 0));
#endif
        texels[(gl_GlobalInvocationID.y * constants.width + gl_GlobalInvocationID.x) * constants.samples + s] = bits;
    }
}
