// Swapchain images as attachments tile images read. The WSI makes them, not vkCreateImage, so
// vkCreateSwapchainKHR adds the usage the reads need where the surface supports it, as vkCreateImage
// does for the application's images (input attachment; storage for an interlock's reads:
// tile_image_interlock.h), and vkGetSwapchainImagesKHR records each image's usage for its views.
#include <optional>

#include <vulkan/utility/vk_safe_struct.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tile_image/tile_image_interlock.h"

namespace vkpolyfill::hooks {
namespace {

// The usage the swapchain's images get, and whether the layer added storage.
AttachmentViews::Image swapchain_usage(const DeviceData& data, const VkSwapchainCreateInfoKHR& info) {
    VkSurfaceCapabilitiesKHR capabilities{};
    const PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR query = data.instance->next.GetPhysicalDeviceSurfaceCapabilitiesKHR;
    if (query == nullptr || query(data.physical_device, info.surface, &capabilities) != VK_SUCCESS) return {info.imageUsage, false};
    const VkImageUsageFlags supported = capabilities.supportedUsageFlags;
    const VkImageUsageFlags usage = info.imageUsage | (with_input_attachment(info.imageUsage) & supported);
    const bool storage = data.tile_image->order.interlock && (usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) &&
                         !(usage & VK_IMAGE_USAGE_STORAGE_BIT) && (supported & VK_IMAGE_USAGE_STORAGE_BIT) &&
                         !(info.flags & VK_SWAPCHAIN_CREATE_PROTECTED_BIT_KHR) && storage_format(data, info.imageFormat);
    return {usage | (storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0), storage};
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator, VkSwapchainKHR* pSwapchain) {
    const DeviceData& data = device_data(device);
    try {
        const AttachmentViews::Image images = swapchain_usage(data, *pCreateInfo);
        std::optional<vku::safe_VkSwapchainCreateInfoKHR> copy;
        if (images.usage != pCreateInfo->imageUsage) {
            copy.emplace(pCreateInfo);
            copy->imageUsage = images.usage;
        }
        const VkResult result = data.next.CreateSwapchainKHR(device, copy ? copy->ptr() : pCreateInfo, pAllocator, pSwapchain);
        if (result == VK_SUCCESS) data.tile_image->views.add_swapchain(*pSwapchain, images);
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain, uint32_t* pSwapchainImageCount,
                                                     VkImage* pSwapchainImages) {
    const DeviceData& data = device_data(device);
    const VkResult result = data.next.GetSwapchainImagesKHR(device, swapchain, pSwapchainImageCount, pSwapchainImages);
    if (pSwapchainImages == nullptr || (result != VK_SUCCESS && result != VK_INCOMPLETE)) return result;
    const AttachmentViews::Image images = data.tile_image->views.swapchain(swapchain);
    for (uint32_t i = 0; i < *pSwapchainImageCount; ++i) data.tile_image->views.add_image(pSwapchainImages[i], images);
    return result;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain, const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    data.tile_image->views.remove_swapchain(swapchain);
    data.next.DestroySwapchainKHR(device, swapchain, pAllocator);
}

}  // namespace vkpolyfill::hooks
