// Finding the loader's link in a create info's pNext chain (VkLayerInstanceCreateInfo or
// VkLayerDeviceCreateInfo with VK_LAYER_LINK_INFO): where the next layer's entry points are.
#pragma once

#include <vulkan/vk_layer.h>

namespace vkpolyfill {

template <typename LinkInfo, typename CreateInfo>
LinkInfo* find_layer_link(const CreateInfo* create_info, VkStructureType link_type) {
    for (auto* s = static_cast<const VkBaseInStructure*>(create_info->pNext); s; s = s->pNext) {
        auto* info = reinterpret_cast<LinkInfo*>(const_cast<VkBaseInStructure*>(s));
        if (s->sType == link_type && info->function == VK_LAYER_LINK_INFO) return info->u.pLayerInfo ? info : nullptr;
    }
    return nullptr;
}

}  // namespace vkpolyfill
