// Reading what the spy layer (tests/spy_layer) recorded of the calls that reached the driver.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace vkpolyfill::test {

std::vector<uint32_t> read_words(const std::filesystem::path& file);
std::vector<std::string> read_lines(const std::filesystem::path& file);

}  // namespace vkpolyfill::test
