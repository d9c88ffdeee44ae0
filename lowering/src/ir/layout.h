// The logical layout of a module (SPIR-V spec 2.4): which section each instruction belongs to.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/instruction.h"
#include "ir/operand_walker.h"

namespace vkpolyfill::lowering::ir {

enum class Section : uint8_t {
    Capabilities,
    Extensions,
    ExtInstImports,
    MemoryModel,
    EntryPoints,
    ExecutionModes,
    DebugSource,
    DebugNames,
    DebugModuleProcessed,
    Annotations,
    Types,
    Functions,
};

struct Placement {
    Section section;
    // A Types-section instruction that may also stand in a block: OpVariable, OpUndef, and the
    // debug-only ones below.
    bool also_in_blocks = false;
    // Debug-only instructions (OpLine, OpNoLine, non-semantic OpExtInst) may also stand between
    // functions and after a block's terminator (spirv-opt leaves DebugNoScope there).
    bool also_outside_blocks = false;
};

Placement placement_of(const Instruction& instruction, const OperandContext& context);
std::string_view section_name(Section section);
bool is_block_terminator(uint32_t opcode);

}  // namespace vkpolyfill::lowering::ir
