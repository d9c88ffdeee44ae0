// The SPV_NV_cooperative_matrix2 operations the lowering implements at subgroup scope, each against a
// CPU reference: per-element op with an extra matrix, row / column / 2x2 / whole reductions,
// accumulator -> A conversion, transpose to B followed by a multiply-add, a change of use alone
// (accumulators to A and B). Lowered by the library for the device's subgroup size and run without the layer, and through the layer, which passes the
// module to a driver that has these feature bits.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <format>
#include <functional>

#include "coopmat2_target.h"
#include "coopmat_compare.h"
#include "library_lowering.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kN = 16;  // the shader's 16x16 tiles

struct Case {
    const char* name;
    uint32_t op;
    uint32_t result_columns;  // of the stored result (its rows follow from the buffer)
    std::function<float(const std::vector<float>& m, const std::vector<float>& other, uint32_t row, uint32_t column)> expected;
    uint32_t result_rows;
    bool reduces;  // uses the Reductions capability (only subgroup_ops.comp has those operations)
};

float at(const std::vector<float>& matrix, uint32_t row, uint32_t column) { return matrix[row * kN + column]; }

const Case kCases[] = {
    {"PerElementWithExtraMatrix", 0, 16,
     [](const auto& m, const auto& o, uint32_t r, uint32_t c) { return at(m, r, c) * at(o, r, c) + float(r * 16 + c); }, 16, false},
    {"ReduceRowsSum", 1, 8,
     [](const auto& m, const auto&, uint32_t r, uint32_t) {
         float sum = 0;
         for (uint32_t c = 0; c < kN; ++c) sum += at(m, r, c);
         return sum;
     },
     16, true},
    {"ReduceColumnsMax", 2, 16,
     [](const auto& m, const auto&, uint32_t, uint32_t c) {
         float best = at(m, 0, c);
         for (uint32_t r = 1; r < kN; ++r) best = std::max(best, at(m, r, c));
         return best;
     },
     16, true},
    {"Reduce2x2Sum", 3, 8,
     [](const auto& m, const auto&, uint32_t r, uint32_t c) {
         return at(m, 2 * r, 2 * c) + at(m, 2 * r + 1, 2 * c) + at(m, 2 * r, 2 * c + 1) + at(m, 2 * r + 1, 2 * c + 1);
     },
     8, true},
    {"ReduceAllSum", 4, 16,
     [](const auto& m, const auto&, uint32_t, uint32_t) {
         float sum = 0;
         for (float x : m) sum += x;
         return sum;
     },
     16, true},
    {"ConvertToAAndTransposeToB", 5, 16,
     [](const auto& m, const auto& o, uint32_t r, uint32_t c) {
         float sum = 0;  // A = m, B = transpose(other): B[k][c] = other[c][k]
         for (uint32_t k = 0; k < kN; ++k) sum += at(m, r, k) * at(o, c, k);
         return sum;
     },
     16, false},
    {"ConvertUseOnlyToAAndB", 6, 16,
     [](const auto& m, const auto& o, uint32_t r, uint32_t c) {
         float sum = 0;
         for (uint32_t k = 0; k < kN; ++k) sum += at(m, r, k) * at(o, k, c);
         return sum;
     },
     16, false},
};

// Runs `words` (lowered or not) on the context's device and compares the result with the CPU.
void expect_matches_cpu(Context& context, const std::vector<uint32_t>& words, const Case& test) {
    Buffer data = context.create_buffer(2 * kN * kN * sizeof(float));
    Buffer out = context.create_buffer(kN * kN * sizeof(float));
    std::vector<float> m(kN * kN), other(kN * kN);
    for (uint32_t i = 0; i < kN * kN; ++i) {
        m[i] = float(int((i * 37 + 11) % 9) - 4);  // small integers: every result is exact, in f16 too
        other[i] = float(int((i * 53 + 5) % 7) - 3);
        data.as<float>()[i] = m[i];
        data.as<float>()[kN * kN + i] = other[i];
    }
    // OP selects the operation; it shapes no matrix, so a lowered module still takes it as a
    // specialization constant.
    const VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &test.op};
    ComputePipeline pipeline = context.create_compute_pipeline(words, 2, 0, &specialization);
    const Buffer* buffers[] = {&data, &out};
    context.dispatch(pipeline, buffers, {}, 1);
    std::vector<float> expected;
    for (uint32_t r = 0; r < test.result_rows; ++r) {
        for (uint32_t c = 0; c < test.result_columns; ++c) expected.push_back(test.expected(m, other, r, c));
    }
    const auto where = [&](size_t i) { return std::format("row {} column {}", i / test.result_columns, i % test.result_columns); };
    EXPECT_TRUE(coopmat::floats_match("the result", out.as<float>().first(expected.size()), expected, {}, where));
}

VkPhysicalDeviceVulkan12Features arithmetic_features(void* next) {
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(next);
    features12.shaderFloat16 = VK_TRUE;
    features12.vulkanMemoryModel = VK_TRUE;
    return features12;
}

class CooperativeMatrix2Subgroup : public testing::TestWithParam<Case> {};

TEST_P(CooperativeMatrix2Subgroup, LoweredByTheLibraryMatchesCpu) {
    const Case& test = GetParam();
    VkPhysicalDeviceVulkan12Features features12 = arithmetic_features(nullptr);
    Context context({.layer = false, .device_features_next = &features12});

    lowering::Target target;
    target.subgroup_size = subgroup_size(context.physical_device);
    target.max_shared_memory_bytes = 16384;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2);
    lowering::Options options;
    options.specialization.push_back({0, {static_cast<uint8_t>(test.op), 0, 0, 0}});
    const lowering::Result lowered = lower_and_dump(read_shader("tests/coopmat2/subgroup_ops.comp"), target, options);
    ASSERT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    ASSERT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");
    expect_matches_cpu(context, lowered.words, test);
}

// Through the layer: lavapipe 26 has every feature bit these operations need, so a module without
// reductions reaches it as the application wrote it; lavapipe 25 has none, so the layer lowers it.
TEST_P(CooperativeMatrix2Subgroup, ThroughTheLayerMatchesCpu) {
    const Case& test = GetParam();
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2 = vku::InitStructHelper();
    coopmat2.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    coopmat2.cooperativeMatrixReductions = VK_TRUE;
    coopmat2.cooperativeMatrixConversions = VK_TRUE;
    coopmat2.cooperativeMatrixPerElementOperations = VK_TRUE;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper(&coopmat2);
    coopmat.cooperativeMatrix = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = arithmetic_features(&coopmat);
    Context context({.spy = true,
                     .device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME},
                     .device_features_next = &features12});
    const std::vector<uint32_t> words =
        read_shader(test.reduces ? "tests/coopmat2/subgroup_ops.comp" : "tests/coopmat2/subgroup_elementwise.comp");
    expect_matches_cpu(context, words, test);

    // Lowered, the driver gets a placeholder module and then the lowered one.
    const auto modules = spy.files_ending_with("-module.spv");
    const bool reached_as_written = std::any_of(modules.begin(), modules.end(), [&](const auto& m) { return read_words(m) == words; });
    // The layer does not leave reductions to lavapipe 26, whose own give wrong results for these cases.
    EXPECT_EQ(reached_as_written, driver_name() == "native" && !test.reduces);
}

INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2Subgroup, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace vkpolyfill::test
