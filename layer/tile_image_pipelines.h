// The graphics pipelines whose fragment shader reads tile images: the layout they were created with
// (the layer's) and the input attachments they read, for binding the layer's set with them.
#pragma once

#include <memory>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>

#include "tile_image_layouts.h"

namespace vkpolyfill {

struct TilePipeline {
    std::shared_ptr<const LayerPipelineLayout> layout;
    std::shared_ptr<const TileSetLayout> set_layout;
};

class TilePipelines {
  public:
    void add(VkPipeline pipeline, std::shared_ptr<const TilePipeline> record) { pipelines_.insert_or_assign(pipeline, std::move(record)); }
    // Null for every other pipeline.
    std::shared_ptr<const TilePipeline> find(VkPipeline pipeline) const {
        const auto found = pipelines_.find(pipeline);
        return found->first ? found->second : nullptr;
    }
    void remove(VkPipeline pipeline) { pipelines_.erase(pipeline); }

  private:
    vku::concurrent::unordered_map<VkPipeline, std::shared_ptr<const TilePipeline>, 4> pipelines_;
};

}  // namespace vkpolyfill
