// Between an f16's 16 bits, as an unsigned 16-bit integer, and the f32 that holds its value in the
// emulation: unpackHalf2x16 and packHalf2x16 of a 32-bit word whose other half is zero (exact, since
// the emulation keeps every value one an f16 can hold).
#pragma once

#include <cstdint>

#include "ir/builder.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering::float16 {

uint32_t single_of_bits(ir::Builder& b, ir::Module& module, ir::TypeManager& types, uint32_t bits);
uint32_t bits_of_single(ir::Builder& b, ir::Module& module, ir::TypeManager& types, uint32_t value);

}  // namespace vkpolyfill::lowering::float16
