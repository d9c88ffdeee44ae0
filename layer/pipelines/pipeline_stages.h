// The shader stages of pipeline create infos (compute and graphics alike): whether a stage's code
// needs lowering (a captured module, or maintenance5's VkShaderModuleCreateInfo inline in the stage),
// how messages name it, and the temporary modules lowered code reaches the driver in.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include <vulkan/utility/vk_safe_struct.hpp>

#include "core/device_data.h"
#include "pipelines/shader_stage_lowering.h"

namespace vkpolyfill {

bool stage_needs_lowering(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage);
// Whether any stage of any of `infos` (graphics or ray-tracing create infos: pStages, stageCount) does.
template <typename CreateInfo>
bool any_stage_needs_lowering(const DeviceShaders& shaders, std::span<const CreateInfo> infos) {
    return std::ranges::any_of(infos, [&](const CreateInfo& info) {
        return std::ranges::any_of(std::span(info.pStages, info.stageCount),
                                   [&](const VkPipelineShaderStageCreateInfo& stage) { return stage_needs_lowering(shaders, stage); });
    });
}
// `index` is the create info's, for naming inline code.
StageCode stage_code(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage, uint32_t index);

// Modules of lowered code: the driver needs them only while it creates the pipelines.
class TemporaryModules {
  public:
    explicit TemporaryModules(const DeviceData& data) : data_(data) {}
    ~TemporaryModules();
    TemporaryModules(const TemporaryModules&) = delete;
    TemporaryModules& operator=(const TemporaryModules&) = delete;

    VkResult create(std::span<const uint32_t> words, VkShaderModule& module);

  private:
    const DeviceData& data_;
    std::vector<VkShaderModule> modules_;
};

// Puts `words` (a stage's lowered code) in `stage`, a deep copy of the application's stage: a
// temporary module in place of its module or inline code.
VkResult use_lowered_code(std::span<const uint32_t> words, vku::safe_VkPipelineShaderStageCreateInfo& stage,
                          TemporaryModules& temporaries);

}  // namespace vkpolyfill
