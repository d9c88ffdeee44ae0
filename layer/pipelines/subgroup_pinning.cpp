#include "pipelines/subgroup_pinning.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "pipelines/spirv_local_size.h"

namespace vkpolyfill {

SubgroupControl subgroup_control(const PhysicalDeviceFacts& facts, const VkDeviceCreateInfo* create_info) {
    // The features as enabled, through either struct that carries them.
    VkBool32 size_control = VK_FALSE, full_subgroups = VK_FALSE;
    if (auto* v13 = vku::FindStructInPNextChain<VkPhysicalDeviceVulkan13Features>(create_info->pNext)) {
        size_control = v13->subgroupSizeControl;
        full_subgroups = v13->computeFullSubgroups;
    } else if (auto* c = vku::FindStructInPNextChain<VkPhysicalDeviceSubgroupSizeControlFeatures>(create_info->pNext)) {
        size_control = c->subgroupSizeControl;
        full_subgroups = c->computeFullSubgroups;
    }
    SubgroupControl control;
    control.size = facts.subgroup.subgroupSize;
    control.can_require_size =
        size_control && (facts.subgroup_size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    control.can_require_full = full_subgroups;
    return control;
}

StageSubgroups stage_subgroups(const SubgroupControl& control, const void* stage_next) {
    if (auto* required = vku::FindStructInPNextChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(stage_next)) {
        return {required->requiredSubgroupSize, false};
    }
    return {control.size, control.can_require_size};
}

bool can_require_full_subgroups(const SubgroupControl& control, std::span<const uint32_t> code, const char* entry_point,
                                uint32_t size) {
    if (!control.can_require_full || size == 0) return false;
    const std::optional<uint32_t> width = literal_local_size_x(code, entry_point);
    return width && *width % size == 0;
}

}  // namespace vkpolyfill
