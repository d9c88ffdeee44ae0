#include "debug_messages.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "vulkan_context.h"

namespace vkpolyfill::test {

VkDebugUtilsMessengerCreateInfoEXT DebugMessages::create_info() {
    VkDebugUtilsMessengerCreateInfoEXT info = vku::InitStructHelper();
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = callback;
    info.pUserData = this;
    return info;
}

VKAPI_ATTR VkBool32 VKAPI_CALL DebugMessages::callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<DebugMessages*>(user);
    DebugMessage message{severity, data->pMessageIdName ? data->pMessageIdName : "", data->pMessage ? data->pMessage : "", {}};
    for (uint32_t i = 0; i < data->objectCount; ++i) {
        message.object_names.emplace_back(data->pObjects[i].pObjectName ? data->pObjects[i].pObjectName : "");
    }
    std::lock_guard lock(self->mutex_);
    self->messages_.push_back(std::move(message));
    return VK_FALSE;
}

std::vector<DebugMessage> DebugMessages::all() const {
    std::lock_guard lock(mutex_);
    return messages_;
}

size_t DebugMessages::count(const std::string& id, const std::string& fragment) const {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (const DebugMessage& m : messages_) n += m.id == id && m.text.find(fragment) != std::string::npos;
    return n;
}

std::string DebugMessages::dump() const {
    std::string text;
    for (const DebugMessage& m : all()) text += "  [" + m.id + "] " + m.text + "\n";
    return text.empty() ? "  (no messages)\n" : text;
}

std::string DebugMessages::problems() const {
    std::string text;
    for (const DebugMessage& m : all()) {
        if (m.severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) text += (text.empty() ? "" : "; ") + m.text;
    }
    return text;
}

ScopedMessenger::ScopedMessenger(VkInstance instance, DebugMessages& messages) : instance_(instance) {
    const VkDebugUtilsMessengerCreateInfoEXT info = messages.create_info();
    check(vkCreateDebugUtilsMessengerEXT(instance_, &info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
}

ScopedMessenger::~ScopedMessenger() { vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr); }

}  // namespace vkpolyfill::test
