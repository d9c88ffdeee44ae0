// Extensions the layer itself implements, whatever the driver has (the manifests list them too).
#pragma once

#include <array>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

inline constexpr std::array<VkExtensionProperties, 1> kLayerInstanceExtensions = {{
    {VK_EXT_LAYER_SETTINGS_EXTENSION_NAME, VK_EXT_LAYER_SETTINGS_SPEC_VERSION},
}};

inline constexpr std::array<VkExtensionProperties, 1> kLayerDeviceExtensions = {{
    {VK_EXT_TOOLING_INFO_EXTENSION_NAME, VK_EXT_TOOLING_INFO_SPEC_VERSION},
}};

}  // namespace vkpolyfill
