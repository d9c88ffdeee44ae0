#include "tensors/tensor_command_buffers.h"

#include <algorithm>

namespace vkpolyfill {

void ComputeState::bind_sets(VkPipelineLayout layout, uint32_t first, std::span<const VkDescriptorSet> sets,
                             std::span<const uint32_t> offsets) {
    std::erase_if(binds_, [&](const SetBind& b) {
        return b.kind == SetBind::Kind::Sets && b.layout == layout && b.first == first && b.sets.size() == sets.size();
    });
    binds_.push_back({SetBind::Kind::Sets, layout, first, {sets.begin(), sets.end()}, {offsets.begin(), offsets.end()}});
}

void ComputeState::forget_pushes(VkPipelineLayout layout, uint32_t set) {
    std::erase_if(binds_, [&](const SetBind& b) {
        return (b.kind == SetBind::Kind::Push || b.kind == SetBind::Kind::PushTemplate) && b.layout == layout && b.first == set;
    });
}

void ComputeState::push_set(VkPipelineLayout layout, uint32_t set, std::span<const VkWriteDescriptorSet> writes) {
    forget_pushes(layout, set);
    SetBind pushed{SetBind::Kind::Push, layout, set};
    for (const VkWriteDescriptorSet& write : writes) pushed.pushed.emplace_back(&write);
    binds_.push_back(std::move(pushed));
}

void ComputeState::push_template(VkDescriptorUpdateTemplate update_template, VkPipelineLayout layout, uint32_t set,
                                 std::span<const std::byte> data) {
    forget_pushes(layout, set);
    SetBind pushed{SetBind::Kind::PushTemplate, layout, set};
    pushed.update_template = update_template;
    pushed.template_data.assign(data.begin(), data.end());
    binds_.push_back(std::move(pushed));
}

void ComputeState::set_buffer_offsets(VkPipelineLayout layout, uint32_t first, std::span<const uint32_t> buffer_indices,
                                      std::span<const VkDeviceSize> offsets) {
    std::erase_if(binds_, [&](const SetBind& b) {
        return b.kind == SetBind::Kind::BufferOffsets && b.layout == layout && b.first == first && b.offsets.size() == buffer_indices.size();
    });
    SetBind bind{SetBind::Kind::BufferOffsets, layout, first, {}, {buffer_indices.begin(), buffer_indices.end()}};
    bind.buffer_offsets.assign(offsets.begin(), offsets.end());
    binds_.push_back(std::move(bind));
}

void ComputeState::push_constants(VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset, std::span<const std::byte> bytes) {
    std::erase_if(pushes_, [&](const Push& p) {
        return p.layout == layout && p.stages == stages && p.offset == offset && p.bytes.size() == bytes.size();
    });
    pushes_.push_back({layout, stages, offset, {bytes.begin(), bytes.end()}});
}

// Each through whichever form of the command the device has; the application recorded it through one.
void ComputeState::replay(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next, const SetBind& b) const {
    constexpr VkPipelineBindPoint kCompute = VK_PIPELINE_BIND_POINT_COMPUTE;
    switch (b.kind) {
        case SetBind::Kind::Sets:
            next.CmdBindDescriptorSets(command_buffer, kCompute, b.layout, b.first, static_cast<uint32_t>(b.sets.size()), b.sets.data(),
                                       static_cast<uint32_t>(b.offsets.size()), b.offsets.data());
            return;
        case SetBind::Kind::Push: {
            std::vector<VkWriteDescriptorSet> writes;
            for (const vku::safe_VkWriteDescriptorSet& write : b.pushed) writes.push_back(*write.ptr());
            PFN_vkCmdPushDescriptorSet push = next.CmdPushDescriptorSetKHR ? next.CmdPushDescriptorSetKHR : next.CmdPushDescriptorSet;
            push(command_buffer, kCompute, b.layout, b.first, static_cast<uint32_t>(writes.size()), writes.data());
            return;
        }
        case SetBind::Kind::PushTemplate: {
            PFN_vkCmdPushDescriptorSetWithTemplate push =
                next.CmdPushDescriptorSetWithTemplateKHR ? next.CmdPushDescriptorSetWithTemplateKHR : next.CmdPushDescriptorSetWithTemplate;
            push(command_buffer, b.update_template, b.layout, b.first, b.template_data.data());
            return;
        }
        case SetBind::Kind::BufferOffsets:
            next.CmdSetDescriptorBufferOffsetsEXT(command_buffer, kCompute, b.layout, b.first, static_cast<uint32_t>(b.offsets.size()),
                                                  b.offsets.data(), b.buffer_offsets.data());
            return;
    }
}

void ComputeState::restore(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next) const {
    if (pipeline_ != VK_NULL_HANDLE) next.CmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    for (const SetBind& b : binds_) replay(command_buffer, next, b);
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
