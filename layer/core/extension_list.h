// Whether a create info (instance or device) enables an extension.
#pragma once

#include <cstdint>
#include <cstring>

namespace vkpolyfill {

template <typename CreateInfo>
bool enables_extension(const CreateInfo* create_info, const char* extension) {
    for (uint32_t i = 0; i < create_info->enabledExtensionCount; ++i) {
        if (std::strcmp(create_info->ppEnabledExtensionNames[i], extension) == 0) return true;
    }
    return false;
}

}  // namespace vkpolyfill
