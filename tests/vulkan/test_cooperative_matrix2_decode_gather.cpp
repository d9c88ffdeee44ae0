// Tensor loads whose decode functions gather rows by their coordinates, as llama.cpp's
// mixture-of-experts GEMM gathers the rows routed to an expert
// (shaders/tests/coopmat2/tensor_decode_gather.comp): the decode block is a buffer reference to a
// runtime array, which has no size, and the functions never read through it. A B matrix through a
// transposing view and an A matrix through the vector function, against the gathered rows on the
// CPU, lowered by the library and by the layer.
#include <gtest/gtest.h>

#include "coopmat2_target.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kRowLength = 40, kSourceRows = 6, kGathered = 16, kTileLength = 32;

// Element k of source row r: quarters from -11/4 to 11/4, exact in f16.
float source(uint32_t r, uint32_t k) { return float(int((r * kRowLength + k) * 7 % 23) - 11) / 4.0f; }

// Which source row the tile's row (or column) i gathers: out of order, some twice, some not at all.
uint32_t gathered_row(uint32_t i) { return (i * 5 + 3) % kSourceRows; }

// OP 0: a 32 x 16 B matrix, column i gathered; OP 1: a 16 x 32 A matrix, row i gathered. Row-major.
void check(uint32_t op, bool through_layer) {
    std::vector<uint32_t> params{kRowLength};
    for (uint32_t i = 0; i < kGathered; ++i) params.push_back(gathered_row(i));
    std::vector<float> x(kSourceRows * kRowLength);
    for (uint32_t r = 0; r < kSourceRows; ++r) {
        for (uint32_t k = 0; k < kRowLength; ++k) x[r * kRowLength + k] = source(r, k);
    }
    const std::vector<float> got = run_block_load({"tests/coopmat2/tensor_decode_gather.comp", op, std::move(params), {},
                                                   std::move(x), kGathered * kTileLength, 1, 1, through_layer, true});
    ASSERT_EQ(got.size(), size_t{kGathered} * kTileLength);
    for (uint32_t i = 0; i < kGathered; ++i) {
        for (uint32_t k = 0; k < kTileLength; ++k) {
            const float value = op == 0 ? got[k * kGathered + i] : got[i * kTileLength + k];
            ASSERT_EQ(value, source(gathered_row(i), k)) << "gathered " << i << ", element " << k;
        }
    }
}

TEST(CooperativeMatrix2DecodeGather, BThroughAViewMatchesCpu) { check(0, false); }
TEST(CooperativeMatrix2DecodeGather, BThroughAViewThroughTheLayerMatchesCpu) { check(0, true); }
TEST(CooperativeMatrix2DecodeGather, AThroughTheVectorFunctionMatchesCpu) { check(1, false); }
TEST(CooperativeMatrix2DecodeGather, AThroughTheVectorFunctionThroughTheLayerMatchesCpu) { check(1, true); }

}  // namespace
}  // namespace vkpolyfill::test
