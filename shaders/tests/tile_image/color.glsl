// Accumulating color reads, modelled on VK-GL-CTS shader_tile_image: every fragment of patch k reads
// its sample of each color attachment i through a tile image and writes (error, sum, count, k) with
// sum += k * (i + 1) + sample and count += 1, so the final value records which patches reached the
// sample and whether each read saw the one before it. Included with TYPE (vec4, ivec4, uvec4),
// ATTACHMENT (attachmentEXT, iattachmentEXT, uattachmentEXT), optionally ARRAY (one array of tile
// images indexed by a push constant, not two variables) and NON_COHERENT.
#extension GL_EXT_shader_tile_image : require

layout(constant_id = 0) const uint attachments = 1;  // 1 or 2
layout(constant_id = 1) const float scale = 1.0;     // 255 for UNORM attachments (reads * scale, writes / scale)
layout(push_constant) uniform Constants { uint first_attachment; } constants;  // 0: the dynamic index's base
#ifdef NON_COHERENT
layout(non_coherent_color_attachment_readEXT) in;
#endif
#ifdef ARRAY
layout(location = 0) tileImageEXT ATTACHMENT colors[2];
#define READ(i) colorAttachmentReadEXT(colors[constants.first_attachment + i], gl_SampleID)
#else
layout(location = 0) tileImageEXT ATTACHMENT color0;
layout(location = 1) tileImageEXT ATTACHMENT color1;
#define READ(i) ((i) == 0 ? colorAttachmentReadEXT(color0, gl_SampleID) : colorAttachmentReadEXT(color1, gl_SampleID))
#endif
layout(location = 0) flat in uint patch_index;
layout(location = 0) out TYPE out0;
layout(location = 1) out TYPE out1;

TYPE accumulate(TYPE previous_raw, uint i) {
    const vec4 previous = round(vec4(previous_raw) * scale);
    const float sum = previous.y + float(patch_index * (i + 1) + uint(gl_SampleID));
    return TYPE(vec4(previous.x, sum, previous.z + 1.0, float(patch_index)) / scale);
}

void main() {
    out0 = accumulate(READ(0), 0);
    if (attachments > 1) out1 = accumulate(READ(1), 1);
}
