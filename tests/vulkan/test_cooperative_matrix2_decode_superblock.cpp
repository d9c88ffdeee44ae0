// Decode functions written as llama.cpp's K-quant and IQ kernels write them
// (shaders/tests/coopmat2/tensor_decode_superblock.comp): 256-weight super-blocks with a scale and a
// minimum per 32 weights, read through buffer-reference casts to a second packed view of the block,
// and a code book the workgroup copies to shared memory, directly and through helper functions the
// pointer is passed on to; the weights come from a StorageBuffer descriptor. Checked against a CPU dequantization (a subgroup-scope tile) and a CPU GEMM (a
// workgroup-scope GEMM with clamped edges), lowered by the library and by the layer.
#include <gtest/gtest.h>

#include <cstring>

#include "coopmat_scalars.h"
#include "coopmat2_target.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using coopmat::half_from_double;

constexpr uint32_t kWeights = 256, kBlockBytes = 140;  // dm, 8 scale bytes, 128 bytes of nibbles
constexpr int kCodeBook[16] = {-31, -25, -19, -14, -10, -6, -3, -1, 1, 3, 6, 10, 14, 19, 25, 31};  // / 4

// An M x K weight tensor, super-blocks along K, with its dequantized values. The values are chosen
// so that the shader's f16 arithmetic is exact: every intermediate is a multiple of 1/16 below 128.
struct SuperBlockWeights {
    uint32_t rows, columns;
    std::vector<uint8_t> bytes;
    std::vector<float> values;
};

SuperBlockWeights make_weights(uint32_t rows, uint32_t columns) {
    SuperBlockWeights w{rows, columns, {}, std::vector<float>(rows * columns)};
    const uint32_t blocks = rows * columns / kWeights;
    w.bytes.assign(blocks * kBlockBytes, 0);
    for (uint32_t block = 0; block < blocks; ++block) {
        uint8_t* bytes = &w.bytes[block * kBlockBytes];
        const double d = block % 2 ? 0.25 : 0.5, m = block % 3 ? 0.5 : 0.25;
        const uint16_t dm[2] = {half_from_double(d), half_from_double(m)};
        std::memcpy(bytes, dm, 4);
        for (uint32_t sub = 0; sub < 8; ++sub) {
            const uint32_t scale = (block * 5 + sub * 3) % 8, minimum = (block + sub * 7) % 16;
            bytes[4 + sub] = uint8_t(scale | minimum << 4);
        }
        for (uint32_t i = 0; i < kWeights; ++i) {
            const uint32_t element = block * kWeights + i;  // row-major: blocks run along the row
            const uint32_t q = (element * 7 + block * 3) % 16;
            bytes[12 + i / 2] |= uint8_t(i % 2 ? q << 4 : q);
            const uint8_t scale_min = bytes[4 + i / 32];
            w.values[element] = float(d * (scale_min & 0xF) * kCodeBook[q] / 4.0 - m * (scale_min >> 4));
        }
    }
    return w;
}

std::vector<float> run(uint32_t op, std::vector<uint32_t> params, const SuperBlockWeights& w, std::vector<float> b,
                       size_t outputs, uint32_t groups, bool through_layer) {
    return run_block_load({"tests/coopmat2/tensor_decode_superblock.comp", op, std::move(params), {w.bytes}, std::move(b),
                           outputs, groups, groups, through_layer});
}

// A 16 x 64 tile that straddles two super-blocks and the tensor's last row (0 beyond it).
void check_tile(uint32_t op, bool through_layer) {
    const SuperBlockWeights w = make_weights(20, 512);
    constexpr uint32_t first_row = 8, first_column = 224;
    const std::vector<float> got = run(op, {w.rows, 0, w.columns, first_row, first_column}, w, {}, 16 * 64, 1, through_layer);
    ASSERT_EQ(got.size(), 16u * 64u);
    for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t c = 0; c < 64; ++c) {
            const uint32_t row = first_row + r, column = first_column + c;
            const float expected = row < w.rows ? w.values[row * w.columns + column] : 0.0f;
            ASSERT_EQ(got[r * 64 + c], expected) << "row " << row << " column " << column;
        }
    }
}

TEST(CooperativeMatrix2DecodeSuperBlock, TileMatchesCpu) { check_tile(0, false); }
TEST(CooperativeMatrix2DecodeSuperBlock, TileThroughTheLayerMatchesCpu) { check_tile(0, true); }
// The decode function hands its pointer on to helper functions: their clones read through the offset.
TEST(CooperativeMatrix2DecodeSuperBlock, DecodeThroughHelperFunctionsMatchesCpu) { check_tile(2, false); }
TEST(CooperativeMatrix2DecodeSuperBlock, DecodeThroughHelperFunctionsThroughTheLayerMatchesCpu) { check_tile(2, true); }

// A workgroup-scope GEMM with M and N not multiples of its 32 x 32 tile.
void check_gemm(bool through_layer) {
    constexpr uint32_t M = 40, N = 48, K = 512;
    const SuperBlockWeights a = make_weights(M, K);
    std::vector<float> b(K * N);
    for (uint32_t i = 0; i < b.size(); ++i) b[i] = float(int((i * 11 + 3) % 9) - 4) / 4.0f;  // exact in f16
    const std::vector<float> got = run(1, {M, N, K, 0, 0}, a, b, M * N, 2, through_layer);
    ASSERT_EQ(got.size(), size_t{M} * N);
    for (uint32_t m = 0; m < M; ++m) {
        for (uint32_t n = 0; n < N; ++n) {
            double expected = 0;
            for (uint32_t k = 0; k < K; ++k) expected += double(a.values[m * K + k]) * b[k * N + n];
            // Products are multiples of 1/64 below 35 and the sums stay below 2^15: any order of f32
            // additions is exact.
            ASSERT_EQ(got[m * N + n], float(expected)) << "row " << m << " column " << n;
        }
    }
}

TEST(CooperativeMatrix2DecodeSuperBlock, WorkgroupGemmMatchesCpu) { check_gemm(false); }
TEST(CooperativeMatrix2DecodeSuperBlock, WorkgroupGemmThroughTheLayerMatchesCpu) { check_gemm(true); }

}  // namespace
}  // namespace vkpolyfill::test
