// Whole-file reads and writes for the dump and cache directories. Writes go to a temporary name and
// are renamed into place, so a reader (another process sharing cache_dir) never sees half a file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

namespace vkpolyfill {

std::optional<std::vector<std::byte>> read_file(const std::filesystem::path& path);

// Creates the directory if needed. False (and nothing left behind) when anything fails.
bool write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes);

}  // namespace vkpolyfill
