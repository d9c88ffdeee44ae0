// The descriptor sets the lowered tile-image reads use: input attachments (or, for an interlock's
// reads, storage images) in their local-read layouts (ViewRecord::local_layout) pointing at a render
// pass instance's attachments. One set per set of views a shader reads, written once and kept until
// one of its views is destroyed (a handle may come back for another view), so a render pass instance
// costs a lookup, not an allocation and a write. Lookups share a lock; a new
// set or a destroyed view takes it alone.
#pragma once

#include <array>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include <vulkan/utility/vk_dispatch_table.h>

#include "tile_image/tile_image_layouts.h"

namespace vkpolyfill {

// Color locations the emulation reads: min(maxColorAttachments, this). Devices report 8 or fewer
// today; the arrays below are sized for twice that.
inline constexpr uint32_t kMaxTileImageColors = 16;

// What a render pass instance offers the reads: color views by location, single-aspect depth and
// stencil views.
struct RenderedViews {
    std::array<VkImageView, kMaxTileImageColors> colors{};
    uint32_t general_colors = 0;  // bit L: the color at location L is in GENERAL (ViewRecord::local_layout)
    VkImageView depth = VK_NULL_HANDLE;
    VkImageView stencil = VK_NULL_HANDLE;
};

class TileImageDescriptors {
  public:
    TileImageDescriptors(VkDevice device, const VkuDeviceDispatchTable& next, uint32_t depth_binding)
        : device_(device), next_(next), depth_binding_(depth_binding) {}
    ~TileImageDescriptors();
    TileImageDescriptors(const TileImageDescriptors&) = delete;
    TileImageDescriptors& operator=(const TileImageDescriptors&) = delete;

    // VK_NULL_HANDLE when the driver cannot allocate one.
    VkDescriptorSet set_for(const TileSetLayout& layout, const RenderedViews& views);
    void forget_view(VkImageView view);

  private:
    struct Key {
        VkDescriptorSetLayout layout;
        bool interlock;       // colors written as storage images
        RenderedViews views;  // only those the layout reads
        bool operator==(const Key& other) const {
            return layout == other.layout && interlock == other.interlock && views.colors == other.views.colors &&
                   views.general_colors == other.views.general_colors && views.depth == other.views.depth &&
                   views.stencil == other.views.stencil;
        }
    };
    struct KeyHash {
        size_t operator()(const Key& key) const;
    };
    struct Entry {
        VkDescriptorSet set;
        VkDescriptorPool pool;
    };
    VkDescriptorSet allocate(const TileSetLayout& layout, VkDescriptorPool& pool);
    void write(VkDescriptorSet set, const TileSetLayout& layout, const RenderedViews& views) const;

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    uint32_t depth_binding_;
    std::shared_mutex mutex_;
    std::unordered_map<Key, Entry, KeyHash> sets_;
    std::vector<VkDescriptorPool> pools_;  // the last one has room, until it has none
};

}  // namespace vkpolyfill
