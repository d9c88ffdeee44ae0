// Depth and stencil reads, modelled on VK-GL-CTS shader_tile_image: patch k draws at depth k / 16
// with depth writes on (compare ALWAYS) and stencil incremented on every fragment, and each fragment
// reads its sample's depth or stencil as the previous fragments left it; color attachment 0 (uvec4)
// keeps (error, sum of k, count, last k) so the read can be checked against what came before.
// Included with DEPTH or STENCIL, optionally NON_COHERENT.
#extension GL_EXT_shader_tile_image : require

#ifdef NON_COHERENT
layout(non_coherent_color_attachment_readEXT) in;
#ifdef DEPTH
layout(non_coherent_depth_attachment_readEXT) in;
#else
layout(non_coherent_stencil_attachment_readEXT) in;
#endif
#endif
layout(location = 0) tileImageEXT uattachmentEXT color0;
layout(location = 0) flat in uint patch_index;
layout(location = 0) out uvec4 out0;

void main() {
    const uvec4 previous = colorAttachmentReadEXT(color0, gl_SampleID);
#ifdef DEPTH
    // The depth of the last patch that reached this sample (0: cleared).
    const bool consistent = uint(round(depthAttachmentReadEXT(gl_SampleID) * 16.0)) == previous.w;
#else
    // How many patches reached this sample.
    const bool consistent = stencilAttachmentReadEXT(gl_SampleID) == previous.z;
#endif
    out0 = uvec4(consistent ? previous.x : 1u, previous.y + patch_index, previous.z + 1u, patch_index);
}
