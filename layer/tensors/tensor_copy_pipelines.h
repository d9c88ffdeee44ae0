// What vkCmdCopyTensorARM's compute path runs: one pipeline per element size, made on first use and
// kept for the device's life, and one descriptor set per tensor buffer (written when the tensor is
// bound) so a copy binds two sets and never allocates or writes descriptors while recording.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include <vulkan/utility/vk_dispatch_table.h>

namespace vkpolyfill {

// The push constants of shaders/layer/tensor_copy.glsl.
struct TensorCopyRegion {
    uint32_t rank;
    uint32_t count;
    uint32_t source_base;
    uint32_t destination_base;
    uint32_t chunk;
    uint32_t chunks_per_row;
    std::array<uint32_t, 8> extent;
    std::array<uint32_t, 8> source_stride;
    std::array<uint32_t, 8> destination_stride;
};
static_assert(sizeof(TensorCopyRegion) == 120);  // within the 128 bytes every device has

class TensorCopyPipelines {
  public:
    TensorCopyPipelines(VkDevice device, const VkuDeviceDispatchTable& next) : device_(device), next_(next) {}
    ~TensorCopyPipelines();
    TensorCopyPipelines(const TensorCopyPipelines&) = delete;
    TensorCopyPipelines& operator=(const TensorCopyPipelines&) = delete;

    // A set with the whole buffer at binding 0; VK_NULL_HANDLE when the driver cannot allocate one
    // (the compute path then reports the copy it cannot make).
    VkDescriptorSet buffer_set(VkBuffer buffer, VkDeviceSize size);
    void release_set(VkDescriptorSet set);

    // The pipeline for elements of `element_size` bytes; VK_NULL_HANDLE if the driver refused it.
    VkPipeline pipeline(uint32_t element_size);
    VkPipelineLayout layout() const { return layout_; }

  private:
    bool make_layouts();  // under mutex_

    VkDevice device_;
    const VkuDeviceDispatchTable& next_;
    std::mutex mutex_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    std::array<VkPipeline, 4> pipelines_{};  // by log2 of the element size
    std::vector<VkDescriptorPool> pools_;      // the last one has room, until it has none
    std::vector<std::pair<VkDescriptorSet, VkDescriptorPool>> sets_;
};

}  // namespace vkpolyfill
