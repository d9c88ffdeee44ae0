// Tensor loads with a DecodeVectorFunc (VK_NV_cooperative_matrix_decode_vector) against a CPU
// dequantization of a 4-bit block format (16 weights a block, w = q * d + m): A matrices decoded two
// and four weights a call, an accumulator (where the lowering decodes each weight with the
// scalar DecodeFunc, as the spec allows), a tile whose first column is not at the start of a group
// and whose edges fall outside the tensor (Constant clamping). Lowered by the library for the
// device's subgroup size, and by the layer at pipeline creation (where it reports the extension and
// its feature). Also a DecodeFunc load whose source is itself a PhysicalStorageBuffer pointer,
// run on the device with a real buffer address.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <cstring>

#include "coopmat2_target.h"
#include "coopmat_scalars.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using coopmat::half_from_double;

constexpr uint32_t kBlock = 16, kBlockBytes = 12;  // f16 d, f16 m, two words of nibbles
constexpr uint32_t kTileRows = 16, kTileColumns = 32;

// A rows x columns weight tensor, row-major blocks of 16 along a row, and its dequantized values.
struct Weights {
    uint32_t rows, columns;
    std::vector<uint8_t> blocks;
    std::vector<float> values;
};

Weights make_weights(uint32_t rows, uint32_t columns) {
    Weights w{rows, columns, std::vector<uint8_t>(rows * columns / kBlock * kBlockBytes), std::vector<float>(rows * columns)};
    for (uint32_t block = 0; block < rows * columns / kBlock; ++block) {
        const float d = block % 3 == 0 ? 0.25f : block % 3 == 1 ? 0.5f : 2.0f;
        const float m = block % 2 == 0 ? -1.0f : 3.0f;
        uint8_t* bytes = &w.blocks[block * kBlockBytes];
        const uint16_t halves[2] = {half_from_double(d), half_from_double(m)};
        std::memcpy(bytes, halves, 4);
        uint32_t words[2] = {0, 0};
        for (uint32_t i = 0; i < kBlock; ++i) {
            const uint32_t element = block * kBlock + i, q = (element * 7 + block / 3) % 16;
            words[i / 8] |= q << (4 * (i % 8));
            w.values[element] = float(q) * d + m;  // exact in f16
        }
        std::memcpy(bytes + 4, words, 8);
    }
    return w;
}

struct Run {
    uint32_t op;        // tensor_decode_vector.comp's OP
    bool through_layer;
};

struct Outcome {
    std::vector<float> tile;
    uint32_t scalar_calls, vector_calls;
    uint32_t invocations;  // the workgroup: one subgroup
};

std::vector<uint32_t> lowered_by_library(const Context& context, const std::string& shader) {
    const lowering::Result lowered = lowering::lower(read_shader(shader), coopmat2_target(context.physical_device, 16384), {});
    EXPECT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    EXPECT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");
    return lowered.words;
}

Outcome run(const Weights& w, uint32_t first_row, uint32_t first_column, const Run& r) {
    BlockLoadFeatures features;
    Context context(features.options(r.through_layer, true));
    const std::string shader = "tests/coopmat2/tensor_decode_vector.comp";
    const std::vector<uint32_t> words = r.through_layer ? read_shader(shader) : lowered_by_library(context, shader);
    if (words.empty()) return {};

    const uint32_t params[] = {w.rows, w.columns, first_row, first_column};
    Buffer parameters = context.create_buffer(sizeof(params));
    std::memcpy(parameters.mapped, params, sizeof(params));
    Buffer blocks = context.create_buffer(w.blocks.size());
    std::memcpy(blocks.mapped, w.blocks.data(), w.blocks.size());
    Buffer out = context.create_buffer(kTileRows * kTileColumns * sizeof(float));
    Buffer calls = context.create_buffer(2 * sizeof(uint32_t));
    const VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &r.op};
    ComputePipeline pipeline = context.create_compute_pipeline(words, 4, 0, &specialization);
    const Buffer* buffers[] = {&parameters, &blocks, &out, &calls};
    context.dispatch(pipeline, buffers, {}, 1);
    return {{out.as<float>().begin(), out.as<float>().end()}, calls.as<uint32_t>()[0], calls.as<uint32_t>()[1], context.subgroup_size};
}

// The tile at (first row, first column) against the CPU; outside the tensor, the clamp value 0.
// Returns how many of its elements are inside the tensor.
uint32_t expect_tile(const Weights& w, uint32_t first_row, uint32_t first_column, const std::vector<float>& got) {
    EXPECT_EQ(got.size(), size_t{kTileRows} * kTileColumns);
    uint32_t inside = 0;
    for (uint32_t r = 0; r < kTileRows && got.size() == kTileRows * kTileColumns; ++r) {
        for (uint32_t c = 0; c < kTileColumns; ++c) {
            const uint32_t row = first_row + r, column = first_column + c;
            const bool in = row < w.rows && column < w.columns;
            inside += in ? 1 : 0;
            EXPECT_EQ(got[r * kTileColumns + c], in ? w.values[row * w.columns + column] : 0.0f) << "row " << row << " column " << column;
        }
    }
    return inside;
}

// An 18 x 48 tensor, the tile at (4, 22): rows 18-19 and columns 48-53 outside, and the first
// column 6 weights into its block (not the start of a group of 4).
constexpr uint32_t kRows = 18, kColumns = 48, kFirstRow = 4, kFirstColumn = 22;

// An A matrix, which every invocation holds row by row: the vector function serves each group of V
// in-bounds weights with one call, so there are fewer calls than weights decoded.
void check_vector_decode(uint32_t op, uint32_t v, bool through_layer) {
    const Weights w = make_weights(kRows, kColumns);
    const Outcome got = run(w, kFirstRow, kFirstColumn, {op, through_layer});
    const uint32_t inside = expect_tile(w, kFirstRow, kFirstColumn, got.tile);
    const uint32_t invocations = got.invocations, decoded = inside * invocations;  // the subgroup's A copies, one per invocation
    EXPECT_EQ(got.scalar_calls, 0u);
    EXPECT_GT(got.vector_calls, 0u);
    // A row's in-bounds weights span at most (span / V) + 2 groups (one partial at each end).
    const uint32_t rows_inside = kRows - kFirstRow, span = kColumns - kFirstColumn;
    EXPECT_LE(got.vector_calls, invocations * rows_inside * (span / v + 2)) << "of " << decoded << " weights";
}

TEST(CooperativeMatrix2DecodeVector, FourAtATimeMatchesCpu) { check_vector_decode(0, 4, false); }
TEST(CooperativeMatrix2DecodeVector, TwoAtATimeMatchesCpu) { check_vector_decode(1, 2, false); }
TEST(CooperativeMatrix2DecodeVector, FourAtATimeThroughTheLayerMatchesCpu) { check_vector_decode(0, 4, true); }

// An accumulator, whose columns are dealt over the invocations: each weight through DecodeFunc.
TEST(CooperativeMatrix2DecodeVector, AccumulatorDecodesEachElementWithDecodeFunc) {
    const Weights w = make_weights(kRows, kColumns);
    const Outcome got = run(w, kFirstRow, kFirstColumn, {2, false});
    const uint32_t inside = expect_tile(w, kFirstRow, kFirstColumn, got.tile);
    EXPECT_EQ(got.vector_calls, 0u);
    EXPECT_EQ(got.scalar_calls, inside);  // the subgroup holds each accumulator element once
}

TEST(CooperativeMatrix2DecodeVector, LayerReportsTheExtensionAndItsFeature) {
    Context without_layer({.layer = false});
    Context with_layer({});
    EXPECT_FALSE(lists_device_extension(without_layer.physical_device, VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME));
    EXPECT_TRUE(lists_device_extension(with_layer.physical_device, VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME));
    VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV decode_vector = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2 = vku::InitStructHelper(&decode_vector);
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&coopmat2);
    vkGetPhysicalDeviceFeatures2(with_layer.physical_device, &features);
    EXPECT_TRUE(decode_vector.cooperativeMatrixDecodeVector);
    EXPECT_TRUE(coopmat2.cooperativeMatrixBlockLoads);  // which the extension requires
}

// tensor_decode_reference.comp: Q8_0 blocks (an f16 scale, 32 int8) reached through a buffer
// reference in push constants, so the load's source and the decode function's pointer are both
// PhysicalStorageBuffer; a 16 x 32 tile of a 12 x 32 tensor (rows 12-15 clamp to 0).
TEST(CooperativeMatrix2DecodeVector, DecodeFromABufferReferenceMatchesCpu) {
    BlockLoadFeatures features;
    Context context(features.options(false));
    const std::vector<uint32_t> words = lowered_by_library(context, "tests/coopmat2/tensor_decode_reference.comp");
    ASSERT_FALSE(words.empty());

    constexpr uint32_t rows = 12, columns = 32, block_bytes = 34;
    Buffer blocks = context.create_buffer(rows * block_bytes, VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    std::vector<float> values(rows * columns);
    for (uint32_t row = 0; row < rows; ++row) {
        uint8_t* block = static_cast<uint8_t*>(blocks.mapped) + row * block_bytes;
        const float d = row % 2 == 0 ? 0.5f : 0.25f;
        const uint16_t d_bits = half_from_double(d);
        std::memcpy(block, &d_bits, 2);
        for (uint32_t i = 0; i < columns; ++i) {
            const auto q = int8_t(int((row * columns + i) * 29 % 255) - 127);
            std::memcpy(block + 2 + i, &q, 1);
            values[row * columns + i] = float(q) * d;
        }
    }
    Buffer out = context.create_buffer(kTileRows * kTileColumns * sizeof(float));
    struct {
        VkDeviceAddress weights;
        uint32_t rows, columns;
    } push{context.address(blocks), rows, columns};
    ComputePipeline pipeline = context.create_compute_pipeline(words, 1, sizeof(push));
    const Buffer* buffers[] = {&out};
    context.dispatch(pipeline, buffers, std::as_bytes(std::span(&push, 1)), 1);
    const std::span<const float> got = out.as<float>();
    for (uint32_t r = 0; r < kTileRows; ++r) {
        for (uint32_t c = 0; c < kTileColumns; ++c) {
            ASSERT_EQ(got[r * kTileColumns + c], r < rows ? values[r * columns + c] : 0.0f) << "row " << r << " column " << c;
        }
    }
}

}  // namespace
}  // namespace vkpolyfill::test
