// What a tensor copy's compute path disturbs and must put back: per command buffer, the compute
// pipeline bound, the compute descriptor-set binds, pushes and descriptor-buffer offsets, and the
// push constants, as the application recorded them. Binds and pushes are kept as calls, a later call with the same key (layout, sets or
// range) replacing the earlier one, so replaying them in order rebuilds the state and the lists stay
// as short as the distinct keys. A command buffer is recorded by one thread at a time (external
// synchronization), so its state needs no lock; only the map from handles to states is shared.
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>
#include <vulkan/utility/vk_safe_struct.hpp>

namespace vkpolyfill {

class ComputeState {
  public:
    void bind_pipeline(VkPipeline pipeline) { pipeline_ = pipeline; }
    void bind_sets(VkPipelineLayout layout, uint32_t first, std::span<const VkDescriptorSet> sets, std::span<const uint32_t> offsets);
    // Writes as the driver received them (tensor writes already translated).
    void push_set(VkPipelineLayout layout, uint32_t set, std::span<const VkWriteDescriptorSet> writes);
    // A push through a compute push-descriptor template, with the data the driver received.
    void push_template(VkDescriptorUpdateTemplate update_template, VkPipelineLayout layout, uint32_t set, std::span<const std::byte> data);
    // vkCmdSetDescriptorBufferOffsetsEXT: which sets read which bound descriptor buffer from where.
    void set_buffer_offsets(VkPipelineLayout layout, uint32_t first, std::span<const uint32_t> buffer_indices,
                            std::span<const VkDeviceSize> offsets);
    void push_constants(VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset, std::span<const std::byte> bytes);

    // Records the application's state back into `command_buffer` after the layer's own dispatches.
    void restore(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next) const;

  private:
    // One of the calls that give sets `first`.. their descriptors.
    struct SetBind {
        enum class Kind { Sets, Push, PushTemplate, BufferOffsets } kind = Kind::Sets;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        uint32_t first = 0;
        std::vector<VkDescriptorSet> sets{};                          // Sets
        std::vector<uint32_t> offsets{};                              // Sets: dynamic offsets; BufferOffsets: buffer indices
        std::vector<vku::safe_VkWriteDescriptorSet> pushed{};         // Push
        VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;  // PushTemplate, with its data
        std::vector<std::byte> template_data{};
        std::vector<VkDeviceSize> buffer_offsets{};                   // BufferOffsets
    };
    // A later push of a set replaces any earlier push of it, by writes or template.
    void forget_pushes(VkPipelineLayout layout, uint32_t set);
    void replay(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next, const SetBind& bind) const;
    struct Push {
        VkPipelineLayout layout;
        VkShaderStageFlags stages;
        uint32_t offset;
        std::vector<std::byte> bytes;
    };
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    std::vector<SetBind> binds_;
    std::vector<Push> pushes_;
};

class TensorCommandBuffers {
  public:
    // Made on first use.
    ComputeState& at(VkCommandBuffer command_buffer);
    // Null while nothing was recorded into it.
    ComputeState* find(VkCommandBuffer command_buffer) const { return states_.find(command_buffer)->second.get(); }
    void reset(VkCommandBuffer command_buffer) { states_.erase(command_buffer); }

  private:
    vku::concurrent::unordered_map<VkCommandBuffer, std::shared_ptr<ComputeState>, 4> states_;
};

}  // namespace vkpolyfill
