#include "tensors/tensor_shape_store.h"

#include <cstring>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

// Slots per chunk: 256 views share one buffer and one allocation.
constexpr VkDeviceSize kSlotsPerChunk = 256;

// Host-visible and coherent, device-local too where the device has such memory (resizable BAR).
uint32_t pick_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed) {
    constexpr VkMemoryPropertyFlags kNeeded = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if (!(allowed & (1u << i)) || (flags & kNeeded) != kNeeded) continue;
        if (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) return i;
        if (fallback == UINT32_MAX) fallback = i;
    }
    return fallback;
}

}  // namespace

TensorShapeStore::TensorShapeStore(VkDevice device, const VkuDeviceDispatchTable& next, const VkPhysicalDeviceMemoryProperties& memory,
                                   VkDeviceSize alignment, bool device_addresses)
    : device_(device), next_(next), memory_(memory), device_addresses_(device_addresses) {
    const VkDeviceSize a = alignment ? alignment : 1;
    slot_size_ = (sizeof(lowering::TensorShapeRecord) + a - 1) / a * a;
}

TensorShapeStore::~TensorShapeStore() {
    for (const Chunk& chunk : chunks_) {
        next_.DestroyBuffer(device_, chunk.buffer, nullptr);
        next_.FreeMemory(device_, chunk.memory, nullptr);
    }
}

VkResult TensorShapeStore::add_chunk() {
    VkBufferCreateInfo info = vku::InitStructHelper();
    info.size = slot_size_ * kSlotsPerChunk;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | (device_addresses_ ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
    Chunk chunk{};
    VkResult result = next_.CreateBuffer(device_, &info, nullptr, &chunk.buffer);
    if (result != VK_SUCCESS) return result;
    VkMemoryRequirements requirements;
    next_.GetBufferMemoryRequirements(device_, chunk.buffer, &requirements);
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = pick_memory_type(memory_, requirements.memoryTypeBits);
    VkMemoryAllocateFlagsInfo flags = vku::InitStructHelper();
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (device_addresses_) allocate.pNext = &flags;
    result = allocate.memoryTypeIndex == UINT32_MAX ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                                                    : next_.AllocateMemory(device_, &allocate, nullptr, &chunk.memory);
    void* mapped = nullptr;
    if (result == VK_SUCCESS) result = next_.BindBufferMemory(device_, chunk.buffer, chunk.memory, 0);
    if (result == VK_SUCCESS) result = next_.MapMemory(device_, chunk.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
    if (result != VK_SUCCESS) {
        next_.DestroyBuffer(device_, chunk.buffer, nullptr);
        if (chunk.memory != VK_NULL_HANDLE) next_.FreeMemory(device_, chunk.memory, nullptr);
        return result;
    }
    chunk.mapped = static_cast<std::byte*>(mapped);
    chunks_.push_back(chunk);
    VkDeviceAddress address = 0;
    if (device_addresses_) {
        VkBufferDeviceAddressInfo address_info = vku::InitStructHelper();
        address_info.buffer = chunk.buffer;
        address = next_.GetBufferDeviceAddress(device_, &address_info);
    }
    // Handed out from the front of the chunk first.
    for (VkDeviceSize i = kSlotsPerChunk; i-- > 0;) {
        free_.push_back({chunk.buffer, i * slot_size_, chunk.mapped + i * slot_size_, address ? address + i * slot_size_ : 0});
    }
    return VK_SUCCESS;
}

VkResult TensorShapeStore::allocate(const lowering::TensorShapeRecord& record, ShapeSlot& slot) {
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
        if (VkResult result = add_chunk(); result != VK_SUCCESS) return result;
    }
    slot = free_.back();
    free_.pop_back();
    std::memcpy(slot.host, &record, sizeof(record));
    return VK_SUCCESS;
}

void TensorShapeStore::release(const ShapeSlot& slot) {
    std::lock_guard lock(mutex_);
    free_.push_back(slot);
}

size_t TensorShapeStore::chunk_count() {
    std::lock_guard lock(mutex_);
    return chunks_.size();
}

}  // namespace vkpolyfill
