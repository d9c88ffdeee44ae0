#version 450
#extension GL_EXT_shader_tile_image : require
// Programmable blending: source-over (src * a + dst * (1 - a)) of the patch's translucent color onto
// what the color attachment holds, read through a tile image.
layout(location = 0) tileImageEXT attachmentEXT destination;
layout(location = 1) flat in vec4 color;
layout(location = 0) out vec4 result;

void main() {
    const vec4 dst = colorAttachmentReadEXT(destination);
    result = vec4(color.rgb * color.a + dst.rgb * (1.0 - color.a), color.a + dst.a * (1.0 - color.a));
}
