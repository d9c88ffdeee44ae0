#version 450
// patch.vert's patches drawn one an instance (SceneSpec::instanced): the instance's rectangle in
// normalized device coordinates (x0, y0, x1, y1), color and 1-based index come per instance, and
// each of the six vertices of a draw's triangle list picks its corner, clockwise as patch.vert's.
layout(location = 0) in vec4 rectangle;
layout(location = 1) in vec4 color;
layout(location = 2) in uint patch_index;
layout(location = 0) flat out uint patch_out;
layout(location = 1) flat out vec4 color_out;

const uvec2 kCorners[6] = uvec2[](uvec2(0, 1), uvec2(2, 1), uvec2(2, 3), uvec2(0, 1), uvec2(2, 3), uvec2(0, 3));

void main() {
    const uvec2 corner = kCorners[gl_VertexIndex % 6];
    const float depth = float(patch_index % 16u) / 16.0;  // tile_image_scene.h's Patch::depth()
    gl_Position = vec4(rectangle[corner.x], rectangle[corner.y], depth, 1.0);
    patch_out = patch_index;
    color_out = color;
}
