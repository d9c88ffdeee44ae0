#version 450
// The tile-image tests' patches: an axis-aligned rectangle per patch (pixel-aligned, so coverage is
// exact at every sample), with its 1-based index and a color for the blending scene.
layout(location = 0) in vec4 position;  // z: the patch's depth
layout(location = 1) in vec4 color;
layout(location = 2) in uint patch_index;
layout(location = 0) flat out uint patch_out;
layout(location = 1) flat out vec4 color_out;

void main() {
    gl_Position = position;
    patch_out = patch_index;
    color_out = color;
}
