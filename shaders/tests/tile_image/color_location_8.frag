#version 460
// A tile image at color location 8: beyond maxColorAttachments on the drivers here (8), so the layer
// has no binding for it and must refuse the shader rather than alias its depth binding.
#extension GL_EXT_shader_tile_image : require
precision highp float;

layout(location = 8) tileImageEXT attachmentEXT color8;
layout(location = 0) out vec4 out0;

void main() { out0 = colorAttachmentReadEXT(color8); }
