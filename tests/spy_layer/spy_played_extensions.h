// Device extensions no lavapipe has, which the spy plays a driver of when a test sets the extension's
// environment variable: listed among the driver's, and taken off vkCreateDevice's list before it
// reaches lavapipe.
#pragma once

#include <vector>

#include <vulkan/vulkan_core.h>

namespace spy {

struct PlayedExtension {
    const char* name;
    uint32_t spec_version;
    const char* variable;  // set: the spy plays it
};
inline constexpr PlayedExtension kModuleIdentifiers{VK_EXT_SHADER_MODULE_IDENTIFIER_EXTENSION_NAME,
                                                    VK_EXT_SHADER_MODULE_IDENTIFIER_SPEC_VERSION, "VKPOLYFILL_SPY_MODULE_IDENTIFIERS"};
inline constexpr PlayedExtension kPipelineBinaries{VK_KHR_PIPELINE_BINARY_EXTENSION_NAME, VK_KHR_PIPELINE_BINARY_SPEC_VERSION,
                                                   "VKPOLYFILL_SPY_PIPELINE_BINARIES"};

bool plays(const PlayedExtension& extension);

// The driver's extensions (from `next`), and those played.
VkResult list_with_played(PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device, uint32_t* count,
                          VkExtensionProperties* properties);
// The extensions a device enables, without those played.
std::vector<const char*> without_played(const VkDeviceCreateInfo& info);

}  // namespace spy
