// One vkCreate*Pipelines call in which some create infos were rewritten (on deep copies) and some
// failed in the layer: what reaches the driver, and what the application gets back. Shared by the
// compute and graphics interception.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {

template <typename CreateInfo>
bool early_return_on_failure(const CreateInfo& info) {
    if (auto* flags2 = vku::FindStructInPNextChain<VkPipelineCreateFlags2CreateInfo>(info.pNext)) {
        return (flags2->flags & VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT) != 0;
    }
    return (info.flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
}

// Prepares create info i with `prepare(i)` (its failure is the layer's), stopping after a failure
// whose create info asks for an early return; returns how many were prepared.
template <typename CreateInfo, typename Prepare>
size_t prepare_all(std::span<const CreateInfo> infos, std::vector<VkResult>& failures, Prepare prepare) {
    size_t end = infos.size();
    for (uint32_t i = 0; i < end; ++i) {
        failures[i] = prepare(i);
        if (failures[i] != VK_SUCCESS && early_return_on_failure(infos[i])) end = i + 1;
    }
    return end;
}

// The driver's creation feedback, written into the copy's own structs, goes back to the application's.
template <typename CreateInfo, typename SafeCreateInfo>
void return_feedback(const CreateInfo& app, const SafeCreateInfo& copy) {
    auto* to = vku::FindStructInPNextChain<VkPipelineCreationFeedbackCreateInfo>(app.pNext);
    auto* from = vku::FindStructInPNextChain<VkPipelineCreationFeedbackCreateInfo>(copy.pNext);
    if (to == nullptr || from == nullptr) return;
    *to->pPipelineCreationFeedback = *from->pPipelineCreationFeedback;
    for (uint32_t i = 0; i < std::min(to->pipelineStageCreationFeedbackCount, from->pipelineStageCreationFeedbackCount); ++i) {
        to->pPipelineStageCreationFeedbacks[i] = from->pPipelineStageCreationFeedbacks[i];
    }
}

// Creates, with `create_down(count, infos, pipelines)`, the create infos before `end` that did not
// fail in the layer (their copies where rewritten), in order; a derivative's base index follows its
// base. Every other pipeline is VK_NULL_HANDLE. The layer's failure outranks the driver's success and
// its VK_PIPELINE_COMPILE_REQUIRED.
template <typename CreateInfo, typename SafeCreateInfo, typename CreateDown>
VkResult create_prepared(std::span<const CreateInfo> infos, const std::vector<std::optional<SafeCreateInfo>>& copies,
                         std::span<const VkResult> failures, size_t end, VkPipeline* pipelines, CreateDown create_down) {
    const size_t count = infos.size();
    std::vector<CreateInfo> down;
    std::vector<size_t> app_index;
    std::vector<int32_t> down_index(count, -1);
    for (size_t i = 0; i < end; ++i) {
        if (failures[i] != VK_SUCCESS) continue;
        down_index[i] = static_cast<int32_t>(down.size());
        down.push_back(copies[i] ? *copies[i]->ptr() : infos[i]);
        app_index.push_back(i);
    }
    for (CreateInfo& info : down) {
        if (info.basePipelineIndex < 0 || static_cast<size_t>(info.basePipelineIndex) >= count) continue;
        info.basePipelineIndex = down_index[static_cast<size_t>(info.basePipelineIndex)];
        if (info.basePipelineIndex < 0) info.flags &= ~VK_PIPELINE_CREATE_DERIVATIVE_BIT;  // its base failed
    }

    std::vector<VkPipeline> created(down.size(), VK_NULL_HANDLE);
    VkResult result = VK_SUCCESS;
    if (!down.empty()) result = create_down(static_cast<uint32_t>(down.size()), down.data(), created.data());
    std::fill(pipelines, pipelines + count, VK_NULL_HANDLE);
    for (size_t k = 0; k < down.size(); ++k) pipelines[app_index[k]] = created[k];
    for (size_t i = 0; i < count; ++i) {
        if (copies[i]) return_feedback(infos[i], *copies[i]);
    }
    if (result >= 0) {
        for (VkResult failure : failures) {
            if (failure != VK_SUCCESS) return failure;
        }
    }
    return result;
}

// Runs `create` (a whole create-with-lowering call); if it runs out of memory before the driver is
// called, no pipeline was made (the temporary modules are destroyed by then) and the call says so.
template <typename Create>
VkResult unless_out_of_memory(uint32_t count, VkPipeline* pipelines, Create create) noexcept {
    try {
        return create();
    } catch (...) {
        std::fill(pipelines, pipelines + count, VK_NULL_HANDLE);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

}  // namespace vkpolyfill
