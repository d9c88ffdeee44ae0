// The bad-input corpus (tests/bad_input/): adversarial modules, each with the error it must cause.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vkpolyfill::test {

struct BadInput {
    std::string name;     // the file's stem
    std::string why;      // "; why:"
    std::string expect;   // "; expect:": a fragment of the first error
    bool damaged = false; // "; damage:" was applied: the words are not a whole module
    std::vector<uint32_t> words;
};

using Assembler = std::function<std::vector<uint32_t>(const std::string& text)>;

// Every module of the corpus, assembled by `assemble` (and damaged where the file says so); fails
// the calling test on a file that lacks its header lines.
std::vector<BadInput> bad_inputs(const Assembler& assemble);

}  // namespace vkpolyfill::test
