// A module's words read without the lowering library (its checks must not share the library's
// mistakes): definitions by id, decorations, capabilities, and the function code in order with the
// block each instruction is in.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace vkpolyfill::lowering::test {

using Words = std::vector<uint32_t>;

struct CodeInstruction {
    Words words;
    uint32_t block = 0;  // the OpLabel id of its block
};

struct SpirvFacts {
    std::map<uint32_t, Words> definitions;       // result id -> its instruction (types, constants, variables, code)
    std::multimap<uint32_t, Words> decorations;  // target -> OpDecorate's words after the target
    std::multimap<std::pair<uint32_t, uint32_t>, Words> member_decorations;  // (struct, member) -> the rest
    std::set<uint32_t> capabilities;
    std::set<std::string> extensions;
    std::vector<CodeInstruction> code;

    // The first literal of `decoration` on `id` (0 when it has none), nullopt if not decorated so.
    std::optional<uint32_t> decoration(uint32_t id, uint32_t decoration) const;
    std::optional<uint32_t> member_decoration(uint32_t structure, uint32_t member, uint32_t decoration) const;
    uint32_t opcode_of(uint32_t id) const;
    // The value of an OpConstant (low word), nullopt for anything else.
    std::optional<uint32_t> constant(uint32_t id) const;
    size_t count(uint32_t opcode) const;
};

SpirvFacts read_facts(const Words& words);

}  // namespace vkpolyfill::lowering::test
