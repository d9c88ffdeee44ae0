#include "tensor_command_buffers.h"

#include <algorithm>

namespace vkpolyfill {

void ComputeState::bind_sets(VkPipelineLayout layout, uint32_t first, std::span<const VkDescriptorSet> sets,
                             std::span<const uint32_t> offsets) {
    std::erase_if(binds_, [&](const SetBind& b) {
        return b.pushed.empty() && b.layout == layout && b.first == first && b.sets.size() == sets.size();
    });
    binds_.push_back({layout, first, {sets.begin(), sets.end()}, {offsets.begin(), offsets.end()}, {}});
}

void ComputeState::push_set(VkPipelineLayout layout, uint32_t set, std::span<const VkWriteDescriptorSet> writes) {
    std::erase_if(binds_, [&](const SetBind& b) { return !b.pushed.empty() && b.layout == layout && b.first == set; });
    SetBind pushed{layout, set, {}, {}, {}};
    for (const VkWriteDescriptorSet& write : writes) pushed.pushed.emplace_back(&write);
    binds_.push_back(std::move(pushed));
}

void ComputeState::push_constants(VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset, std::span<const std::byte> bytes) {
    std::erase_if(pushes_, [&](const Push& p) {
        return p.layout == layout && p.stages == stages && p.offset == offset && p.bytes.size() == bytes.size();
    });
    pushes_.push_back({layout, stages, offset, {bytes.begin(), bytes.end()}});
}

void ComputeState::restore(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next) const {
    if (pipeline_ != VK_NULL_HANDLE) next.CmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    for (const SetBind& b : binds_) {
        if (b.pushed.empty()) {
            next.CmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, b.first,
                                       static_cast<uint32_t>(b.sets.size()), b.sets.data(), static_cast<uint32_t>(b.offsets.size()),
                                       b.offsets.data());
            continue;
        }
        std::vector<VkWriteDescriptorSet> writes;
        for (const vku::safe_VkWriteDescriptorSet& write : b.pushed) writes.push_back(*write.ptr());
        // Whichever the device has; a push was recorded through one of them.
        PFN_vkCmdPushDescriptorSet push = next.CmdPushDescriptorSetKHR ? next.CmdPushDescriptorSetKHR : next.CmdPushDescriptorSet;
        push(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, b.first, static_cast<uint32_t>(writes.size()), writes.data());
    }
    for (const Push& p : pushes_) {
        next.CmdPushConstants(command_buffer, p.layout, p.stages, p.offset, static_cast<uint32_t>(p.bytes.size()), p.bytes.data());
    }
}

ComputeState& TensorCommandBuffers::at(VkCommandBuffer command_buffer) {
    if (ComputeState* state = find(command_buffer)) return *state;
    auto state = std::make_shared<ComputeState>();
    ComputeState& reference = *state;
    states_.insert_or_assign(command_buffer, std::move(state));
    return reference;
}

}  // namespace vkpolyfill
