// Making and describing instructions for the pass, including ones longer than SPIR-V's 65,535 words
// that it holds while it works: a composite merged with its continuations, before it is split into
// nested composites that each fit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "ir/module.h"

namespace vkpolyfill::lowering::long_composites {


// Like ir::make_instruction, for any length: word 0 carries the word count only when it fits.
// `source_offset` is where the instruction it stands for was in the input, for messages.
std::unique_ptr<ir::Instruction> make_long_instruction(uint32_t opcode, std::span<const uint32_t> operand_words,
                                                       uint32_t source_offset);

// Adds an instruction with a fresh result id (after its result type `type`, 0 for none) and returns the id.
using Emit = std::function<uint32_t(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands)>;

// An Emit appending to `list` and registering each instruction with `module`.
Emit emit_into(ir::Module& module, ir::InstructionList& list);

}  // namespace vkpolyfill::lowering::long_composites
