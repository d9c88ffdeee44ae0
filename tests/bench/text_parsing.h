// Command-line text: "--flag value" pairs, comma-separated lists and unsigned numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vkpolyfill::bench {

// "a,b,c" -> {"a", "b", "c"}; an empty list gives no items.
std::vector<std::string_view> split_list(std::string_view list);

// Calls `take(flag, value)` for each "--flag value" pair of argv; "--help" and a flag without a value
// throw std::invalid_argument (the empty message asks for the usage alone), as `take` does for a flag
// it does not know.
void parse_flags(int argc, char** argv, const std::function<void(const std::string& flag, const std::string& value)>& take);

// parse_flags() for flags that each set a string (`texts`) or an unsigned number (`numbers`).
void parse_flags(int argc, char** argv, std::span<const std::pair<const char*, std::string*>> texts,
                 std::span<const std::pair<const char*, uint32_t*>> numbers);

// The whole of `text` as an unsigned number; throws std::invalid_argument naming `what` otherwise.
uint32_t parse_uint(std::string_view text, std::string_view what);

}  // namespace vkpolyfill::bench
