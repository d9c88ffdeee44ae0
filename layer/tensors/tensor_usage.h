// The VkBuffer behind an emulated tensor: what it is created for.
#pragma once

#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

// Storage for shaders and for the layer's compute copies, transfers for the plain-copy path; a
// tensor's own usage never narrows it, since the layer picks the copy path per region.
constexpr VkBufferUsageFlags tensor_buffer_usage(VkTensorUsageFlagsARM) {
    return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
}

}  // namespace vkpolyfill
