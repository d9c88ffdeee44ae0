#include "cooperative_matrix/native_matrices.h"

#include <optional>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/extension_list.h"
#include "cooperative_matrix/cooperative_matrix_support.h"

namespace vkpolyfill {
namespace {

std::optional<lowering::ComponentType> from_vulkan(VkComponentTypeKHR type) {
    for (uint32_t t = 0; t <= static_cast<uint32_t>(lowering::ComponentType::UInt32); ++t) {
        if (to_vulkan(static_cast<lowering::ComponentType>(t)) == type) return static_cast<lowering::ComponentType>(t);
    }
    return std::nullopt;
}

bool enabled_at_the_driver(const VkDeviceCreateInfo& create_info) {
    const auto* features =
        vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrixFeaturesKHR>(const_cast<void*>(create_info.pNext));
    return features && features->cooperativeMatrix && enables_extension(&create_info, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
}

}  // namespace

std::vector<lowering::CooperativeMatrixConfiguration> native_matrices(const PhysicalDeviceFacts& facts,
                                                                      const VkDeviceCreateInfo& create_info) {
    std::vector<lowering::CooperativeMatrixConfiguration> configurations;
    if (!enabled_at_the_driver(create_info)) return configurations;
    for (const VkCooperativeMatrixPropertiesKHR& p : facts.khr_cooperative_matrix_configurations) {
        const auto a = from_vulkan(p.AType), b = from_vulkan(p.BType), c = from_vulkan(p.CType), result = from_vulkan(p.ResultType);
        if (p.scope != VK_SCOPE_SUBGROUP_KHR || !a || !b || !c || !result) continue;
        configurations.push_back({p.MSize, p.NSize, p.KSize, *a, *b, *c, *result, p.saturatingAccumulation == VK_TRUE});
    }
    return configurations;
}

}  // namespace vkpolyfill
