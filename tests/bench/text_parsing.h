// Command-line text: comma-separated lists and unsigned numbers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace vkpolyfill::bench {

// "a,b,c" -> {"a", "b", "c"}; an empty list gives no items.
std::vector<std::string_view> split_list(std::string_view list);

// The whole of `text` as an unsigned number; throws std::invalid_argument naming `what` otherwise.
uint32_t parse_uint(std::string_view text, std::string_view what);

}  // namespace vkpolyfill::bench
