// Pipeline layouts for lowered tile-image shaders: the application's set layouts and push constants,
// empty set layouts up to the layer's set (the last one the device has, which the layer reports as
// taken), and there the layer's one set layout: every color location as an element of one input
// attachment array at binding 0, depth and stencil after (lower.h's TileImageTarget), and on a device
// that may order reads by an interlock every color location again as a storage image array after them
// (tile_image_interlock.h), partially bound.
// One set layout for every shader lets shader objects drawn together list identical set layouts, as
// Vulkan asks (VUID-vkCmdDraw-None-08879), whatever each reads. Layouts that agree for the
// application's sets stay compatible with its own layout, so its descriptor binds and push constants
// keep working; one layer layout serves every pipeline with the same application layout.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <vkpolyfill/lowering/tile_image.h>
#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

// The layer's set layout, and the input attachments (or, through an interlock, the storage images) of
// it one shader reads.
struct TileSetLayout {
    VkDescriptorSetLayout handle = VK_NULL_HANDLE;
    std::vector<lowering::TileImageColors> colors;
    bool depth = false;
    bool stencil = false;
    bool interlock = false;  // colors read as storage images
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
    TileImageLayouts(VkDevice device, const VkuDeviceDispatchTable& next, uint32_t layer_set, uint32_t depth_binding,
                     bool storage_colors);
    ~TileImageLayouts();
    TileImageLayouts(const TileImageLayouts&) = delete;
    TileImageLayouts& operator=(const TileImageLayouts&) = delete;

    uint32_t layer_set() const { return layer_set_; }
    // Why a pipeline layout or shader object listing `sets` set layouts cannot read tile images (it
    // reaches the layer's set), or "".
    std::string too_many_sets(size_t sets) const;

    void record(VkPipelineLayout layout, const VkPipelineLayoutCreateInfo& info);
    void forget(VkPipelineLayout layout);
    // Null for a layout the layer never saw.
    std::shared_ptr<const ApplicationLayout> application_layout(VkPipelineLayout layout) const;

    // What a shader reads, with the layer's set layout (one for every shader); null if the driver
    // refused that layout.
    std::shared_ptr<const TileSetLayout> set_layout(const lowering::TileImageUsage& usage, bool interlock);
    // The application's sets, then the layer's; null if the driver refused it or the application
    // uses the layer's set itself (the error says so).
    std::shared_ptr<const LayerPipelineLayout> pipeline_layout(VkPipelineLayout application, std::string& error);
    // The set layouts a shader object lists: the application's, the empty ones, the layer's (empty if
    // the driver refused the layer's).
    std::vector<VkDescriptorSetLayout> set_layouts(std::span<const VkDescriptorSetLayout> application) const;
    std::shared_ptr<const LayerPipelineLayout> create(const ApplicationLayout& application);

  private:
    void create_shared();

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    uint32_t layer_set_;
    uint32_t depth_binding_;
    bool storage_colors_;
    VkDescriptorSetLayout empty_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout shared_ = VK_NULL_HANDLE;  // the layer's set: every color, depth and stencil
    vku::concurrent::unordered_map<VkPipelineLayout, std::shared_ptr<const ApplicationLayout>, 2> application_;
    // Pipeline creation only: a plain lock is enough.
    std::mutex mutex_;
    std::map<std::vector<uint32_t>, std::shared_ptr<const TileSetLayout>> set_layouts_;
    std::map<VkPipelineLayout, std::weak_ptr<const LayerPipelineLayout>> pipeline_layouts_;
};

}  // namespace vkpolyfill
