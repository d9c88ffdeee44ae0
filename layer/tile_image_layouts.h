// Pipeline layouts for lowered tile-image shaders: the application's set layouts and push constants,
// empty set layouts up to the layer's set (the last one the device has, which the layer reports as
// taken), and there the input attachments the shader reads (tile_image.h's bindings). Layouts that
// agree for the application's sets stay compatible with its own layout, so its descriptor binds and
// push constants keep working; one layer layout serves every pipeline with the same application layout
// and the same reads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <vkpolyfill/lowering/tile_image.h>
#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

// The input attachments one shader reads, as bindings of the layer's set.
struct TileSetLayout {
    VkDescriptorSetLayout handle = VK_NULL_HANDLE;
    std::vector<lowering::TileImageColors> colors;
    bool depth = false;
    bool stencil = false;
};

// A layout the layer made: destroyed with the last pipeline or shader that uses it.
struct LayerPipelineLayout {
    LayerPipelineLayout(VkDevice device, const VkuDeviceDispatchTable& next, VkPipelineLayout handle)
        : device_(device), next_(next), layout(handle) {}
    ~LayerPipelineLayout() { next_.DestroyPipelineLayout(device_, layout, nullptr); }
    LayerPipelineLayout(const LayerPipelineLayout&) = delete;
    LayerPipelineLayout& operator=(const LayerPipelineLayout&) = delete;

  private:
    VkDevice device_;
    const VkuDeviceDispatchTable& next_;

  public:
    VkPipelineLayout layout;
};

// What a pipeline layout (or a shader object) gives the application's sets.
struct ApplicationLayout {
    std::vector<VkDescriptorSetLayout> sets;
    std::vector<VkPushConstantRange> push_constants;
    VkPipelineLayoutCreateFlags flags = 0;
};

class TileImageLayouts {
  public:
    TileImageLayouts(VkDevice device, const VkuDeviceDispatchTable& next, uint32_t layer_set, uint32_t depth_binding);
    ~TileImageLayouts();
    TileImageLayouts(const TileImageLayouts&) = delete;
    TileImageLayouts& operator=(const TileImageLayouts&) = delete;

    uint32_t layer_set() const { return layer_set_; }

    void record(VkPipelineLayout layout, const VkPipelineLayoutCreateInfo& info);
    void forget(VkPipelineLayout layout);
    // Null for a layout the layer never saw.
    std::shared_ptr<const ApplicationLayout> application_layout(VkPipelineLayout layout) const;

    // The layer's set layout for these reads, made once; null if the driver refused it.
    std::shared_ptr<const TileSetLayout> set_layout(const lowering::TileImageUsage& usage);
    // The application's sets, then the layer's; null if the driver refused it or the application
    // uses the layer's set itself (the error says so).
    std::shared_ptr<const LayerPipelineLayout> pipeline_layout(VkPipelineLayout application, const TileSetLayout& set,
                                                                std::string& error);
    // The set layouts a shader object lists: the application's, the empty ones, the layer's.
    std::vector<VkDescriptorSetLayout> set_layouts(const ApplicationLayout& application, const TileSetLayout& set) const;
    std::shared_ptr<const LayerPipelineLayout> create(const ApplicationLayout& application, const TileSetLayout& set);

  private:
    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    uint32_t layer_set_;
    uint32_t depth_binding_;
    VkDescriptorSetLayout empty_ = VK_NULL_HANDLE;
    vku::concurrent::unordered_map<VkPipelineLayout, std::shared_ptr<const ApplicationLayout>, 2> application_;
    // Pipeline creation only: a plain lock is enough.
    std::mutex mutex_;
    std::map<std::vector<uint32_t>, std::shared_ptr<const TileSetLayout>> set_layouts_;
    std::map<std::pair<VkPipelineLayout, VkDescriptorSetLayout>, std::weak_ptr<const LayerPipelineLayout>> pipeline_layouts_;
};

}  // namespace vkpolyfill
