// IEEE 754 binary16 <-> binary32, for the benchmark's f16 inputs and its CPU reference.
#pragma once

#include <cstdint>

namespace vkpolyfill::bench {

// Rounds to nearest, ties to even; overflow gives infinity, NaN stays NaN.
uint16_t half_from_float(float value);
float float_from_half(uint16_t bits);

}  // namespace vkpolyfill::bench
