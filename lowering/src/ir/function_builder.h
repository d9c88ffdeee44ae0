// Makes a new function for a pass: generated helpers (a matrix load, an element-wise operation) that
// the rewritten instructions call, which keeps each call site one instruction.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/builder.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering::ir {

class FunctionBuilder {
  public:
    FunctionBuilder(Module& module, TypeManager& types, uint32_t return_type, std::span<const uint32_t> parameter_types);

    uint32_t id() const { return id_; }
    uint32_t parameter(size_t index) const { return parameters_[index]; }

    // Instructions go at the end of the current block.
    Builder& body() { return *builder_; }
    // A Function-storage variable in the entry block (where SPIR-V requires them).
    uint32_t add_variable(uint32_t pointer_type);

    // Structured `if (condition) { ... }`: what is added between the two calls runs only when the
    // condition holds.
    void begin_if(uint32_t condition);
    void end_if();

    // Structured `for (i = 0; i < count; ++i) { ... }` with `count` a uint id: returns i (a uint id)
    // for the body added between the two calls. A loop keeps code that would be the same for every
    // i once, where unrolling it would multiply what the driver compiles. `loop_control` is the
    // OpLoopMerge's Loop Control (DontUnroll asks the driver to keep the loop too).
    uint32_t begin_loop(uint32_t count, uint32_t loop_control = spv::LoopControlMaskNone);
    void end_loop();

    // Ends the current block with OpReturnValue `value` (OpReturn when 0) and adds the function to
    // the module. The builder must not be used afterwards.
    void finish(uint32_t value);

  private:
    void start_block(uint32_t label);

    Module& module_;
    std::unique_ptr<Function> function_;
    uint32_t id_;
    std::vector<uint32_t> parameters_;
    std::optional<Builder> builder_;
    struct Loop {
        uint32_t counter, index, header, continue_label, merge;
    };
    TypeManager& types_;
    std::vector<uint32_t> merge_labels_;  // of the open ifs, innermost last
    std::vector<Loop> loops_;             // the open loops, innermost last
};

}  // namespace vkpolyfill::lowering::ir
