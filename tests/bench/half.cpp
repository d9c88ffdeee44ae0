#include "half.h"

#include <bit>

namespace vkpolyfill::bench {

uint16_t half_from_float(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
    if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
    if (magnitude < 0x38800000u) {
        // A half subnormal (or zero): value / 2^-24, rounded to nearest even by the FPU's own float rounding.
        const float scaled = std::bit_cast<float>(magnitude) * 16777216.0f;  // 2^24: exact
        const float rounded = (scaled + 8388608.0f) - 8388608.0f;             // 2^23: round to an integer
        return static_cast<uint16_t>(sign | static_cast<uint32_t>(rounded));
    }
    // Normal: rebias the exponent and round the 13 dropped mantissa bits to nearest even; a carry
    // into the exponent is the right answer.
    const uint32_t rebiased = magnitude - ((127u - 15u) << 23);
    const uint32_t round = 0xfffu + ((rebiased >> 13) & 1u);
    return static_cast<uint16_t>(sign | ((rebiased + round) >> 13));
}

float float_from_half(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu;
    const uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        const float value = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // m * 2^-24, exact
        return sign ? -value : value;
    }
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 127u - 15u) << 23) | (mantissa << 13));
}

}  // namespace vkpolyfill::bench
