// Writing Vulkan output parameters: the two-call idiom of enumerations (count query, then fill
// with VK_INCOMPLETE when the application's array is short) and fixed-size string fields.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

template <typename T, size_t Extent>
VkResult write_enumeration(std::span<const T, Extent> items, uint32_t* count, T* out) {
    if (out == nullptr) {
        *count = static_cast<uint32_t>(items.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
    std::copy_n(items.begin(), written, out);
    *count = written;
    return written < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// Copies a string into a char[N] field, truncated and zero-filled.
template <size_t N>
void write_string(char (&field)[N], const char* text) {
    std::memset(field, 0, N);
    std::strncpy(field, text, N - 1);
}

}  // namespace vkpolyfill
