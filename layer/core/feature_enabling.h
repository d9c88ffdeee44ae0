// Turning on a core feature in the layer's copy of a vkCreateDevice info (and reading one), wherever the
// application's chain says it: in the VkPhysicalDeviceVulkanNNFeatures struct if it has one (the per-feature struct
// must then be absent), else in the feature's own struct, added when missing.
#pragma once

#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {

template <typename VersionStruct, typename FeatureStruct>
void enable_feature(vku::safe_VkDeviceCreateInfo& create_info, VkBool32 VersionStruct::*in_version,
                    VkBool32 FeatureStruct::*in_struct) {
    void* chain = const_cast<void*>(create_info.pNext);
    if (auto* version = vku::FindStructInPNextChain<VersionStruct>(chain)) {
        version->*in_version = VK_TRUE;
    } else if (auto* feature = vku::FindStructInPNextChain<FeatureStruct>(chain)) {
        feature->*in_struct = VK_TRUE;
    } else {
        FeatureStruct added = vku::InitStructHelper();
        added.*in_struct = VK_TRUE;
        vku::AddToPnext(create_info, added);
    }
}

// The same for a Vulkan 1.0 feature, which lives in pEnabledFeatures or VkPhysicalDeviceFeatures2;
// nothing when `on` is false.
inline void enable_core_feature(vku::safe_VkDeviceCreateInfo& create_info, VkBool32 VkPhysicalDeviceFeatures::*feature, VkBool32 on) {
    if (!on) return;
    if (auto* features2 = vku::FindStructInPNextChain<VkPhysicalDeviceFeatures2>(const_cast<void*>(create_info.pNext))) {
        features2->features.*feature = VK_TRUE;
        return;
    }
    if (create_info.pEnabledFeatures == nullptr) create_info.pEnabledFeatures = new VkPhysicalDeviceFeatures{};
    const_cast<VkPhysicalDeviceFeatures*>(create_info.pEnabledFeatures)->*feature = VK_TRUE;
}

// Whether a vkCreateDevice info enables a Vulkan 1.0 feature.
inline bool enables_core_feature(const VkDeviceCreateInfo& create_info, VkBool32 VkPhysicalDeviceFeatures::*feature) {
    if (const auto* features2 = vku::FindStructInPNextChain<VkPhysicalDeviceFeatures2>(create_info.pNext)) {
        return features2->features.*feature == VK_TRUE;
    }
    return create_info.pEnabledFeatures != nullptr && create_info.pEnabledFeatures->*feature == VK_TRUE;
}

}  // namespace vkpolyfill
