// Lowered modules by what determines them: the module's hash, the entry point, the specialization
// data, the Target (subgroup size, versions, shared memory, emulated and native sets) and the layer
// version. In memory per device, and on disk under the cache_dir setting, where files are named by a
// hash of the key and the layer's build identity and hold both whole, so a stale, foreign or corrupt
// file is a miss, not a wrong module.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/utility/vk_concurrent_unordered_map.hpp>

#include "core/content_hash.h"

namespace vkpolyfill {

struct LoweringKey {
    std::string bytes;  // everything the lowering depends on, serialized; compared whole
    ContentHash hash;   // of bytes: the memory cache's slot and the dumps' file names
};

LoweringKey lowering_key(const ContentHash& module, std::string_view entry_point,
                         std::span<const lowering::SpecializationValue> specialization, const lowering::Target& target);

using LoweredWords = std::shared_ptr<const std::vector<uint32_t>>;

class LoweringCache {
  public:
    explicit LoweringCache(std::filesystem::path directory);  // empty: memory only

    struct Hit {
        LoweredWords words;
        bool from_disk;
    };
    std::optional<Hit> find(const LoweringKey& key);
    // Keeps the words in memory and, with a cache directory, on disk; false if the disk write failed.
    bool store(const LoweringKey& key, LoweredWords words);
    // The file a key is stored in ("" without a cache directory).
    std::filesystem::path file_of(const LoweringKey& key) const;

  private:
    std::string disk_key(const LoweringKey& key) const { return identity_ + key.bytes; }

    struct Entry {
        std::shared_ptr<const std::string> key;  // compared whole on lookup: the map is keyed by part of its hash
        LoweredWords words;
    };
    std::filesystem::path directory_;
    std::string identity_;  // build_identity(), with a cache directory
    vku::concurrent::unordered_map<uint64_t, Entry, 4> memory_;
};

}  // namespace vkpolyfill
