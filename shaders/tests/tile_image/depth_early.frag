#version 450
#extension GL_EXT_shader_tile_image : require
// Coherent depth reads with early fragment tests, which rasterization-order depth access excludes:
// the layer reports the pipeline as unsupported.
layout(early_fragment_tests) in;
layout(location = 0) out uvec4 out0;

void main() { out0 = uvec4(depthAttachmentReadEXT() * 16.0); }
