#include "core/log.h"

#include <cstdio>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

VkDebugUtilsMessageSeverityFlagBitsEXT severity_of(LogLevel level) {
    switch (level) {
        case LogLevel::Error: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        case LogLevel::Warning: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
        case LogLevel::Info: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
        case LogLevel::Debug: break;
    }
    return VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
}

}  // namespace

void Logger::log(LogLevel level, const char* id, const std::string& text, std::span<const LoggedObject> objects) const {
    if (level <= stderr_level_) {
        std::fprintf(stderr, "[vkpolyfill] %s: %s\n", to_string(level), text.c_str());
    }
    if (submit_ == nullptr || messengers_ == 0) return;
    std::vector<VkDebugUtilsObjectNameInfoEXT> names;
    names.reserve(objects.size());
    for (const LoggedObject& object : objects) {
        names.push_back(vku::InitStruct<VkDebugUtilsObjectNameInfoEXT>(nullptr, object.type, object.handle,
                                                                        object.name.empty() ? nullptr : object.name.c_str()));
    }
    auto data = vku::InitStruct<VkDebugUtilsMessengerCallbackDataEXT>();
    data.pMessageIdName = id;
    data.pMessage = text.c_str();
    data.objectCount = static_cast<uint32_t>(names.size());
    data.pObjects = names.data();
    const VkDebugUtilsMessageTypeFlagsEXT type = level == LogLevel::Error || level == LogLevel::Warning
                                                     ? VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                                                     : VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    submit_(instance_, severity_of(level), type, &data);
}

}  // namespace vkpolyfill
