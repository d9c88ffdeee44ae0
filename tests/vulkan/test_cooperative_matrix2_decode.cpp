// Tensor loads with a DecodeFunc (SPV_NV_cooperative_matrix2 block loads), lowered by the library
// for the device's subgroup size and run on the driver without the layer: llama.cpp-style Q4_0 and
// Q8_0 weights (blocks of 32 with an f16 scale) read from StorageBuffer descriptors by decode
// functions written for buffer references (Q8_0 also from a uint8_t array, as llama.cpp's flash
// attention declares K and V, and from such an array through a buffer reference), against a CPU dequantization; and a GEMM whose A comes
// through Q4_0 decoding and B (f16) through a tensor layout, with M and N not multiples of the tile
// (Constant clamping on loads, discarded stores), against a CPU GEMM, lowered by the library and
// by the layer at pipeline creation (where the layer reports tensorAddressing and blockLoads).
#include <gtest/gtest.h>

#include <cstring>

#include "coopmat_scalars.h"
#include "coopmat2_target.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using coopmat::double_from_half;
using coopmat::half_from_double;

constexpr uint32_t kBlock = 32;
constexpr size_t kQ4Bytes = 18, kQ8Bytes = 34;  // f16 scale, then 16 bytes of nibbles or 32 int8

// An M x K weight tensor, row-major blocks of 32 along K, with its dequantized values.
struct Weights {
    uint32_t rows, columns;
    std::vector<uint8_t> q4, q8;  // the blocks' bytes
    std::vector<float> q4_values, q8_values;
};

Weights make_weights(uint32_t rows, uint32_t columns) {
    Weights w{rows, columns, {}, {}, std::vector<float>(rows * columns), std::vector<float>(rows * columns)};
    const uint32_t blocks = rows * columns / kBlock;
    w.q4.resize(blocks * kQ4Bytes);
    w.q8.resize(blocks * kQ8Bytes);
    for (uint32_t block = 0; block < blocks; ++block) {
        const float d = block % 3 == 0 ? 0.25f : block % 3 == 1 ? 0.5f : 2.0f;
        const uint16_t d_bits = half_from_double(d);
        uint8_t* q4 = &w.q4[block * kQ4Bytes];
        uint8_t* q8 = &w.q8[block * kQ8Bytes];
        std::memcpy(q4, &d_bits, 2);
        std::memcpy(q8, &d_bits, 2);
        for (uint32_t i = 0; i < kBlock; ++i) {
            const uint32_t element = block * kBlock + i;  // row-major: blocks run along the row
            const uint8_t nibble = uint8_t((element * 7 + block) % 16);
            q4[2 + i % 16] |= uint8_t(i < 16 ? nibble : nibble << 4);  // ggml: low nibbles first
            w.q4_values[element] = float(int(nibble) - 8) * d;
            const auto byte = int8_t(int((element * 13 + 5) % 255) - 127);
            std::memcpy(&q8[2 + i], &byte, 1);
            w.q8_values[element] = float(byte) * d;
        }
    }
    return w;
}

std::vector<float> run(uint32_t op, std::vector<uint32_t> params, const Weights& w, std::vector<float> b, size_t outputs,
                       uint32_t groups_x = 1, uint32_t groups_y = 1, bool through_layer = false) {
    return run_block_load({"tests/coopmat2/tensor_decode.comp", op, std::move(params), {w.q4, w.q8}, std::move(b), outputs,
                           groups_x, groups_y, through_layer});
}

// OP 0 and 1: a 16 x 64 tile at (first row, first column), outside the tensor the clamp value 0.
void check_tile(uint32_t op, uint32_t first_row, uint32_t first_column) {
    const Weights w = make_weights(20, 128);
    const std::vector<float>& values = op == 0 ? w.q4_values : w.q8_values;
    const std::vector<float> got = run(op, {w.rows, 0, w.columns, first_row, first_column}, w, {}, 16 * 64);
    ASSERT_EQ(got.size(), 16u * 64u);
    for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t c = 0; c < 64; ++c) {
            const uint32_t row = first_row + r, column = first_column + c;
            const float expected = row < w.rows && column < w.columns ? values[row * w.columns + column] : 0.0f;
            ASSERT_EQ(got[r * 64 + c], expected) << "row " << row << " column " << column;
        }
    }
}

TEST(CooperativeMatrix2Decode, Q4_0TileMatchesCpu) { check_tile(0, 8, 64); }
TEST(CooperativeMatrix2Decode, Q8_0TileMatchesCpu) { check_tile(1, 0, 96); }
// The 34-byte blocks from a uint8_t array: the decode pointer steps by its own pointee, not the array's bytes.
TEST(CooperativeMatrix2Decode, Q8_0TileFromBytesMatchesCpu) { check_tile(3, 4, 32); }
// The same from a PhysicalStorageBuffer uint8_t array (a buffer reference).
TEST(CooperativeMatrix2Decode, Q8_0TileFromBufferReferenceBytesMatchesCpu) { check_tile(4, 4, 32); }

void check_gemm(bool through_layer) {
    constexpr uint32_t M = 40, N = 24, K = 64;
    const Weights a = make_weights(M, K);
    std::vector<float> b(K * N);
    for (uint32_t i = 0; i < b.size(); ++i) b[i] = float(int((i * 11 + 3) % 9) - 4) / 4.0f;  // exact in f16
    const std::vector<float> got = run(2, {M, N, K, 0, 0}, a, b, M * N, (N + 15) / 16, (M + 15) / 16, through_layer);
    ASSERT_EQ(got.size(), size_t{M} * N);
    for (uint32_t m = 0; m < M; ++m) {
        for (uint32_t n = 0; n < N; ++n) {
            float expected = 0;  // every product and sum is exact in f32
            for (uint32_t k = 0; k < K; ++k) expected += a.q4_values[m * K + k] * b[k * N + n];
            ASSERT_EQ(got[m * N + n], expected) << "row " << m << " column " << n;
        }
    }
}

TEST(CooperativeMatrix2Decode, GemmWithQ4_0WeightsMatchesCpu) { check_gemm(false); }
TEST(CooperativeMatrix2Decode, GemmWithQ4_0WeightsThroughTheLayerMatchesCpu) { check_gemm(true); }

}  // namespace
}  // namespace vkpolyfill::test
