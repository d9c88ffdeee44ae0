#include "spirv_files.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

namespace vkpolyfill::cli {

std::optional<std::vector<uint32_t>> read_spirv(const std::string& path, std::string& error) {
    std::string bytes;
    if (path == "-") {
        bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            error = "cannot open input file '" + path + "'";
            return std::nullopt;
        }
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (bytes.size() % sizeof(uint32_t) != 0) {
        error = "'" + path + "' is " + std::to_string(bytes.size()) + " bytes, not a whole number of 32-bit words";
        return std::nullopt;
    }
    std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
    bytes.copy(reinterpret_cast<char*>(words.data()), bytes.size());
    return words;
}

bool write_spirv(const std::string& path, std::span<const uint32_t> words, std::string& error) {
    const auto* data = reinterpret_cast<const char*>(words.data());
    const auto size = static_cast<std::streamsize>(words.size_bytes());
    if (path == "-") {
        if (std::cout.write(data, size).flush()) return true;
        error = "cannot write to standard output";
        return false;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out.write(data, size).flush()) return true;
    error = "cannot write output file '" + path + "'";
    return false;
}

}  // namespace vkpolyfill::cli
