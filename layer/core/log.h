// The layer's messages: to the application's debug-utils messengers when it has any (through
// vkSubmitDebugUtilsMessageEXT, so the loader's own messenger bookkeeping decides who hears
// them), and to stderr when the message is at or above the log_level setting.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>

#include <vulkan/vulkan_core.h>

#include "core/settings.h"

namespace vkpolyfill {

// An object a message is about, named in the debug-utils callback data.
struct LoggedObject {
    VkObjectType type = VK_OBJECT_TYPE_UNKNOWN;
    uint64_t handle = 0;
    std::string name;  // the application's debug-utils name, empty if none
};

class Logger {
  public:
    explicit Logger(LogLevel stderr_level) : stderr_level_(stderr_level) {}

    // Called once the instance exists, if the application enabled VK_EXT_debug_utils.
    void attach_debug_utils(VkInstance instance, PFN_vkSubmitDebugUtilsMessageEXT submit) {
        instance_ = instance;
        submit_ = submit;
    }
    void messenger_created() { ++messengers_; }
    void messenger_destroyed() { --messengers_; }

    // `id` is a short stable name for the message kind ("vkpolyfill-settings", ...).
    void log(LogLevel level, const char* id, const std::string& text, std::span<const LoggedObject> objects = {}) const;
    bool enabled(LogLevel level) const { return level <= stderr_level_ || messengers_ > 0; }

  private:
    LogLevel stderr_level_;
    VkInstance instance_ = VK_NULL_HANDLE;
    PFN_vkSubmitDebugUtilsMessageEXT submit_ = nullptr;
    std::atomic<int> messengers_ = 0;
};

}  // namespace vkpolyfill
