#include "gemm_tile.h"

#include <cmath>
#include <format>

namespace vkpolyfill::test {
namespace {

// IEEE half from a small integer (exact): sign, exponent, mantissa by hand to avoid a f16 type.
uint16_t half_from_int(int value) {
    if (value == 0) return 0;
    const uint16_t sign = value < 0 ? 0x8000 : 0;
    uint32_t magnitude = static_cast<uint32_t>(std::abs(value));
    int exponent = 0;
    while ((magnitude >> exponent) > 1) ++exponent;
    const uint32_t mantissa = (magnitude << (10 - exponent)) & 0x3FF;
    return static_cast<uint16_t>(sign | ((exponent + 15) << 10) | mantissa);
}

int value(uint32_t i, uint32_t salt) { return static_cast<int>((i * 7 + salt * 13) % 5) - 2; }

}  // namespace

std::string gemm_tile_mismatch(Context& context, const ComputePipeline& pipeline) {
    constexpr uint32_t kTiles = 3, kStride = 16 * kTiles;
    Buffer a = context.create_buffer(16 * kStride * 2);
    Buffer b = context.create_buffer(16 * kTiles * kStride * 2);
    Buffer c = context.create_buffer(16 * kStride * 4);
    for (uint32_t i = 0; i < a.size / 2; ++i) a.as<uint16_t>()[i] = half_from_int(value(i, 1));
    for (uint32_t i = 0; i < b.size / 2; ++i) b.as<uint16_t>()[i] = half_from_int(value(i, 2));
    const uint32_t push[] = {kTiles, kStride};
    static_assert(sizeof(push) == kGemmTilePushBytes);
    const Buffer* buffers[] = {&a, &b, &c};
    context.dispatch(pipeline, buffers, std::as_bytes(std::span(push)), 1);

    // The shader's own indexing: A row-major at a[k*16 + r*stride + kk], B column-major at
    // b[k*16*stride + col*stride + kk], C row-major at c[r*stride + col].
    for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t col = 0; col < 16; ++col) {
            float expected = 0;
            for (uint32_t k = 0; k < kTiles; ++k) {
                for (uint32_t kk = 0; kk < 16; ++kk) {
                    expected += static_cast<float>(value(k * 16 + r * kStride + kk, 1) * value(k * 16 * kStride + col * kStride + kk, 2));
                }
            }
            const float got = c.as<float>()[r * kStride + col];
            if (got != expected) return std::format("row {} column {}: {} where the CPU has {}", r, col, got, expected);
        }
    }
    return "";
}

}  // namespace vkpolyfill::test
