// Adds instructions to a block at a position, taking result ids from the module.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

class Builder {
  public:
    // New instructions go before block.instructions[position] (at the end if position == size).
    Builder(Module& module, BasicBlock& block, size_t position);

    // Adds `opcode` with `operands` after its result type (`type`, ignored if the opcode has none) and
    // its result id (if it has one), which it returns; 0 for an opcode without a result. The result
    // id is `result` when given (an instruction taking over an existing id), else a new one.
    uint32_t add(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands, uint32_t result = 0);
    uint32_t add(uint32_t opcode, uint32_t type, std::initializer_list<uint32_t> operands, uint32_t result = 0) {
        return add(opcode, type, std::span(operands.begin(), operands.size()), result);
    }

    // Where the next instruction goes; it moves past every instruction added.
    size_t position() const { return position_; }

  private:
    Module& module_;
    BasicBlock& block_;
    size_t position_;
};

// Replaces block.instructions[i] by what `emit(builder, old)` adds in its place (the old instruction
// lives through the call; its result id may be given to an added one). Returns the index of the last
// instruction added.
template <typename Emit>
size_t replace_instruction(Module& module, BasicBlock& block, size_t i, Emit&& emit) {
    std::unique_ptr<Instruction> old = std::move(block.instructions[i]);
    block.instructions.erase(block.instructions.begin() + static_cast<std::ptrdiff_t>(i));
    Builder b(module, block, i);
    emit(b, *old);
    return b.position() - 1;
}

}  // namespace vkpolyfill::lowering::ir
