// Where tensor views' shape records (lowering/arm_tensors.h) live: slots sub-allocated from a few
// large host-visible buffers, written on the host when a view is created, so a descriptor write
// only points at its slot and nothing is ever uploaded by a command. Creating and destroying views
// take the store's lock; descriptor writes read a view's slot without it.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include <vkpolyfill/lowering/arm_tensors.h>
#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

struct ShapeSlot {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    std::byte* host = nullptr;
    VkDeviceAddress address = 0;  // with device addresses only
};

class TensorShapeStore {
  public:
    // `alignment`: minStorageBufferOffsetAlignment; `memory`: the device's memory types;
    // `device_addresses`: slots have device addresses (for tensor descriptors in descriptor buffers).
    TensorShapeStore(VkDevice device, const VkuDeviceDispatchTable& next, const VkPhysicalDeviceMemoryProperties& memory,
                     VkDeviceSize alignment, bool device_addresses);
    ~TensorShapeStore();
    TensorShapeStore(const TensorShapeStore&) = delete;
    TensorShapeStore& operator=(const TensorShapeStore&) = delete;

    // A slot holding `record`; VK_ERROR_OUT_OF_DEVICE_MEMORY (or the driver's error) when a new chunk
    // cannot be made.
    VkResult allocate(const lowering::TensorShapeRecord& record, ShapeSlot& slot);
    void release(const ShapeSlot& slot);

    VkDeviceSize slot_size() const { return slot_size_; }
    size_t chunk_count();

  private:
    struct Chunk {
        VkBuffer buffer;
        VkDeviceMemory memory;
        std::byte* mapped;
    };
    VkResult add_chunk();

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    VkPhysicalDeviceMemoryProperties memory_;
    VkDeviceSize slot_size_;
    bool device_addresses_;
    std::mutex mutex_;
    std::vector<Chunk> chunks_;
    std::vector<ShapeSlot> free_;
};

}  // namespace vkpolyfill
