// Collects debug-utils messages for tests that check what the layer says.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill::test {

struct DebugMessage {
    VkDebugUtilsMessageSeverityFlagBitsEXT severity;
    std::string id;
    std::string text;
    std::vector<std::string> object_names;
};

class DebugMessages {
  public:
    // Chain this to VkInstanceCreateInfo (messages during vkCreateInstance) or pass it to
    // vkCreateDebugUtilsMessengerEXT; every severity and type is enabled.
    VkDebugUtilsMessengerCreateInfoEXT create_info();

    std::vector<DebugMessage> all() const;
    // Messages whose id is `id` and whose text contains `fragment`.
    size_t count(const std::string& id, const std::string& fragment = "") const;
    std::string dump() const;  // for failure output
    // The texts of the warnings and errors, joined with "; " (a failure's reasons).
    std::string problems() const;

  private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
    mutable std::mutex mutex_;
    std::vector<DebugMessage> messages_;
};

// A messenger that hears everything `instance` says while it lives (one chained to
// VkInstanceCreateInfo hears vkCreateInstance only).
class ScopedMessenger {
  public:
    ScopedMessenger(VkInstance instance, DebugMessages& messages);
    ~ScopedMessenger();
    ScopedMessenger(const ScopedMessenger&) = delete;
    ScopedMessenger& operator=(const ScopedMessenger&) = delete;

  private:
    VkInstance instance_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

}  // namespace vkpolyfill::test
