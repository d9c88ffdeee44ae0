#include "spy_played_extensions.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace spy {
namespace {

constexpr PlayedExtension kPlayed[] = {kModuleIdentifiers, kPipelineBinaries};

bool played_by_name(const char* name) {
    return std::ranges::any_of(kPlayed, [&](const PlayedExtension& e) { return plays(e) && std::strcmp(e.name, name) == 0; });
}

}  // namespace

bool plays(const PlayedExtension& extension) { return std::getenv(extension.variable) != nullptr; }

VkResult list_with_played(PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device, uint32_t* count,
                          VkExtensionProperties* properties) {
    uint32_t driver_count = 0;
    VkResult result = next(physical_device, nullptr, &driver_count, nullptr);
    if (result != VK_SUCCESS) return result;
    std::vector<VkExtensionProperties> all(driver_count);
    result = next(physical_device, nullptr, &driver_count, all.data());
    if (result != VK_SUCCESS) return result;
    all.resize(driver_count);
    for (const PlayedExtension& extension : kPlayed) {
        if (!plays(extension)) continue;
        VkExtensionProperties added{};
        std::strcpy(added.extensionName, extension.name);
        added.specVersion = extension.spec_version;
        all.push_back(added);
    }
    if (properties == nullptr) {
        *count = static_cast<uint32_t>(all.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(all.size()));
    std::copy_n(all.begin(), written, properties);
    *count = written;
    return written < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

std::vector<const char*> without_played(const VkDeviceCreateInfo& info) {
    std::vector<const char*> names;
    for (uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
        if (!played_by_name(info.ppEnabledExtensionNames[i])) names.push_back(info.ppEnabledExtensionNames[i]);
    }
    return names;
}

}  // namespace spy
