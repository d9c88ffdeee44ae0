#include "tile_image/tile_image_primitive_indices.h"

#include <algorithm>
#include <bit>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {

PrimitiveIndices::~PrimitiveIndices() {
    for (VkBuffer buffer : buffers_) next_.DestroyBuffer(device_, buffer, nullptr);
    for (VkDeviceMemory memory : memories_) next_.FreeMemory(device_, memory, nullptr);
}

VkBuffer PrimitiveIndices::get(Indices& indices, uint32_t triangles, bool fan) {
    std::lock_guard lock(mutex_);
    if (indices.triangles < triangles) {
        // Powers of two from 1024 triangles (12 KiB), so that growing draws reallocate rarely.
        const uint32_t size = std::max(1024u, std::bit_ceil(triangles));
        const VkBuffer buffer = create(size, fan);
        if (buffer == VK_NULL_HANDLE) return VK_NULL_HANDLE;
        indices = {buffer, size};
    }
    return indices.buffer;
}

VkBuffer PrimitiveIndices::create(uint32_t triangles, bool fan) {
    VkBufferCreateInfo info = vku::InitStructHelper();
    info.size = VkDeviceSize{triangles} * 3 * sizeof(uint32_t);
    info.usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (next_.CreateBuffer(device_, &info, nullptr, &buffer) != VK_SUCCESS) return VK_NULL_HANDLE;
    buffers_.push_back(buffer);
    VkMemoryRequirements requirements;
    next_.GetBufferMemoryRequirements(device_, buffer, &requirements);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < memory_.memoryTypeCount &&
           !((requirements.memoryTypeBits >> type & 1) && (memory_.memoryTypes[type].propertyFlags & wanted) == wanted)) {
        ++type;
    }
    if (type == memory_.memoryTypeCount) return VK_NULL_HANDLE;
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (next_.AllocateMemory(device_, &allocate, nullptr, &memory) != VK_SUCCESS) return VK_NULL_HANDLE;
    memories_.push_back(memory);
    void* mapped = nullptr;
    if (next_.BindBufferMemory(device_, buffer, memory, 0) != VK_SUCCESS ||
        next_.MapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) {
        return VK_NULL_HANDLE;
    }
    auto* indices = static_cast<uint32_t*>(mapped);
    for (uint32_t i = 0; i < triangles; ++i) {
        const uint32_t odd = i % 2;
        const uint32_t triangle[3] = {fan ? 0 : i, fan ? i + 1 : i + 1 + odd, fan ? i + 2 : i + 2 - odd};
        std::copy(triangle, triangle + 3, indices + 3 * i);
    }
    next_.UnmapMemory(device_, memory);
    return buffer;
}

}  // namespace vkpolyfill
