// Attachments as the tile-image emulation sees them. Local reads need input-attachment usage, which
// the application never asked for, so every image that can be a color or depth/stencil attachment
// gets it (swapchain images too, where the surface supports it); every view's image and subresources are kept, so vkCmdBeginRendering can move an
// attachment into the local-read layout and back, and depth and stencil get the single-aspect views
// an input attachment must have.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

struct ViewRecord {
    VkImage image = VK_NULL_HANDLE;
    VkImageViewCreateInfo info{};  // pNext cleared
    bool storage = false;  // usable as a storage image (by an interlock's reads: tile_image_interlock.h)

    // The layout of the attachment during a render pass instance: a storage image must be in GENERAL
    // (VUID-VkWriteDescriptorSet-descriptorType-04152), which serves local reads too.
    VkImageLayout local_layout() const { return storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ; }

    VkImageSubresourceRange range(VkImageAspectFlags aspect) const {
        VkImageSubresourceRange r = info.subresourceRange;
        r.aspectMask &= aspect;
        return r;
    }
};

class AttachmentViews {
  public:
    AttachmentViews(VkDevice device, const VkuDeviceDispatchTable& next) : device_(device), next_(next) {}
    ~AttachmentViews();
    AttachmentViews(const AttachmentViews&) = delete;
    AttachmentViews& operator=(const AttachmentViews&) = delete;

    void add(VkImageView view, const VkImageViewCreateInfo& info, bool storage);
    // The usage an image was created with, and whether the layer added its storage usage (for an
    // interlock's reads); a handle the layer never saw has none.
    struct Image {
        VkImageUsageFlags usage = 0;
        bool storage_added = false;
    };
    void add_image(VkImage image, Image record) { images_.insert_or_assign(image, record); }
    Image image(VkImage image) const { return images_.find(image)->second; }
    // The same for a swapchain's images, which the WSI makes.
    void add_swapchain(VkSwapchainKHR swapchain, Image images) { swapchains_.insert_or_assign(swapchain, images); }
    Image swapchain(VkSwapchainKHR swapchain) const { return swapchains_.find(swapchain)->second; }
    void remove_swapchain(VkSwapchainKHR swapchain) { swapchains_.erase(swapchain); }
    // Null for a view the layer never saw (created before the device had the emulation).
    std::shared_ptr<const ViewRecord> find(VkImageView view) const;
    // The view's depth or stencil aspect alone (the view itself when that is all it has), made on first use.
    VkImageView aspect_view(VkImageView view, VkImageAspectFlagBits aspect);
    // Forgets the view and destroys its single-aspect views; returns every handle that ceased to be.
    std::vector<VkImageView> remove(VkImageView view);

  private:
    struct Derived {
        VkImageView depth = VK_NULL_HANDLE;
        VkImageView stencil = VK_NULL_HANDLE;
    };
    void destroy(const Derived& derived) const;

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    vku::concurrent::unordered_map<VkImageView, std::shared_ptr<const ViewRecord>, 4> views_;
    vku::concurrent::unordered_map<VkImage, Image, 4> images_;  // a handle reused by a new image is recorded again
    vku::concurrent::unordered_map<VkSwapchainKHR, Image, 2> swapchains_;
    std::mutex derived_mutex_;  // only when a depth/stencil attachment first meets a tile-image pipeline
    vku::concurrent::unordered_map<VkImageView, Derived, 2> derived_;
};

// `usage` with input-attachment usage added where it can be an attachment.
VkImageUsageFlags with_input_attachment(VkImageUsageFlags usage);

}  // namespace vkpolyfill
