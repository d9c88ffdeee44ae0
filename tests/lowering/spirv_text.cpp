#include "spirv_text.h"

#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#include <string>

namespace vkpolyfill::lowering::test {

std::vector<uint32_t> assemble(std::string_view text) {
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        messages += message;
    });
    std::vector<uint32_t> words;
    EXPECT_TRUE(tools.Assemble(text.data(), text.size(), &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
        << messages << "\n" << text;
    return words;
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

std::optional<size_t> find_opcode(const std::vector<uint32_t>& words, uint32_t opcode, size_t n) {
    for (size_t offset = 5; offset < words.size() && (words[offset] >> 16) != 0; offset += words[offset] >> 16) {
        if ((words[offset] & 0xFFFFu) == opcode && n-- == 0) return offset;
    }
    return std::nullopt;
}

}  // namespace vkpolyfill::lowering::test
