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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coopmat2_target.h"
#include "coopmat_compare.h"
#include "library_lowering.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"
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

// Specialization constants 0, 1, ... of a shader, for a pipeline or for the library (a lowered module
// has them frozen).
struct Specialization {
    std::vector<uint32_t> values;
    std::vector<VkSpecializationMapEntry> entries;
    explicit Specialization(std::vector<uint32_t> constants) : values(std::move(constants)) {
        for (uint32_t id = 0; id < values.size(); ++id) entries.push_back({id, id * 4, 4});
    }
    VkSpecializationInfo info() const { return {uint32_t(entries.size()), entries.data(), values.size() * 4, values.data()}; }
    lowering::Options options() const {
        lowering::Options options;
        for (uint32_t id = 0; id < values.size(); ++id) {
            const uint32_t v = values[id];
            options.specialization.push_back({id, {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}});
        }
        return options;
    }
};

// Runs `words` (lowered or not) specialized by `constants` on the context's device with `input` at
// binding 0 and compares binding 1 with `expected`, a row-major matrix of `columns` columns.
void expect_result(Context& context, const std::vector<uint32_t>& words, const Specialization& constants,
                   const std::vector<float>& input, const std::vector<float>& expected, uint32_t columns) {
    Buffer data = context.create_buffer(input.size() * sizeof(float));
    Buffer out = context.create_buffer(std::max<size_t>(expected.size(), 1) * sizeof(float));
    std::copy(input.begin(), input.end(), data.as<float>().begin());
    const VkSpecializationInfo specialization = constants.info();
    ComputePipeline pipeline = context.create_compute_pipeline(words, 2, 0, &specialization);
    const Buffer* buffers[] = {&data, &out};
    context.dispatch(pipeline, buffers, {}, 1);
    const auto where = [&](size_t i) { return std::format("row {} column {}", i / columns, i % columns); };
    EXPECT_TRUE(coopmat::floats_match("the result", out.as<float>().first(expected.size()), expected, {}, where));
}

// Runs `words` (lowered or not) on the context's device and compares the result with the CPU.
void expect_matches_cpu(Context& context, const std::vector<uint32_t>& words, const Case& test, uint32_t n) {
    Operands in{std::vector<float>(n * n), std::vector<float>(n * n), n};
    for (uint32_t i = 0; i < n * n; ++i) {
        in.m[i] = float(int((i * 37 + 11) % 9) - 4);  // small integers: every result is exact, in f16 too
        in.other[i] = float(int((i * 53 + 5) % 7) - 3);
    }
    std::vector<float> input = in.m;
    input.insert(input.end(), in.other.begin(), in.other.end());
    const uint32_t rows = size(test.result_rows, n), columns = size(test.result_columns, n);
    std::vector<float> expected;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) expected.push_back(test.expected(in, r, c));
    }
    expect_result(context, words, Specialization({test.op, n, n / 2}), input, expected, columns);
}

// The device features these shaders need, chained before `next`: f16 arithmetic, the memory model,
// and maintenance4 for the reduction shader's LocalSizeId (its workgroup size is a specialization constant).
class ShaderFeatures {
  public:
    explicit ShaderFeatures(void* next = nullptr) {
        v13_ = vku::InitStructHelper(next);
        v13_.maintenance4 = VK_TRUE;
        v12_ = vku::InitStructHelper(&v13_);
        v12_.shaderFloat16 = VK_TRUE;
        v12_.vulkanMemoryModel = VK_TRUE;
    }
    ShaderFeatures(const ShaderFeatures&) = delete;
    ShaderFeatures& operator=(const ShaderFeatures&) = delete;
    void* head() { return &v12_; }

  private:
    VkPhysicalDeviceVulkan13Features v13_;
    VkPhysicalDeviceVulkan12Features v12_;
};

// How the library lowers: its defaults, every per-element repetition a loop (Target::unroll_up_to
// 0), or for a device whose uniform loads are per invocation (Target::scalar_uniform_loads false:
// lavapipe 25's reductions, whichever driver runs them).
enum class Variant { Default, Loops, PerInvocationLoads };

// `shader` lowered by the library for the context's device as `variant` says, checked valid.
std::vector<uint32_t> lowered_by_the_library(Context& context, const char* shader, const Specialization& constants, Variant variant) {
    lowering::Target target;
    target.subgroup_size = subgroup_size(context.physical_device);
    if (variant == Variant::Loops) target.unroll_up_to = 0;
    target.scalar_uniform_loads = variant != Variant::PerInvocationLoads;
    target.max_shared_memory_bytes = 16384;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2);
    const lowering::Result lowered = lower_and_dump(read_shader(shader), target, constants.options());
    EXPECT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    EXPECT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");
    return lowered.ok ? lowered.words : std::vector<uint32_t>{};
}

// The shaders declare N x N and N/2 x N/2 accumulators. At N = 48 the 24 x 24 ones are beyond the
// granularity the layer advertises (16 x 16); the lowering lays them out over lavapipe's 4, 8 and 16
// lanes (at 16: 8 column lanes of 3 columns, two row groups). "Not supported", CTS-style, where it cannot.
std::string unsupported_at_this_width(const Context& context, uint32_t n) {
    if (lowering::cooperative_matrix_shape_supported(n / 2, n / 2, 2, context.subgroup_size)) return {};
    return std::format("not supported: a {0}x{0} accumulator, beyond the advertised 16x16 granularity, over a subgroup of {1}", n / 2,
                       context.subgroup_size);
}

void expect_library_lowering_matches_cpu(const Case& test, uint32_t n, Variant variant) {
    ShaderFeatures features;
    Context context({.layer = false, .device_features_next = features.head()});
    if (const std::string why = unsupported_at_this_width(context, n); !why.empty()) GTEST_SKIP() << why;
    const auto words = lowered_by_the_library(context, "tests/coopmat2/subgroup_ops.comp", Specialization({test.op, n, n / 2}), variant);
    if (words.empty()) return;
    expect_matches_cpu(context, words, test, n);
}

// How through_the_layer() makes its device: the spy layer below, workgroup scope asked for, and both
// extensions emulated whatever the driver has (force_emulation).
struct LayerDevice {
    bool spy = false, workgroup = false, forced = false;
};

// Calls `use` with a device through the layer with the VK_NV_cooperative_matrix2 bits these shaders need.
void through_the_layer(LayerDevice device, const std::function<void(Context&)>& use) {
    Coopmat2ComputeFeatures coopmat(device.workgroup);
    ShaderFeatures features(coopmat.head());
    const char* forced = "VK_KHR_cooperative_matrix,VK_NV_cooperative_matrix2";
    VkLayerSettingEXT setting{kLayerName, "force_emulation", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &forced};
    VkLayerSettingsCreateInfoEXT settings = vku::InitStructHelper();
    settings.settingCount = 1;
    settings.pSettings = &setting;
    Context context({.spy = device.spy,
                     .instance_extensions = device.forced ? std::vector<const char*>{VK_EXT_LAYER_SETTINGS_EXTENSION_NAME}
                                                          : std::vector<const char*>{},
                     .device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME},
                     .instance_next = device.forced ? &settings : nullptr,
                     .device_features_next = features.head()});
    use(context);
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
    std::vector<uint32_t> words;
    bool unsupported = false;
    through_the_layer({.spy = true}, [&](Context& context) {
        if (const std::string why = unsupported_at_this_width(context, n); !why.empty()) {
            unsupported = true;
            GTEST_SKIP() << why;
        }
        words = read_shader(test.reduces ? "tests/coopmat2/subgroup_ops.comp" : "tests/coopmat2/subgroup_elementwise.comp");
        expect_matches_cpu(context, words, test, n);
    });

    if (unsupported) return;
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

// OpCooperativeMatrixReduceNV where invocations hold no element of some lines
// (shaders/tests/coopmat2/subgroup_reduce_shapes.comp): at 8 lanes a source with fewer than 8 columns
// splits its rows between groups of invocations, results narrower than 8 columns too, and results
// differ from the source in shape. Each against a CPU reference written from the spec's text, lowered
// by the library with and without scalar uniform loads (the layer's choice for lavapipe 26 and 25)
// and through the layer.
struct ReduceOp {
    const char* name;
    uint32_t mode;  // the Reduce mask: 1 Row, 2 Column, 3 Row|Column, 4 2x2
    uint32_t func;  // 0 add, 1 max
};

// A sum counts every element once: where invocations repeat elements (more lanes than a small
// accumulator has), a reduction that folded every invocation's holdings would count them twice.
const ReduceOp kReduceOps[] = {{"RowSum", 1, 0},    {"RowMax", 1, 1}, {"ColumnSum", 2, 0}, {"ColumnMax", 2, 1},
                               {"AllMax", 3, 1},    {"AllSum", 3, 0}, {"Quad2x2Sum", 4, 0}};

// The source's M x N and the result's free extents: M x RN for Row, RM x N for Column, RM x RN for both;
// workgroup scope over `invocations` when not 0.
struct ReduceShape {
    uint32_t m, n, rm, rn, invocations = 0;
};

// 2x2: fewer elements than lanes from 8 on, so that invocations repeat them.
const ReduceShape kReduceShapes[] = {{8, 8, 4, 16}, {16, 8, 8, 1},  {8, 16, 16, 4}, {16, 16, 2, 8}, {8, 4, 8, 8},
                                     {4, 8, 2, 4},  {16, 4, 4, 2},  {16, 2, 4, 8},  {2, 2, 2, 2}};

// At subgroup scope the workgroup is one subgroup of the device's.
Specialization reduce_constants(const ReduceOp& op, const ReduceShape& s, uint32_t subgroup_size) {
    constexpr uint32_t kScopeWorkgroup = 2, kScopeSubgroup = 3;
    return Specialization({op.mode, s.m, s.n, s.rm, s.rn, s.m / 2, s.n / 2, op.func, s.invocations ? s.invocations : subgroup_size,
                           s.invocations ? kScopeWorkgroup : kScopeSubgroup});
}

// The result the spec defines, row-major, and its column count.
std::pair<std::vector<float>, uint32_t> reduced_on_cpu(const ReduceOp& op, const ReduceShape& s, const std::vector<float>& in) {
    const auto combine = [&](float a, float b) { return op.func == 0 ? a + b : std::max(a, b); };
    const auto at = [&](uint32_t r, uint32_t c) { return in[r * s.n + c]; };
    const auto fold = [&](uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1) {  // rows [r0, r1) x columns [c0, c1)
        std::optional<float> value;
        for (uint32_t r = r0; r < r1; ++r) {
            for (uint32_t c = c0; c < c1; ++c) value = value ? combine(*value, at(r, c)) : at(r, c);
        }
        return *value;
    };
    const uint32_t rows = op.mode == 1 ? s.m : op.mode == 4 ? s.m / 2 : s.rm;
    const uint32_t columns = op.mode == 2 ? s.n : op.mode == 4 ? s.n / 2 : s.rn;
    std::vector<float> out;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) {
            switch (op.mode) {
                case 1: out.push_back(fold(r, r + 1, 0, s.n)); break;  // every element of source row r
                case 2: out.push_back(fold(0, s.m, c, c + 1)); break;  // every element of source column c
                case 3: out.push_back(fold(0, s.m, 0, s.n)); break;
                default: out.push_back(fold(2 * r, 2 * r + 2, 2 * c, 2 * c + 2)); break;
            }
        }
    }
    return {out, columns};
}

// Distinct integers (37 is invertible modulo the prime 257), so a max over part of a line differs from
// the max over the line, and every sum is exact.
std::vector<float> reduce_input(const ReduceShape& s) {
    std::vector<float> in(s.m * s.n);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(int((i * 37 + 11) % 257) - 128);
    return in;
}

constexpr const char* kReduceShader = "tests/coopmat2/subgroup_reduce_shapes.comp";

// The shader's accumulators (M x N, M x RN, RM x N, RM x RN, M/2 x N/2) are smaller than the advertised
// 16 x 16 granularity, chosen so that at 8 lanes invocations hold no element of some lines; a shape that
// cannot be laid out over the subgroup is "not supported" there, CTS-style.
std::string unsupported_at_this_width(const Context& context, const ReduceShape& s) {
    if (s.invocations != 0) return {};
    const std::pair<uint32_t, uint32_t> shapes[] = {{s.m, s.n}, {s.m, s.rn}, {s.rm, s.n}, {s.rm, s.rn}, {s.m / 2, s.n / 2}};
    for (const auto& [rows, columns] : shapes) {
        if (!lowering::cooperative_matrix_shape_supported(rows, columns, 2, context.subgroup_size)) {
            return std::format("not supported: a {}x{} accumulator, beyond the advertised 16x16 granularity, over a subgroup of {}", rows,
                               columns, context.subgroup_size);
        }
    }
    return {};
}

void expect_reduction_matches_cpu(Context& context, const std::vector<uint32_t>& words, const ReduceOp& op, const ReduceShape& s) {
    const std::vector<float> in = reduce_input(s);
    const auto [expected, columns] = reduced_on_cpu(op, s, in);
    expect_result(context, words, reduce_constants(op, s, context.subgroup_size), in, expected, columns);
}

class CooperativeMatrix2SubgroupReductionShapes : public testing::TestWithParam<std::tuple<ReduceOp, ReduceShape>> {
  protected:
    void expect_library_lowering_matches_cpu(Variant variant) {
        const auto& [op, shape] = GetParam();
        ShaderFeatures features;
        Context context({.layer = false, .device_features_next = features.head()});
        if (const std::string why = unsupported_at_this_width(context, shape); !why.empty()) GTEST_SKIP() << why;
        const auto words = lowered_by_the_library(context, kReduceShader, reduce_constants(op, shape, context.subgroup_size), variant);
        if (!words.empty()) expect_reduction_matches_cpu(context, words, op, shape);
    }
};

TEST_P(CooperativeMatrix2SubgroupReductionShapes, LoweredByTheLibraryMatchesCpu) { expect_library_lowering_matches_cpu(Variant::Default); }

TEST_P(CooperativeMatrix2SubgroupReductionShapes, LoweredAsLoopsMatchesCpu) { expect_library_lowering_matches_cpu(Variant::Loops); }

TEST_P(CooperativeMatrix2SubgroupReductionShapes, LoweredForPerInvocationLoadsMatchesCpu) {
    expect_library_lowering_matches_cpu(Variant::PerInvocationLoads);
}

// The layer lowers reductions on both drivers: with scalar uniform loads on lavapipe 26, without on
// 25; with force_emulation it lowers the whole module on lavapipe 26 too.
void expect_layer_matches_cpu(const ReduceOp& op, const ReduceShape& shape, bool forced) {
    through_the_layer({.workgroup = shape.invocations != 0, .forced = forced},
                      [&](Context& context) {
                          if (const std::string why = unsupported_at_this_width(context, shape); !why.empty()) GTEST_SKIP() << why;
                          expect_reduction_matches_cpu(context, read_shader(kReduceShader), op, shape);
                      });
}

TEST_P(CooperativeMatrix2SubgroupReductionShapes, ThroughTheLayerMatchesCpu) {
    const auto& [op, shape] = GetParam();
    expect_layer_matches_cpu(op, shape, false);
}

TEST_P(CooperativeMatrix2SubgroupReductionShapes, ThroughTheLayerWithForcedEmulationMatchesCpu) {
    const auto& [op, shape] = GetParam();
    if (driver_name() != "native") GTEST_SKIP() << "lavapipe 25 has neither extension: the layer emulates both anyway";
    expect_layer_matches_cpu(op, shape, true);
}

std::string reduce_case_name(const testing::TestParamInfo<std::tuple<ReduceOp, ReduceShape>>& param_info) {
    const auto& [op, s] = param_info.param;
    const std::string scope = s.invocations ? std::format("_workgroup{}", s.invocations) : "";
    return std::format("{}_{}x{}_to_{}_{}{}", op.name, s.m, s.n, s.rm, s.rn, scope);
}

INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2SubgroupReductionShapes,
                         testing::Combine(testing::ValuesIn(kReduceOps), testing::ValuesIn(kReduceShapes)), reduce_case_name);

// Workgroup scope: the matrices tiled in bands over 2 or 4 subgroups of 8 lanes.
const ReduceShape kWorkgroupReduceShapes[] = {{16, 16, 8, 4, 16}, {32, 16, 16, 8, 32}, {16, 32, 4, 16, 32}};

INSTANTIATE_TEST_SUITE_P(Workgroup, CooperativeMatrix2SubgroupReductionShapes,
                         testing::Combine(testing::ValuesIn(kReduceOps), testing::ValuesIn(kWorkgroupReduceShapes)), reduce_case_name);

}  // namespace
}  // namespace vkpolyfill::test
