#include "enabled_features.h"

#include <cstddef>
#include <string>

#include <volk.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

// A feature struct is sType, pNext and VkBool32 members only; the tag names a member by its index,
// "<struct>#<index>", which scripts/conformance/registry.py turns into the member's name from vk.xml
// (so this file needs no member names of its own).
template <typename Features>
bool tag_if(const VkBaseInStructure* s, const char* name) {
    if (s->sType != vku::GetSType<Features>()) return false;
    constexpr size_t first = offsetof(Features, pNext) + sizeof(void*);
    constexpr size_t count = (sizeof(Features) - first) / sizeof(VkBool32);
    const auto* bits = reinterpret_cast<const VkBool32*>(reinterpret_cast<const std::byte*>(s) + first);
    for (size_t i = 0; i < count; ++i) {
        if (bits[i] == VK_TRUE) covers(std::string(name) + "#" + std::to_string(i));
    }
    return true;
}

}  // namespace

void tag_enabled_features(const void* chain) {
    for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
        tag_if<VkPhysicalDeviceCooperativeMatrixFeaturesKHR>(s, "VkPhysicalDeviceCooperativeMatrixFeaturesKHR") ||
            tag_if<VkPhysicalDeviceCooperativeMatrix2FeaturesNV>(s, "VkPhysicalDeviceCooperativeMatrix2FeaturesNV") ||
            tag_if<VkPhysicalDeviceShaderTileImageFeaturesEXT>(s, "VkPhysicalDeviceShaderTileImageFeaturesEXT") ||
            tag_if<VkPhysicalDeviceTensorFeaturesARM>(s, "VkPhysicalDeviceTensorFeaturesARM") ||
            tag_if<VkPhysicalDeviceDescriptorBufferTensorFeaturesARM>(s, "VkPhysicalDeviceDescriptorBufferTensorFeaturesARM");
    }
}

}  // namespace vkpolyfill::test
