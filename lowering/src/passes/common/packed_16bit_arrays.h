// Arrays of 16-bit numbers held in registers (Function and Private variables, values) become arrays of
// two-component vectors: element i is component i % 2 of vector i / 2. GPU compilers give a 16-bit
// scalar a whole 32-bit register but keep a 16-bit 2-vector in one, so a lowered matrix of f16
// components (flash attention's Q, K, V, P and O) takes half the registers. Measured with NAK: 64
// halves carried around a loop took 72 registers as halves and 40 as pairs (ACO: 40 both ways).
// Arrays the rewrite cannot follow everywhere (laid out in memory, nested in other types, used by an
// instruction it does not know) stay as they are.
#pragma once

#include "ir/module.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering {

// Returns whether any array was packed.
bool pack_16bit_arrays(ir::Module& module, ir::TypeManager& types);

}  // namespace vkpolyfill::lowering
