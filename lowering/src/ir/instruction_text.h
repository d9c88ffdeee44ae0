// One instruction as text for diagnostics ("%7 = OpTypeFloat 16 BFloat16KHR"), close to spirv-dis
// but needing no whole valid module: malformed words come out raw.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ir/operand_walker.h"

namespace vkpolyfill::lowering::ir {

std::string instruction_text(std::span<const uint32_t> words, const OperandContext& context);
// The opcode's name and the first words in hex, for words that do not parse.
std::string raw_instruction_text(std::span<const uint32_t> words);
// instruction_text cut after the first operands, so a composite of 100,000 constituents stays one
// readable line.
std::string short_instruction_text(std::span<const uint32_t> words, const OperandContext& context);

}  // namespace vkpolyfill::lowering::ir
