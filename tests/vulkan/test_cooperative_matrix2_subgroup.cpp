// The SPV_NV_cooperative_matrix2 operations the lowering implements at subgroup scope, each against a
// CPU reference: per-element op with an extra matrix, row / column / 2x2 / whole reductions,
// accumulator -> A conversion, transpose to B followed by a multiply-add, a change of use alone
// (accumulators to A and B). Lowered by the library for the device's subgroup size and run without the layer, and through the layer, which passes the
// module to a driver that has these feature bits. Each on a 16x16 and a 48x48 tile (the lowering
// writes the first's per-element code out, the second's partly as loops: Target::unroll_up_to), and
// lowered with every per-element repetition a loop.
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

constexpr uint32_t kSizes[] = {16, 48};  // the shader's N x N tiles

// The operands, N x N row-major.
struct Operands {
    std::vector<float> m, other;
    uint32_t n;
    float at(const std::vector<float>& matrix, uint32_t row, uint32_t column) const { return matrix[row * n + column]; }
};

struct Case {
    const char* name;
    uint32_t op;
    uint32_t result_columns;  // of the stored result (its rows follow from the buffer); 0: N, 1: N / 2
    std::function<float(const Operands& in, uint32_t row, uint32_t column)> expected;
    uint32_t result_rows;  // 0: N, 1: N / 2
    bool reduces;  // uses the Reductions capability (only subgroup_ops.comp has those operations)
};

constexpr uint32_t kN = 0, kHalf = 1;  // result sizes in Case
uint32_t size(uint32_t code, uint32_t n) { return code == kN ? n : code == kHalf ? n / 2 : code; }

const Case kCases[] = {
    {"PerElementWithExtraMatrix", 0, kN,
     [](const Operands& in, uint32_t r, uint32_t c) { return in.at(in.m, r, c) * in.at(in.other, r, c) + float(r * in.n + c); }, kN,
     false},
    {"ReduceRowsSum", 1, 8,
     [](const Operands& in, uint32_t r, uint32_t) {
         float sum = 0;
         for (uint32_t c = 0; c < in.n; ++c) sum += in.at(in.m, r, c);
         return sum;
     },
     kN, true},
    {"ReduceColumnsMax", 2, kN,
     [](const Operands& in, uint32_t, uint32_t c) {
         float best = in.at(in.m, 0, c);
         for (uint32_t r = 1; r < in.n; ++r) best = std::max(best, in.at(in.m, r, c));
         return best;
     },
     kN, true},
    {"Reduce2x2Sum", 3, kHalf,
     [](const Operands& in, uint32_t r, uint32_t c) {
         return in.at(in.m, 2 * r, 2 * c) + in.at(in.m, 2 * r + 1, 2 * c) + in.at(in.m, 2 * r, 2 * c + 1) + in.at(in.m, 2 * r + 1, 2 * c + 1);
     },
     kHalf, true},
    {"ReduceAllSum", 4, kN,
     [](const Operands& in, uint32_t, uint32_t) {
         float sum = 0;
         for (float x : in.m) sum += x;
         return sum;
     },
     kN, true},
    {"ConvertToAAndTransposeToB", 5, kN,
     [](const Operands& in, uint32_t r, uint32_t c) {
         float sum = 0;  // A = m, B = transpose(other): B[k][c] = other[c][k]
         for (uint32_t k = 0; k < in.n; ++k) sum += in.at(in.m, r, k) * in.at(in.other, c, k);
         return sum;
     },
     kN, false},
    {"ConvertUseOnlyToAAndB", 6, kN,
     [](const Operands& in, uint32_t r, uint32_t c) {
         float sum = 0;
         for (uint32_t k = 0; k < in.n; ++k) sum += in.at(in.m, r, k) * in.at(in.other, k, c);
         return sum;
     },
     kN, false},
};

// OP, N and HALF: they select the operation and shape the matrices (a lowered module has them frozen).
struct Specialization {
    uint32_t values[3];
    VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    VkSpecializationInfo info() const { return {3, entries, sizeof(values), values}; }
};

// Runs `words` (lowered or not) on the context's device and compares the result with the CPU.
void expect_matches_cpu(Context& context, const std::vector<uint32_t>& words, const Case& test, uint32_t n) {
    Buffer data = context.create_buffer(2 * n * n * sizeof(float));
    Buffer out = context.create_buffer(n * n * sizeof(float));
    Operands in{std::vector<float>(n * n), std::vector<float>(n * n), n};
    for (uint32_t i = 0; i < n * n; ++i) {
        in.m[i] = float(int((i * 37 + 11) % 9) - 4);  // small integers: every result is exact, in f16 too
        in.other[i] = float(int((i * 53 + 5) % 7) - 3);
        data.as<float>()[i] = in.m[i];
        data.as<float>()[n * n + i] = in.other[i];
    }
    const Specialization constants{{test.op, n, n / 2}};
    const VkSpecializationInfo specialization = constants.info();
    ComputePipeline pipeline = context.create_compute_pipeline(words, 2, 0, &specialization);
    const Buffer* buffers[] = {&data, &out};
    context.dispatch(pipeline, buffers, {}, 1);
    const uint32_t rows = size(test.result_rows, n), columns = size(test.result_columns, n);
    std::vector<float> expected;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) expected.push_back(test.expected(in, r, c));
    }
    const auto where = [&](size_t i) { return std::format("row {} column {}", i / columns, i % columns); };
    EXPECT_TRUE(coopmat::floats_match("the result", out.as<float>().first(expected.size()), expected, {}, where));
}

VkPhysicalDeviceVulkan12Features arithmetic_features(void* next) {
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(next);
    features12.shaderFloat16 = VK_TRUE;
    features12.vulkanMemoryModel = VK_TRUE;
    return features12;
}

// How the library lowers: its defaults, every per-element repetition a loop (Target::unroll_up_to
// 0), or for a device whose uniform loads are per invocation (Target::scalar_uniform_loads false:
// lavapipe 25's reductions, whichever driver runs them).
enum class Variant { Default, Loops, PerInvocationLoads };

void expect_library_lowering_matches_cpu(const Case& test, uint32_t n, Variant variant) {
    VkPhysicalDeviceVulkan12Features features12 = arithmetic_features(nullptr);
    Context context({.layer = false, .device_features_next = &features12});

    lowering::Target target;
    target.subgroup_size = subgroup_size(context.physical_device);
    if (variant == Variant::Loops) target.unroll_up_to = 0;
    target.scalar_uniform_loads = variant != Variant::PerInvocationLoads;
    target.max_shared_memory_bytes = 16384;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2);
    lowering::Options options;
    for (const uint32_t id : {0u, 1u, 2u}) {
        const uint32_t value = id == 0 ? test.op : id == 1 ? n : n / 2;
        options.specialization.push_back({id, {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8), 0, 0}});
    }
    const lowering::Result lowered = lower_and_dump(read_shader("tests/coopmat2/subgroup_ops.comp"), target, options);
    ASSERT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    ASSERT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");
    expect_matches_cpu(context, lowered.words, test, n);
}

class CooperativeMatrix2Subgroup : public testing::TestWithParam<std::tuple<Case, uint32_t>> {};

TEST_P(CooperativeMatrix2Subgroup, LoweredByTheLibraryMatchesCpu) {
    const auto& [test, n] = GetParam();
    expect_library_lowering_matches_cpu(test, n, Variant::Default);
}

TEST_P(CooperativeMatrix2Subgroup, LoweredAsLoopsMatchesCpu) {
    const auto& [test, n] = GetParam();
    expect_library_lowering_matches_cpu(test, n, Variant::Loops);
}

// Through the layer: lavapipe 26 has every feature bit these operations need, so a module without
// reductions reaches it as the application wrote it; lavapipe 25 has none, so the layer lowers it.
TEST_P(CooperativeMatrix2Subgroup, ThroughTheLayerMatchesCpu) {
    const auto& [test, n] = GetParam();
    if (driver_name() == "native" && !test.reduces && n != 16) {
        GTEST_SKIP() << "lavapipe 26 runs this module itself (its own coopmat2, which takes minutes to compile at 48x48); "
                        "the 16x16 case checks that it reaches the driver";
    }
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
    expect_matches_cpu(context, words, test, n);

    // Lowered, the driver gets a placeholder module and then the lowered one.
    const auto modules = spy.files_ending_with("-module.spv");
    const bool reached_as_written = std::any_of(modules.begin(), modules.end(), [&](const auto& m) { return read_words(m) == words; });
    // The layer does not leave reductions to lavapipe 26, whose own give wrong results for these cases.
    EXPECT_EQ(reached_as_written, driver_name() == "native" && !test.reduces);
}

std::string case_name(const testing::TestParamInfo<std::tuple<Case, uint32_t>>& param_info) {
    const auto& [test, n] = param_info.param;
    return std::format("{}_{}x{}", test.name, n, n);
}

INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2Subgroup, testing::Combine(testing::ValuesIn(kCases), testing::ValuesIn(kSizes)), case_name);

// The reductions (kCases[1..4]) lowered for per-invocation uniform loads: row reductions then share
// their lines' totals out over the lanes (relayout.cpp).
class CooperativeMatrix2SubgroupReduction : public CooperativeMatrix2Subgroup {};

TEST_P(CooperativeMatrix2SubgroupReduction, LoweredForPerInvocationLoadsMatchesCpu) {
    const auto& [test, n] = GetParam();
    expect_library_lowering_matches_cpu(test, n, Variant::PerInvocationLoads);
}

INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2SubgroupReduction,
                         testing::Combine(testing::ValuesIn(std::begin(kCases) + 1, std::begin(kCases) + 5), testing::ValuesIn(kSizes)),
                         case_name);

}  // namespace
}  // namespace vkpolyfill::test
