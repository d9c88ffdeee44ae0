// A 128-bit hash of bytes, for naming shader code in caches: wide enough that two different modules
// sharing one is not a practical concern (a cache entry also keeps its whole key, so a collision of
// file names is still detected).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace vkpolyfill {

struct ContentHash {
    uint64_t low = 0;
    uint64_t high = 0;

    bool operator==(const ContentHash&) const = default;
    std::string hex() const;  // 32 hex digits
};

ContentHash hash_bytes(std::span<const std::byte> bytes);

template <typename T>
ContentHash hash_of(std::span<const T> items) {
    return hash_bytes(std::as_bytes(items));
}

}  // namespace vkpolyfill
