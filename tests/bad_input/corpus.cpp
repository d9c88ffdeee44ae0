#include "corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vkpolyfill::test {
namespace {

// The value of the header line "; <key>: value", empty if there is none.
std::string header_value(const std::string& text, const std::string& key) {
    std::istringstream lines(text);
    const std::string prefix = "; " + key + ": ";
    for (std::string line; std::getline(lines, line) && line.starts_with(";");) {
        if (line.starts_with(prefix)) return line.substr(prefix.size());
    }
    return {};
}

void apply_damage(const std::string& damage, std::vector<uint32_t>& words) {
    std::istringstream in(damage);
    std::string what;
    uint32_t n = 0;
    in >> what >> n;
    if (what == "truncate" && n < words.size()) {
        words.resize(words.size() - n);
    } else if (what == "bound" && words.size() > 3) {
        words[3] = n;
    } else {
        ADD_FAILURE() << "unknown damage \"" << damage << "\"";
    }
}

}  // namespace

std::vector<BadInput> bad_inputs(const Assembler& assemble) {
    std::vector<BadInput> inputs;
    for (const auto& entry : std::filesystem::directory_iterator(VKPOLYFILL_BAD_INPUT_DIR)) {
        if (entry.path().extension() != ".spvasm") continue;
        std::ifstream file(entry.path());
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        BadInput input{entry.path().stem().string(), header_value(text, "why"), header_value(text, "expect"), false, assemble(text)};
        EXPECT_FALSE(input.why.empty() || input.expect.empty()) << input.name << ": a \"; why:\" and an \"; expect:\" line are required";
        if (const std::string damage = header_value(text, "damage"); !damage.empty()) {
            apply_damage(damage, input.words);
            input.damaged = true;
        }
        inputs.push_back(std::move(input));
    }
    std::ranges::sort(inputs, {}, &BadInput::name);
    return inputs;
}

}  // namespace vkpolyfill::test
