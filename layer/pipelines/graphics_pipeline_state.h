// Reading a graphics pipeline's create info as dynamic rendering sees it: which state is dynamic, and
// each color attachment with its format and the location VkRenderingAttachmentLocationInfo moves it to.
#pragma once

#include <algorithm>
#include <initializer_list>

#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vulkan.h>

namespace vkpolyfill {

// Whether any of `states` is dynamic.
inline bool has_dynamic_state(const VkGraphicsPipelineCreateInfo& info, std::initializer_list<VkDynamicState> states) {
    if (info.pDynamicState == nullptr) return false;
    const VkPipelineDynamicStateCreateInfo& dynamic = *info.pDynamicState;
    return std::any_of(dynamic.pDynamicStates, dynamic.pDynamicStates + dynamic.dynamicStateCount,
                       [&](VkDynamicState s) { return std::ranges::find(states, s) != states.end(); });
}

// Calls visit(attachment index, location, format) for each color attachment of a dynamic-rendering
// pipeline that has a format and a location.
template <typename Visit>
void for_color_attachments(const VkGraphicsPipelineCreateInfo& info, Visit&& visit) {
    auto* rendering = vku::FindStructInPNextChain<VkPipelineRenderingCreateInfo>(info.pNext);
    if (rendering == nullptr || rendering->pColorAttachmentFormats == nullptr) return;
    auto* moved = vku::FindStructInPNextChain<VkRenderingAttachmentLocationInfo>(info.pNext);
    for (uint32_t i = 0; i < rendering->colorAttachmentCount; ++i) {
        const uint32_t location = moved && moved->pColorAttachmentLocations && i < moved->colorAttachmentCount
                                      ? moved->pColorAttachmentLocations[i]
                                      : i;
        const VkFormat format = rendering->pColorAttachmentFormats[i];
        if (format != VK_FORMAT_UNDEFINED && location != VK_ATTACHMENT_UNUSED) visit(i, location, format);
    }
}

}  // namespace vkpolyfill
