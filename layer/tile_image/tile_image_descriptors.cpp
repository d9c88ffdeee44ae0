#include "tile_image/tile_image_descriptors.h"

#include <algorithm>
#include <functional>
#include <mutex>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

constexpr uint32_t kSetsPerPool = 64;

// The views a layout reads, the others cleared, so pipelines reading less share sets.
RenderedViews read_views(const TileSetLayout& layout, const RenderedViews& views) {
    RenderedViews read;
    for (const lowering::TileImageColors& c : layout.colors) {
        for (uint32_t l = c.location; l < c.location + c.count && l < kMaxTileImageColors; ++l) {
            read.colors[l] = views.colors[l];
            read.general_colors |= views.general_colors & (1u << l);
        }
    }
    if (layout.depth) read.depth = views.depth;
    if (layout.stencil) read.stencil = views.stencil;
    return read;
}

}  // namespace

size_t TileImageDescriptors::KeyHash::operator()(const Key& key) const {
    size_t hash = std::hash<const void*>()(key.layout) * 2 + (key.interlock ? 1 : 0);
    auto mix = [&hash](VkImageView view) { hash = hash * 31 + std::hash<const void*>()(view); };
    for (VkImageView view : key.views.colors) mix(view);
    hash = hash * 31 + key.views.general_colors;
    mix(key.views.depth);
    mix(key.views.stencil);
    return hash;
}

TileImageDescriptors::~TileImageDescriptors() {
    for (VkDescriptorPool pool : pools_) next_.DestroyDescriptorPool(device_, pool, nullptr);
}

VkDescriptorSet TileImageDescriptors::allocate(const TileSetLayout& layout, VkDescriptorPool& pool) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!pools_.empty()) {
            VkDescriptorSetAllocateInfo info = vku::InitStructHelper();
            info.descriptorPool = pools_.back();
            info.descriptorSetCount = 1;
            info.pSetLayouts = &layout.handle;
            VkDescriptorSet set = VK_NULL_HANDLE;
            if (next_.AllocateDescriptorSets(device_, &info, &set) == VK_SUCCESS) {
                pool = pools_.back();
                return set;
            }
        }
        const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, kSetsPerPool * (kMaxTileImageColors + 2)},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSetsPerPool * kMaxTileImageColors}};
        VkDescriptorPoolCreateInfo info = vku::InitStructHelper();
        info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        info.maxSets = kSetsPerPool;
        info.poolSizeCount = 2;
        info.pPoolSizes = sizes;
        VkDescriptorPool created = VK_NULL_HANDLE;
        if (next_.CreateDescriptorPool(device_, &info, nullptr, &created) != VK_SUCCESS) return VK_NULL_HANDLE;
        pools_.push_back(created);
    }
    return VK_NULL_HANDLE;
}

void TileImageDescriptors::write(VkDescriptorSet set, const TileSetLayout& layout, const RenderedViews& views) const {
    std::vector<VkDescriptorImageInfo> images;
    images.reserve(kMaxTileImageColors + 2);  // the writes point into it
    std::vector<VkWriteDescriptorSet> writes;
    auto add = [&](uint32_t binding, uint32_t element, VkImageView view, VkDescriptorType type, VkImageLayout image_layout) {
        if (view == VK_NULL_HANDLE) return;  // no attachment there: partially bound
        images.push_back({VK_NULL_HANDLE, view, image_layout});
        VkWriteDescriptorSet write = vku::InitStructHelper();
        write.dstSet = set;
        write.dstBinding = binding;
        write.dstArrayElement = element;
        write.descriptorCount = 1;
        write.descriptorType = type;
        write.pImageInfo = &images.back();
        writes.push_back(write);
    };
    constexpr VkImageLayout kLocal = VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ;
    // Element L of binding 0 (of the storage binding after depth and stencil, for an interlock): location L.
    const uint32_t colors = layout.interlock ? depth_binding_ + 2 : 0;
    const VkDescriptorType color_type = layout.interlock ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    for (const lowering::TileImageColors& c : layout.colors) {
        for (uint32_t l = c.location; l < c.location + c.count && l < depth_binding_; ++l) {
            const bool general = (views.general_colors >> l) & 1;
            add(colors, l, views.colors[l], color_type, general ? VK_IMAGE_LAYOUT_GENERAL : kLocal);
        }
    }
    if (layout.depth) add(depth_binding_, 0, views.depth, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, kLocal);
    if (layout.stencil) add(depth_binding_ + 1, 0, views.stencil, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, kLocal);
    next_.UpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
}

VkDescriptorSet TileImageDescriptors::set_for(const TileSetLayout& layout, const RenderedViews& views) {
    const Key key{layout.handle, layout.interlock, read_views(layout, views)};
    {
        std::shared_lock lock(mutex_);
        if (const auto found = sets_.find(key); found != sets_.end()) return found->second.set;
    }
    std::unique_lock lock(mutex_);
    if (const auto found = sets_.find(key); found != sets_.end()) return found->second.set;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    const VkDescriptorSet set = allocate(layout, pool);
    if (set == VK_NULL_HANDLE) return set;
    write(set, layout, key.views);
    sets_.emplace(key, Entry{set, pool});
    return set;
}

void TileImageDescriptors::forget_view(VkImageView view) {
    std::unique_lock lock(mutex_);
    std::erase_if(sets_, [&](const auto& entry) {
        const RenderedViews& views = entry.first.views;
        const bool uses = views.depth == view || views.stencil == view ||
                          std::ranges::find(views.colors, view) != views.colors.end();
        if (uses) next_.FreeDescriptorSets(device_, entry.second.pool, 1, &entry.second.set);
        return uses;
    });
}

}  // namespace vkpolyfill
