#include "text_parsing.h"

#include <charconv>
#include <stdexcept>
#include <string>

namespace vkpolyfill::bench {

std::vector<std::string_view> split_list(std::string_view list) {
    std::vector<std::string_view> items;
    while (!list.empty()) {
        const size_t comma = list.find(',');
        items.push_back(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return items;
}

void parse_flags(int argc, char** argv, const std::function<void(const std::string& flag, const std::string& value)>& take) {
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help") throw std::invalid_argument("");
        if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
        take(flag, argv[++i]);
    }
}

void parse_flags(int argc, char** argv, std::span<const std::pair<const char*, std::string*>> texts,
                 std::span<const std::pair<const char*, uint32_t*>> numbers) {
    parse_flags(argc, argv, [&](const std::string& flag, const std::string& value) {
        for (const auto& [name, text] : texts) {
            if (flag == name) return void(*text = value);
        }
        for (const auto& [name, number] : numbers) {
            if (flag == name) return void(*number = parse_uint(value, flag));
        }
        throw std::invalid_argument("unknown option " + flag);
    });
}

uint32_t parse_uint(std::string_view text, std::string_view what) {
    uint32_t value = 0;
    const char* end = text.data() + text.size();
    if (text.empty() || std::from_chars(text.data(), end, value).ptr != end) {
        throw std::invalid_argument(std::string(what) + " wants a number, got '" + std::string(text) + "'");
    }
    return value;
}

}  // namespace vkpolyfill::bench
