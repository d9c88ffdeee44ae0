// Draws the tile-image scenes through dynamic rendering on a harness Context and reads every sample
// of every color attachment back (a compute shader copies them, as multisampled images cannot be
// copied to buffers), for comparison with tile_image_scene's simulation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tile_image_scene.h"
#include "vulkan_context.h"

namespace vkpolyfill::test::tile_image {

// Where a frame's commands are recorded.
enum class Recording {
    Primary,
    Secondary,            // the whole render pass instance in a secondary command buffer
    ContinuingSecondary,  // the draws in a secondary continuing the primary's render pass instance
};

struct SceneSpec {
    std::vector<VkFormat> colors{};                     // color attachments, in order
    VkFormat depth_stencil = VK_FORMAT_UNDEFINED;        // written by every patch when set
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    std::string fragment_shader{};                       // under shaders/, e.g. "tests/tile_image/color_float.frag"
    std::vector<uint32_t> constants{};                   // specialization constants 0.. (32 bits each)
    uint32_t first_attachment = 0;                       // the push constant (color.glsl's dynamic index base)
    bool blend = false;                                  // fixed-function source-over on every color attachment
    std::vector<uint32_t> patches_per_draw{};            // the patches split into draws, in order
    // A patch is two triangles of a list (six vertices), or a strip or fan of four vertices, drawn a
    // patch per draw (patches_per_draw all 1) with back faces culled: every triangle must keep its
    // winding, or it is culled.
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    // Every other draw (the first, the third, ...) vkCmdDrawIndexed over an index buffer 0, 1, 2, ...
    // bound once, the others vkCmdDraw: the same vertices either way.
    bool alternate_indexed = false;
    // Each patch an instance of one six-vertex triangle list (patch_instanced.vert: its rectangle,
    // color and index per instance), a draw of N patches vkCmdDraw(6, N, 0, first patch): the same
    // triangles in the same order. Triangle lists only.
    bool instanced = false;
    bool barriers = false;  // a by-region barrier before each draw (non-coherent reads)
    uint32_t size = kSize;  // framebuffer width and height, a multiple of kSize
    uint32_t frames = 1;    // render pass instances, each clearing and drawing the whole scene
    bool shader_objects = false;  // vertex and fragment shader objects (VK_EXT_shader_object), not a pipeline
    // The color attachments' locations (dynamic rendering local read: the pipeline's
    // VkRenderingAttachmentLocationInfo and vkCmdSetRenderingAttachmentLocations); empty: their indices.
    std::vector<uint32_t> locations{};
    Recording recording = Recording::Primary;
    // Empty descriptor set layouts the pipeline layout (or the shader objects) lists as sets 0..n-1:
    // every set the layer reports leaves its own set right after them.
    uint32_t descriptor_sets = 0;
};

// The last render(): recording the frames' commands and running them (wall time), without the
// pipeline creation and the readback.
struct SceneTiming {
    double record_ms = 0;
    double execute_ms = 0;
};

// The vertices the renderer draws each patch with, by topology.
uint32_t vertices_per_patch(VkPrimitiveTopology topology);

// Every sample of one color attachment: texel (x, y, s) at (y * size + x) * samples + s.
using Samples = std::vector<Texel>;

class SceneRenderer {
  public:
    explicit SceneRenderer(Context& context);
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    // Throws std::runtime_error, with `what` naming the step, when a Vulkan call fails.
    std::vector<Samples> render(const SceneSpec& spec, const std::vector<Patch>& patches);
    const SceneTiming& last_timing() const { return timing_; }
    // The scene's graphics pipeline alone, created with `flags` and destroyed with the renderer: a
    // compile-only run on a device that executes nothing (a GPU proxy).
    VkPipeline create_pipeline(const SceneSpec& spec, VkPipelineCreateFlags flags);

  private:
    struct Image;
    Image create_image(VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                       uint32_t size);
    VkCommandBuffer allocate_commands(VkCommandBufferLevel level);
    VkCommandBuffer begin_commands();
    VkCommandBuffer begin_secondary(const SceneSpec& spec);
    void submit(VkCommandBuffer command_buffer);
    VkPipeline graphics_pipeline(const SceneSpec& spec, VkShaderModule vertex, VkShaderModule fragment,
                                 VkPipelineCreateFlags flags = 0);
    // The vertex and fragment shader objects, and binding them with the state graphics_pipeline() sets.
    void create_shader_objects(const SceneSpec& spec);
    void bind_shader_objects(VkCommandBuffer command_buffer, const SceneSpec& spec) const;
    void read_back(VkCommandBuffer command_buffer, const Image& image, VkFormat format, uint32_t samples, uint32_t size,
                   VkBuffer buffer);
    VkShaderModule module(const std::string& path);
    uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags flags) const;
    // A host-visible buffer holding `contents` until the next render().
    VkBuffer host_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void* contents);
    void destroy_transients();
    // The graphics pipeline layout of `spec` (its push constant; sets as it asks).
    VkPipelineLayout graphics_layout(const SceneSpec& spec);

    Context& context_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout readback_set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout readback_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout graphics_layout_ = VK_NULL_HANDLE;  // no sets
    VkDescriptorSetLayout empty_set_layout_ = VK_NULL_HANDLE;
    // What one render() made.
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    std::vector<VkDeviceMemory> memories_;
    std::vector<VkBuffer> buffers_;
    std::vector<VkShaderModule> modules_;
    std::vector<VkPipeline> pipelines_;
    std::vector<VkPipelineLayout> pipeline_layouts_;  // those listing sets (SceneSpec::descriptor_sets)
    std::vector<VkShaderEXT> shaders_;  // vertex, fragment
    std::vector<VkCommandBuffer> secondaries_;  // freed with the next submission's primary
    SceneTiming timing_;
};

}  // namespace vkpolyfill::test::tile_image
