#include "spirv_facts.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::test {

std::optional<uint32_t> SpirvFacts::decoration(uint32_t id, uint32_t wanted) const {
    const auto [first, last] = decorations.equal_range(id);
    for (auto it = first; it != last; ++it) {
        if (it->second[0] == wanted) return it->second.size() > 1 ? it->second[1] : 0;
    }
    return std::nullopt;
}

std::optional<uint32_t> SpirvFacts::member_decoration(uint32_t structure, uint32_t member, uint32_t wanted) const {
    const auto [first, last] = member_decorations.equal_range({structure, member});
    for (auto it = first; it != last; ++it) {
        if (it->second[0] == wanted) return it->second.size() > 1 ? it->second[1] : 0;
    }
    return std::nullopt;
}

uint32_t SpirvFacts::opcode_of(uint32_t id) const {
    const auto it = definitions.find(id);
    return it == definitions.end() ? 0 : it->second[0] & 0xFFFFu;
}

std::optional<uint32_t> SpirvFacts::constant(uint32_t id) const {
    if (opcode_of(id) != spv::OpConstant) return std::nullopt;
    return definitions.at(id)[3];
}

size_t SpirvFacts::count(uint32_t opcode) const {
    size_t n = 0;
    for (const CodeInstruction& i : code) n += (i.words[0] & 0xFFFFu) == opcode;
    return n;
}

SpirvFacts read_facts(const Words& words) {
    SpirvFacts facts;
    bool in_function = false;
    uint32_t block = 0;
    for (size_t offset = 5; offset < words.size() && (words[offset] >> 16) != 0; offset += words[offset] >> 16) {
        const Words instruction(words.begin() + static_cast<ptrdiff_t>(offset),
                                words.begin() + static_cast<ptrdiff_t>(offset + (words[offset] >> 16)));
        const auto opcode = static_cast<spv::Op>(instruction[0] & 0xFFFFu);
        bool has_result = false, has_type = false;
        spv::HasResultAndType(opcode, &has_result, &has_type);
        if (has_result) facts.definitions[instruction[has_type ? 2 : 1]] = instruction;
        switch (opcode) {
            case spv::OpCapability: facts.capabilities.insert(instruction[1]); break;
            case spv::OpExtension:
                facts.extensions.insert(reinterpret_cast<const char*>(instruction.data() + 1));
                break;
            case spv::OpDecorate:
                facts.decorations.emplace(instruction[1], Words(instruction.begin() + 2, instruction.end()));
                break;
            case spv::OpMemberDecorate:
                facts.member_decorations.emplace(std::pair{instruction[1], instruction[2]},
                                                 Words(instruction.begin() + 3, instruction.end()));
                break;
            case spv::OpFunction: in_function = true; break;
            case spv::OpFunctionEnd: in_function = false; break;
            case spv::OpLabel: block = instruction[1]; break;
            default: break;
        }
        if (in_function) facts.code.push_back({instruction, block});
    }
    return facts;
}

}  // namespace vkpolyfill::lowering::test
