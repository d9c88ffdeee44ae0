// Code generated once per component an invocation holds (loads and stores, element-wise
// operations, per-element functions, relayouts, reductions, staging through shared memory, the
// multiply-add's widening) is written as a loop over the components, as the tensor loads are, once
// there are more than Target::unroll_up_to of them: the module, and the time a driver takes to
// compile it, then grow with the operation, not with the matrix. Fewer are written out one after
// the other, because a loop must keep the components in a Function-storage array it indexes, and on
// lavapipe that costs more than the longer code. Measured with the attention benchmark (16x16
// blocks, head dimension 16; A matrices hold 256 components an invocation, accumulators 32): looping
// above 32 made the lowered kernel 48.5 ms on lavapipe 26 and 70.6 ms on lavapipe 25, looping above
// 256 5.7 and 26.7 ms (tests/bench/README.md, "Attention benchmark"). The flexible-dimension GEMM (32x32x16
// subgroup matrices: A holds 512 components an invocation), 1024^3, CPU ms: looping above 256 made
// it 1014 on lavapipe 26 and 616 on 25, above 512 115 and 480 (the threshold now); lavapipe 25 then
// takes 25 s instead of 5 to compile it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/function_builder.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct Iteration {
    uint32_t index;                 // a uint id
    std::optional<uint32_t> fixed;  // the index as a number, when unrolled
};

// Whether `count` iterations are written out one after the other rather than as a loop.
bool unrolls(const LoweringState& state, uint32_t count);

// Adds `body` for each of `count` iterations at the end of `function`'s current block. The body
// adds its instructions through function.body() (it may open ifs and loops of its own).
void repeat(LoweringState& state, ir::FunctionBuilder& function, uint32_t count, const std::function<void(const Iteration&)>& body);

// value(0) combined with value(1), ..., value(count - 1) in that order by `combine` (accumulated,
// next), each a `type` id; count > 0.
uint32_t fold(LoweringState& state, ir::FunctionBuilder& function, uint32_t count, uint32_t type,
              const std::function<uint32_t(const Iteration&)>& value, const std::function<uint32_t(uint32_t, uint32_t)>& combine);

// The components of an array value (a lowered matrix) as repeat() iterates over them: read from the
// value when unrolled, from a Function variable holding it when looped; and the components of a new
// array, written one per iteration.
class Components {
  public:
    // `value`'s `count` components of `component_type`; `value` 0 for a new array of `array_type`.
    Components(LoweringState& state, ir::FunctionBuilder& function, uint32_t array_type, uint32_t component_type, uint32_t count,
               uint32_t value = 0);

    uint32_t get(const Iteration& i);
    void set(const Iteration& i, uint32_t component);
    // The whole array: the value, or what set() wrote (all of it must be written).
    uint32_t value();

  private:
    uint32_t pointer(const Iteration& i);

    LoweringState& state_;
    ir::FunctionBuilder& function_;
    uint32_t array_type_, component_type_;
    uint32_t value_ = 0;                // unrolled
    std::vector<uint32_t> written_;     // unrolled, a new array
    uint32_t variable_ = 0;             // looped
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
