// Writing Vulkan output parameters: the two-call idiom of enumerations (count query, then fill
// with VK_INCOMPLETE when the application's array is short) and fixed-size string fields.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

// `write(item, out)` fills one element.
template <typename T, size_t Extent, typename Write>
VkResult write_enumeration(std::span<const T, Extent> items, uint32_t* count, T* out, Write write) {
    if (out == nullptr) {
        *count = static_cast<uint32_t>(items.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
    for (uint32_t i = 0; i < written; ++i) write(items[i], out[i]);
    *count = written;
    return written < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

template <typename T, size_t Extent>
VkResult write_enumeration(std::span<const T, Extent> items, uint32_t* count, T* out) {
    return write_enumeration(items, count, out, [](const T& item, T& element) { element = item; });
}

// For output structs the application may chain (sType, pNext): its sType and pNext stay as they were.
template <typename T, size_t Extent>
VkResult write_chained_enumeration(std::span<const T, Extent> items, uint32_t* count, T* out) {
    return write_enumeration(items, count, out, [](const T& item, T& element) {
        const VkStructureType type = element.sType;
        void* next = element.pNext;
        element = item;
        element.sType = type;
        element.pNext = next;
    });
}

// Copies a string into a char[N] field, truncated and zero-filled.
template <size_t N>
void write_string(char (&field)[N], const char* text) {
    std::memset(field, 0, N);
    std::strncpy(field, text, N - 1);
}

}  // namespace vkpolyfill
