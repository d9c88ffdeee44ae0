#include "spy_records.h"

#include <fstream>
#include <stdexcept>

namespace vkpolyfill::test {

std::vector<uint32_t> read_words(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<uint32_t> words(static_cast<size_t>(in.tellg()) / sizeof(uint32_t));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * sizeof(uint32_t)));
    return words;
}

std::vector<std::string> read_lines(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace vkpolyfill::test
