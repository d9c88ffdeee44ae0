// The objects the tile-image emulation must know about on devices that emulate it: images (given
// input-attachment usage), image views (their images, for layouts and descriptors), pipeline layouts
// (their sets, to build the layer's), pipelines, fragment shader objects and command buffers
// (forgotten with them; secondaries told from primaries).
#include <format>
#include <optional>

#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tile_image/tile_image_interlock.h"

namespace vkpolyfill::hooks {

// Attachments get input-attachment usage, and color attachments storage usage where an interlock may
// read them (tile_image_interlock.h).
VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
    const DeviceData& data = device_data(device);
    if (!data.tile_image) return data.next.CreateImage(device, pCreateInfo, pAllocator, pImage);
    try {
        const bool storage = adds_storage_usage(data, *pCreateInfo);
        const VkImageUsageFlags usage = with_input_attachment(pCreateInfo->usage) | (storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
        std::optional<vku::safe_VkImageCreateInfo> copy;
        if (usage != pCreateInfo->usage) {
            copy.emplace(pCreateInfo);
            copy->usage = usage;
            if (auto* stencil = vku::FindStructInPNextChain<VkImageStencilUsageCreateInfo>(const_cast<void*>(copy->pNext))) {
                stencil->stencilUsage = with_input_attachment(stencil->stencilUsage);
            }
        }
        const VkResult result = data.next.CreateImage(device, copy ? copy->ptr() : pCreateInfo, pAllocator, pImage);
        if (result == VK_SUCCESS) data.tile_image->views.add_image(*pImage, {usage, storage});
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice device, const VkImageViewCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
    const DeviceData& data = device_data(device);
    if (!data.tile_image) return data.next.CreateImageView(device, pCreateInfo, pAllocator, pView);
    try {
        // A view that narrows its image's usage must keep the input-attachment usage the layer added,
        // and one whose format cannot be a storage image must drop the storage usage it added.
        const AttachmentViews::Image image = data.tile_image->views.image(pCreateInfo->image);
        const auto* usage = vku::FindStructInPNextChain<VkImageViewUsageCreateInfo>(pCreateInfo->pNext);
        const bool storage = data.tile_image->order.interlock && ((usage ? usage->usage : image.usage) & VK_IMAGE_USAGE_STORAGE_BIT) &&
                             storage_format(data, pCreateInfo->format);
        std::optional<vku::safe_VkImageViewCreateInfo> copy;
        if (usage && with_input_attachment(usage->usage) != usage->usage) {
            copy.emplace(pCreateInfo);
            auto* copied = vku::FindStructInPNextChain<VkImageViewUsageCreateInfo>(const_cast<void*>(copy->pNext));
            copied->usage = with_input_attachment(copied->usage);
        } else if (!usage && image.storage_added && !storage) {
            copy.emplace(pCreateInfo);
            VkImageViewUsageCreateInfo narrowed = vku::InitStructHelper();
            narrowed.usage = image.usage & ~VK_IMAGE_USAGE_STORAGE_BIT;
            vku::AddToPnext(*copy, narrowed);
        }
        const VkResult result = data.next.CreateImageView(device, copy ? copy->ptr() : pCreateInfo, pAllocator, pView);
        if (result == VK_SUCCESS) data.tile_image->views.add(*pView, *pCreateInfo, storage);
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView imageView, const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (data.tile_image && imageView != VK_NULL_HANDLE) {
        for (VkImageView gone : data.tile_image->views.remove(imageView)) data.tile_image->descriptors.forget_view(gone);
    }
    data.next.DestroyImageView(device, imageView, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkPipelineLayout* pPipelineLayout) {
    const DeviceData& data = device_data(device);
    const VkResult result = data.next.CreatePipelineLayout(device, pCreateInfo, pAllocator, pPipelineLayout);
    if (result != VK_SUCCESS || !data.tile_image) return result;
    try {
        data.tile_image->layouts.record(*pPipelineLayout, *pCreateInfo);
    } catch (...) {
        data.next.DestroyPipelineLayout(device, *pPipelineLayout, pAllocator);
        *pPipelineLayout = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (data.tile_image && pipelineLayout != VK_NULL_HANDLE) data.tile_image->layouts.forget(pipelineLayout);
    data.next.DestroyPipelineLayout(device, pipelineLayout, pAllocator);
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline, const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (data.tile_image && pipeline != VK_NULL_HANDLE) data.tile_image->pipelines.remove(pipeline);
    data.next.DestroyPipeline(device, pipeline, pAllocator);
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderEXT(VkDevice device, VkShaderEXT shader, const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (data.tile_image && shader != VK_NULL_HANDLE) data.tile_image->shaders.remove(shader);  // and its twin, when unused
    data.next.DestroyShaderEXT(device, shader, pAllocator);
}

// A tile-image fragment shader object is two driver shaders (its twin) and lists the layer's set
// layout; a binary of one of them, re-created with the application's set layouts, would read a set
// that is not there. Refused, as the layer cannot re-create such shaders from binaries.
VKAPI_ATTR VkResult VKAPI_CALL GetShaderBinaryDataEXT(VkDevice device, VkShaderEXT shader, size_t* pDataSize, void* pData) {
    const DeviceData& data = device_data(device);
    if (!data.tile_image || !data.tile_image->shaders.find(shader)) return data.next.GetShaderBinaryDataEXT(device, shader, pDataSize, pData);
    const LoggedObject objects[] = {{VK_OBJECT_TYPE_SHADER_EXT, reinterpret_cast<uint64_t>(shader), {}}};
    data.instance->logger.log(LogLevel::Error, "vkpolyfill-tile-image",
                              std::format("VkShaderEXT {}: error: a fragment shader object reading emulated tile images has no "
                                          "binary the layer could re-create it from: create it from SPIR-V",
                                          static_cast<const void*>(shader)),
                              objects);
    *pDataSize = 0;
    return VK_ERROR_UNKNOWN;
}

// Secondaries are told apart from primaries (whose inheritance info is ignored, and may be anything).
VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
    const DeviceData& data = device_data(device);
    const VkResult result = data.next.AllocateCommandBuffers(device, pAllocateInfo, pCommandBuffers);
    if (result != VK_SUCCESS || !data.tile_image) return result;
    CommandBufferStates& states = data.tile_image->command_buffers;
    for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
        if (pAllocateInfo->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY) {
            states.at(pCommandBuffers[i]).secondary = true;
        } else if (CommandBufferState* state = states.find(pCommandBuffers[i])) {
            state->secondary = false;  // a handle reused after its pool was destroyed
        }
    }
    return result;
}

// Recording starts from nothing bound and no render pass instance.
VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo* pBeginInfo) {
    const DeviceData& data = device_data(commandBuffer);
    const VkResult result = data.next.BeginCommandBuffer(commandBuffer, pBeginInfo);
    if (TileImageDevice* tile = data.tile_image.get(); tile && result == VK_SUCCESS) {
        if (CommandBufferState* state = tile->command_buffers.find(commandBuffer)) {
            state->reset();
            state->continues_rendering = state->secondary && (pBeginInfo->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT) &&
                                         pBeginInfo->pInheritanceInfo &&
                                         pBeginInfo->pInheritanceInfo->renderPass == VK_NULL_HANDLE;  // dynamic rendering
        }
    }
    return result;
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
    const DeviceData& data = device_data(commandBuffer);
    const VkResult result = data.next.EndCommandBuffer(commandBuffer);
    if (!data.tile_image || result != VK_SUCCESS) return result;
    const CommandBufferState* state = data.tile_image->command_buffers.find(commandBuffer);
    return state && state->refused ? VK_ERROR_UNKNOWN : result;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
    const DeviceData& data = device_data(device);
    if (data.tile_image) {
        for (uint32_t i = 0; i < commandBufferCount; ++i) data.tile_image->command_buffers.remove(pCommandBuffers[i]);
    }
    data.next.FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

}  // namespace vkpolyfill::hooks
