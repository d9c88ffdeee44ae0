// Reading and writing SPIR-V binaries as the SPIRV-Tools command-line tools do: a path, or "-" for
// standard input / output.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vkpolyfill::cli {

// The words of a binary; nullopt with the reason in `error` when it cannot be read or its size is
// not a whole number of words.
std::optional<std::vector<uint32_t>> read_spirv(const std::string& path, std::string& error);

bool write_spirv(const std::string& path, std::span<const uint32_t> words, std::string& error);

}  // namespace vkpolyfill::cli
