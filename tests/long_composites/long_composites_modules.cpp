#include "long_composites_modules.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

namespace vkpolyfill::test::long_composites {

std::vector<uint32_t> read_module(const std::string& name) {
    std::ifstream file(std::string(kModuleDirectory) + "/" + name + ".spv", std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
    std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint32_t));
    return words;
}

float table_value(uint32_t i) { return 0.5f + 0.25f * static_cast<float>(i); }

// The shader's own order of float additions, so the sums match to the bit.
float table_result(uint32_t i, uint32_t size, uint32_t lookups) {
    const float last = table_value(size - 1);
    float sum = 0.0f;
    for (uint32_t j = 0; j < lookups; ++j) sum += table_value((i + 7919 * j) % size) + last;
    return sum;
}

bool struct_member_touched(uint32_t k, uint32_t members) { return k % 4096 == 0 || k % 4096 == 4095 || k == members - 1; }

uint32_t struct_constant_member(uint32_t k) { return 100 + k % 16; }

std::vector<uint32_t> samples(uint32_t size) {
    std::set<uint32_t> near{0, 1, 2, 3, 4, 15, 16, 17, size / 2 - 1, size / 2, size / 2 + 1};
    for (uint32_t k = size - 4; k < size; ++k) near.insert(k);
    for (uint32_t edge : {16380u, 16383u, 32760u, 32766u, 65532u, 65533u}) near.insert({edge - 1, edge, edge + 1});
    std::vector<uint32_t> inside;
    std::ranges::copy_if(near, std::back_inserter(inside), [&](uint32_t k) { return k < size; });
    return inside;
}

std::array<uint32_t, 4> fragment_samples(uint32_t size) {
    constexpr uint32_t kFirstContinued = 65535 - 3;  // a constant composite's head holds 65,532 constituents
    return {0, std::min(kFirstContinued, size - 1), size / 2, size - 1};
}

uint32_t spec_element(uint32_t i, const std::array<uint32_t, 3>& spec_values) {
    if (i % 4 != 0) return 1000 + i % 1000;
    const uint32_t which = (i / 4) % 4;
    return which < 3 ? spec_values[which] : spec_values[0] + spec_values[1];
}

}  // namespace vkpolyfill::test::long_composites
