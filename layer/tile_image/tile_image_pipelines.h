// The graphics pipelines and fragment shader objects whose fragment shader reads tile images: the
// layout they were created with (the layer's) and the input attachments they read, for binding the
// layer's set with them.
#pragma once

#include <memory>
#include <optional>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

#include "tile_image/tile_image_layouts.h"

namespace vkpolyfill {

struct TilePipeline {
    std::shared_ptr<const LayerPipelineLayout> layout;
    std::shared_ptr<const TileSetLayout> set_layout;
    // Coherent reads that nothing in the driver orders (tile_image_draw_splitting.h): each draw becomes
    // a draw per primitive, with a by-region barrier before each.
    bool split_draws = false;
    // Coherent color reads ordered by a fragment shader interlock (tile_image_interlock.h): each draw
    // between by-region barriers.
    bool interlock = false;
    // The pipeline's topology, unless dynamic (shader objects: always), when the command buffer's counts.
    std::optional<VkPrimitiveTopology> topology;
};

// A fragment shader object's lowered code depends on whether the attachments are multisampled, which
// it learns only from vkCmdSetRasterizationSamplesEXT: the application's handle is the single-sampled
// code, and the layer keeps a multisampled twin to bind in its place when the sample count says so.
struct TileShader {
    TileShader(VkDevice device, const VkuDeviceDispatchTable& next, std::shared_ptr<const TilePipeline> pipeline,
               VkShaderEXT application, VkShaderEXT twin)
        : device_(device), next_(next), reads(std::move(pipeline)), single(application), multisampled(twin) {}
    ~TileShader() { next_.DestroyShaderEXT(device_, multisampled, nullptr); }
    TileShader(const TileShader&) = delete;
    TileShader& operator=(const TileShader&) = delete;

  private:
    VkDevice device_;
    const VkuDeviceDispatchTable& next_;

  public:
    std::shared_ptr<const TilePipeline> reads;
    VkShaderEXT single;        // the application's
    VkShaderEXT multisampled;  // the layer's

    VkShaderEXT for_samples(VkSampleCountFlagBits samples) const { return samples > VK_SAMPLE_COUNT_1_BIT ? multisampled : single; }
};

// Records by handle; null for every other handle.
template <typename Handle, typename Record>
class TileRecords {
  public:
    void add(Handle handle, std::shared_ptr<const Record> record) { records_.insert_or_assign(handle, std::move(record)); }
    std::shared_ptr<const Record> find(Handle handle) const {
        const auto found = records_.find(handle);
        return found->first ? found->second : nullptr;
    }
    void remove(Handle handle) { records_.erase(handle); }

  private:
    vku::concurrent::unordered_map<Handle, std::shared_ptr<const Record>, 4> records_;
};

using TilePipelines = TileRecords<VkPipeline, TilePipeline>;
using TileShaders = TileRecords<VkShaderEXT, TileShader>;

}  // namespace vkpolyfill
