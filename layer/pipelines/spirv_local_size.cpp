#include "pipelines/spirv_local_size.h"

#include <cstring>

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill {
namespace {

constexpr size_t kHeaderWords = 5;

// Whether a literal string operand starting at words[0] equals `name` (nul-terminated, packed four
// characters a word, first character in the low byte).
bool literal_equals(std::span<const uint32_t> words, std::string_view name) {
    const size_t bytes = words.size() * sizeof(uint32_t);
    if (bytes <= name.size()) return false;
    const char* text = reinterpret_cast<const char*>(words.data());
    return std::memcmp(text, name.data(), name.size()) == 0 && text[name.size()] == '\0';
}

}  // namespace

std::optional<uint32_t> literal_local_size_x(std::span<const uint32_t> words, std::string_view entry_point) {
    if (words.size() < kHeaderWords || words[0] != spv::MagicNumber) return std::nullopt;
    std::optional<uint32_t> entry_id, local_size_x;
    for (size_t offset = kHeaderWords; offset < words.size();) {
        const uint32_t count = words[offset] >> 16;
        const uint32_t opcode = words[offset] & 0xffffu;
        if (count == 0 || count > words.size() - offset) return std::nullopt;
        const std::span<const uint32_t> operands = words.subspan(offset + 1, count - 1);
        if (opcode == spv::OpFunction) break;  // the declarations are over
        if (opcode == spv::OpEntryPoint && operands.size() >= 3 && operands[0] == spv::ExecutionModelGLCompute &&
            literal_equals(operands.subspan(2), entry_point)) {
            entry_id = operands[1];
        } else if (opcode == spv::OpExecutionMode && operands.size() >= 3 && operands[1] == spv::ExecutionModeLocalSize &&
                   entry_id == operands[0]) {
            local_size_x = operands[2];
        } else if (opcode == spv::OpExecutionModeId && operands.size() >= 2 && operands[1] == spv::ExecutionModeLocalSizeId &&
                   entry_id == operands[0]) {
            return std::nullopt;
        } else if (opcode == spv::OpDecorate && operands.size() >= 3 && operands[1] == spv::DecorationBuiltIn &&
                   operands[2] == spv::BuiltInWorkgroupSize) {
            return std::nullopt;
        }
        offset += count;
    }
    return local_size_x;
}

}  // namespace vkpolyfill
