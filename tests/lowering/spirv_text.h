// SPIR-V assembly for hand-made test modules, and small edits of their words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkpolyfill::lowering::test {

// spirv-as with numeric ids kept; fails the calling test if the text does not assemble.
std::vector<uint32_t> assemble(std::string_view text);

// `text` with its first `from` replaced by `to`; fails the calling test if there is none.
std::string replaced(std::string text, std::string_view from, std::string_view to);

// Word offset of the n-th instruction with `opcode` (0-based), nullopt if there is none.
std::optional<size_t> find_opcode(const std::vector<uint32_t>& words, uint32_t opcode, size_t n = 0);

// A compute shader with one empty function, the base most error tests damage.
inline constexpr std::string_view kMinimalCompute = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
OpName %1 "main"
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
%5 = OpConstant %4 7
%1 = OpFunction %2 None %3
%6 = OpLabel
%7 = OpIAdd %4 %5 %5
OpReturn
OpFunctionEnd
)";

}  // namespace vkpolyfill::lowering::test
