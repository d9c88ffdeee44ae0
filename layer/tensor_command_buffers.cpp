#include "tensor_command_buffers.h"

#include <algorithm>

namespace vkpolyfill {

void ComputeState::bind_sets(VkPipelineLayout layout, uint32_t first, std::span<const VkDescriptorSet> sets,
                             std::span<const uint32_t> offsets) {
    std::erase_if(binds_, [&](const SetBind& b) { return b.layout == layout && b.first == first && b.sets.size() == sets.size(); });
    binds_.push_back({layout, first, {sets.begin(), sets.end()}, {offsets.begin(), offsets.end()}});
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
        next.CmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, b.first, static_cast<uint32_t>(b.sets.size()),
                                   b.sets.data(), static_cast<uint32_t>(b.offsets.size()), b.offsets.data());
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
