// Arrays of 16-bit numbers held in registers (Function and Private variables, values) become arrays of
// two-component vectors: element i is component i % 2 of vector i / 2. GPU compilers give a 16-bit
// scalar a whole 32-bit register but keep a 16-bit 2-vector in one, so a lowered matrix of f16
// components (flash attention's Q, K, V, P and O) takes half the registers. Measured with NAK: 64
// halves carried around a loop took 72 registers as halves and 40 as pairs (ACO: 40 both ways).
// Arrays the rewrite cannot follow everywhere (laid out in memory, nested in other types, used by an
// instruction it does not know) stay as they are.
//
// Where f16 arithmetic is emulated in f32 (the Float16 pass), a pair of halves would become a pair of
// f32 registers again; there each pair is held as a 32-bit word instead (PairForm::Word), bit cast to
// and from the pair where it is read or written, casts the Float16 pass turns into packHalf2x16 and
// unpackHalf2x16. Measured with NAK on a GTX 1080: llama.cpp's flash attention at head 128 spilled
// 446 registers with pairs of f32, 150 with words.
#pragma once

#include "ir/module.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering {

enum class PairForm {
    Vector,  // a two-component vector of the 16-bit type
    Word,    // a 32-bit unsigned integer: component 0 in its low half
};

// Returns whether any array was packed.
bool pack_16bit_arrays(ir::Module& module, ir::TypeManager& types, PairForm form = PairForm::Vector);

}  // namespace vkpolyfill::lowering
