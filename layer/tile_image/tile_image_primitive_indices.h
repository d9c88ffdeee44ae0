// Index buffers the layer draws single primitives of non-indexed strips and fans with, when it splits
// draws (tile_image_draw_splitting.h): drawn as a 3-index draw of the pipeline's own topology,
// indices 3i..3i+2 give exactly triangle i of the original draw, its vertices in the original order
// (the vertex offset adds the draw's first vertex):
// - triangle strips: i, i + 1 + i % 2, i + 2 - i % 2 (odd triangles keep their reversed winding);
// - triangle fans: 0, i + 1, i + 2 (a fan's first triangle is (v1, v2, v0): (i + 1, i + 2, 0)).
// Host-visible buffers, grown (never shrunk) to the largest draw met; the ones outgrown live on until
// the device goes, as recorded command buffers may use them.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

class PrimitiveIndices {
  public:
    PrimitiveIndices(VkDevice device, const VkuDeviceDispatchTable& next, const VkPhysicalDeviceMemoryProperties& memory)
        : device_(device), next_(next), memory_(memory) {}
    ~PrimitiveIndices();
    PrimitiveIndices(const PrimitiveIndices&) = delete;
    PrimitiveIndices& operator=(const PrimitiveIndices&) = delete;

    // A buffer of 32-bit indices for at least `triangles` triangles of a strip or a fan, or
    // VK_NULL_HANDLE when the device could not make one.
    VkBuffer strip(uint32_t triangles) { return get(strip_, triangles, false); }
    VkBuffer fan(uint32_t triangles) { return get(fan_, triangles, true); }

  private:
    struct Indices {
        VkBuffer buffer = VK_NULL_HANDLE;
        uint32_t triangles = 0;
    };
    VkBuffer get(Indices& indices, uint32_t triangles, bool fan);
    VkBuffer create(uint32_t triangles, bool fan);

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    VkPhysicalDeviceMemoryProperties memory_;
    std::mutex mutex_;  // command buffers are recorded on several threads
    Indices strip_, fan_;
    std::vector<VkBuffer> buffers_;
    std::vector<VkDeviceMemory> memories_;
};

}  // namespace vkpolyfill
