#include "tile_image/tile_image_views.h"

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {

VkImageUsageFlags with_input_attachment(VkImageUsageFlags usage) {
    constexpr VkImageUsageFlags attachment = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    return (usage & attachment) ? usage | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : usage;
}

AttachmentViews::~AttachmentViews() {
    for (const auto& [view, derived] : derived_.snapshot()) destroy(derived);
}

void AttachmentViews::add(VkImageView view, const VkImageViewCreateInfo& info, bool storage) {
    auto record = std::make_shared<ViewRecord>();
    record->image = info.image;
    record->info = info;
    record->info.pNext = nullptr;
    record->storage = storage;
    views_.insert_or_assign(view, std::move(record));
}

std::shared_ptr<const ViewRecord> AttachmentViews::find(VkImageView view) const {
    const auto found = views_.find(view);
    return found->first ? found->second : nullptr;
}

VkImageView AttachmentViews::aspect_view(VkImageView view, VkImageAspectFlagBits aspect) {
    const std::shared_ptr<const ViewRecord> record = find(view);
    if (!record || record->info.subresourceRange.aspectMask == static_cast<VkImageAspectFlags>(aspect)) return view;
    std::lock_guard lock(derived_mutex_);
    Derived derived = derived_.find(view)->second;
    VkImageView& slot = aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? derived.depth : derived.stencil;
    if (slot == VK_NULL_HANDLE) {
        VkImageViewCreateInfo info = record->info;
        info.subresourceRange.aspectMask = aspect;
        if (next_.CreateImageView(device_, &info, nullptr, &slot) != VK_SUCCESS) return VK_NULL_HANDLE;
        derived_.insert_or_assign(view, derived);
    }
    return slot;
}

void AttachmentViews::destroy(const Derived& derived) const {
    for (VkImageView view : {derived.depth, derived.stencil}) {
        if (view != VK_NULL_HANDLE) next_.DestroyImageView(device_, view, nullptr);
    }
}

std::vector<VkImageView> AttachmentViews::remove(VkImageView view) {
    std::vector<VkImageView> gone{view};
    views_.erase(view);
    std::lock_guard lock(derived_mutex_);
    if (const auto found = derived_.pop(view); found->first) {
        for (VkImageView derived : {found->second.depth, found->second.stencil}) {
            if (derived != VK_NULL_HANDLE) gone.push_back(derived);
        }
        destroy(found->second);
    }
    return gone;
}

}  // namespace vkpolyfill
