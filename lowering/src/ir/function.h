// A function's instructions in layout order: blocks are plain containers, control flow is not
// analysed here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <list>
#include <spirv/unified1/spirv.hpp>

#include "ir/instruction.h"

namespace vkpolyfill::lowering::ir {

struct BasicBlock {
    InstructionList instructions;  // OpLabel first, the terminator last
    InstructionList trailing;      // debug-only instructions after the terminator (spirv-opt's DebugNoScope)

    uint32_t label_id() const { return instructions.front()->result_id(); }
};

struct Function {
    InstructionList header;  // OpFunction, its OpFunctionParameters, OpLine/OpNoLine before the first block
    std::list<BasicBlock> blocks;  // a list so passes can split and insert blocks while iterating
    // OpFunctionEnd, then the OpLine/OpNoLine/non-semantic OpExtInst that precede the next function.
    InstructionList epilogue;

    uint32_t id() const { return header.front()->result_id(); }
    // The OpFunctionParameters it declares: spirv-val compares them with its type only at calls, so a
    // pass that adds a call or rebuilds the type from them checks the count.
    size_t declared_parameters() const {
        return std::ranges::count_if(header, [](const auto& i) { return i->opcode() == spv::OpFunctionParameter; });
    }

    template <typename Visit>
    void for_each_instruction(Visit&& visit) const {
        for (const auto& instruction : header) visit(*instruction);
        for (const BasicBlock& block : blocks) {
            for (const auto& instruction : block.instructions) visit(*instruction);
            for (const auto& instruction : block.trailing) visit(*instruction);
        }
        for (const auto& instruction : epilogue) visit(*instruction);
    }
};

}  // namespace vkpolyfill::lowering::ir
