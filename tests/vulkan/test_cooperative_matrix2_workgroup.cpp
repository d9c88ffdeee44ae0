// Workgroup-scope cooperative matrices (SPV_NV_cooperative_matrix2) against a CPU reference, lowered
// two ways: by the library for the device's subgroup size and run on the driver without the layer,
// and by the layer (at each of its `uniform_loads` settings) for a device that enabled
// VK_NV_cooperative_matrix2. The shaders: a GEMM tile,
// an attention block (S = Q x K, row maxima by reduction, P = exp(S - max) by a per-element
// operation, P converted to an f16 A, O = P x V), and a mix of A and B in their accumulators' bands
// and striped ones staged through shared memory, stored back from their copies.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <format>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coopmat_scalars.h"
#include "coopmat2_target.h"
#include "coopmat_compare.h"
#include "library_lowering.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using coopmat::double_from_half;
using coopmat::half_from_double;

constexpr uint32_t kRows = 32, kInner = 16, kColumns = 32;  // Q is 32x16, K 16x32, V 32x16

struct Inputs {
    std::vector<float> q, k, v;  // the f16 values, as floats
};

Inputs make_inputs() {
    Inputs in{std::vector<float>(kRows * kInner), std::vector<float>(kInner * kColumns), std::vector<float>(kColumns * kInner)};
    // Quarters in [-1, 1]: exact in f16, products and sums of 16 of them exact in f32.
    for (uint32_t i = 0; i < in.q.size(); ++i) in.q[i] = float(int((i * 29 + 3) % 9) - 4) / 4.0f;
    for (uint32_t i = 0; i < in.k.size(); ++i) in.k[i] = float(int((i * 17 + 7) % 9) - 4) / 4.0f;
    for (uint32_t i = 0; i < in.v.size(); ++i) in.v[i] = float(int((i * 13 + 1) % 9) - 4) / 4.0f;
    return in;
}

std::vector<float> scores(const Inputs& in) {
    std::vector<float> s(kRows * kColumns, 0.0f);
    for (uint32_t r = 0; r < kRows; ++r) {
        for (uint32_t c = 0; c < kColumns; ++c) {
            for (uint32_t i = 0; i < kInner; ++i) s[r * kColumns + c] += in.q[r * kInner + i] * in.k[i * kColumns + c];
        }
    }
    return s;
}

std::vector<float> attention(const Inputs& in) {
    const std::vector<float> s = scores(in);
    std::vector<float> o(kRows * kInner, 0.0f);
    for (uint32_t r = 0; r < kRows; ++r) {
        const float row_max = *std::max_element(s.begin() + r * kColumns, s.begin() + (r + 1) * kColumns);
        for (uint32_t j = 0; j < kColumns; ++j) {
            const float p = float(double_from_half(half_from_double(std::exp(double(s[r * kColumns + j] - row_max)))));
            for (uint32_t c = 0; c < kInner; ++c) o[r * kInner + c] += p * in.v[j * kInner + c];
        }
    }
    return o;
}

// The softmax's numerators of each row's scores scaled by 1 + (row % 4) / 4 (against the row's
// maximum), times V, over their sum plus column / 64 (workgroup_flash_attention.comp, which takes the
// keys in blocks with a running maximum and rounds each block's P to f16: the reference is exact).
std::vector<float> flash_attention(const Inputs& in) {
    const std::vector<float> s = scores(in);
    std::vector<float> o(kRows * kInner, 0.0f);
    for (uint32_t r = 0; r < kRows; ++r) {
        const double slope = 1.0 + (r % 4) * 0.25;
        double row_max = -1e300, sum = 0.0;
        for (uint32_t j = 0; j < kColumns; ++j) row_max = std::max(row_max, s[r * kColumns + j] * slope);
        std::vector<double> out(kInner, 0.0);
        for (uint32_t j = 0; j < kColumns; ++j) {
            const double p = std::exp(s[r * kColumns + j] * slope - row_max);
            sum += p;
            for (uint32_t c = 0; c < kInner; ++c) out[c] += p * in.v[j * kInner + c];
        }
        for (uint32_t c = 0; c < kInner; ++c) o[r * kInner + c] = float(out[c] / (sum + c / 64.0));
    }
    return o;
}

// LibraryAsLoops: Target::unroll_up_to 0; LibraryPerInvocationLoads: Target::scalar_uniform_loads
// false (A and B striped and staged, as for lavapipe 25), whichever driver runs it;
// LibraryStagedInChunks: that, with a reserve of shared memory so small (512 bytes) that every staged
// multiply-add stages K in chunks of 4 and sums them one after another. LibraryDistributed: the GPUs'
// matrix layout (Target::distributed_matrices: A distributed over subgroups, workgroup A and B striped
// and multiplied step by step from shared memory); LibraryDistributedInChunks: that, staged in chunks
// of K as above. LibraryStreamedOnLanes: lavapipe 25's lowering (invocations as SIMD lanes, uniform
// loads per invocation) with unroll_up_to 0, so that every float multiply-add streams A and B from
// shared memory, A's values broadcast from the lane that read them. Layer: the layer's lowering
// with its `uniform_loads` setting at auto; LayerScalarLoads, LayerPerInvocationLoads: set to scalar,
// per_invocation. LayerOnMatrixUnits: the layer emulating VK_NV_cooperative_matrix2 (force_emulation)
// with its matrix_units setting at native, so that on a driver with cooperative matrices of its own
// (lavapipe 26) the multiply-adds run on them (lowering::Target::multiply_on_native_matrices); elsewhere as Layer.
// LayerOnKeptMatrixUnits: the same at kept_accumulators (auto's choice on NVIDIA's drivers), where
// only the multiply-adds whose sums stay in the tiles run on them (the attention block's P x V, not
// its scores).
enum class Lowering {
    Library,
    LibraryAsLoops,
    LibraryPerInvocationLoads,
    LibraryStagedInChunks,
    LibraryDistributed,
    LibraryDistributedInChunks,
    LibraryStreamedOnLanes,
    Layer,
    LayerScalarLoads,
    LayerPerInvocationLoads,
    LayerOnMatrixUnits,
    LayerOnKeptMatrixUnits
};

bool by_the_layer(Lowering lowering) { return lowering >= Lowering::Layer; }

const char* uniform_loads_setting(Lowering lowering) {
    if (lowering == Lowering::LayerScalarLoads) return "scalar";
    if (lowering == Lowering::LayerPerInvocationLoads) return "per_invocation";
    return nullptr;
}

const char* matrix_units_setting(Lowering lowering) {
    if (lowering == Lowering::LayerOnMatrixUnits) return "native";
    if (lowering == Lowering::LayerOnKeptMatrixUnits) return "kept_accumulators";
    return nullptr;
}

// A workgroup shader, lowered by the library for the driver's subgroup size.
std::vector<uint32_t> lowered_by_library(VkPhysicalDevice physical_device, const char* shader, Lowering lowering) {
    lowering::Target target;
    target.subgroup_size = subgroup_size(physical_device);
    if (lowering == Lowering::LibraryAsLoops) target.unroll_up_to = 0;
    if (lowering == Lowering::LibraryPerInvocationLoads || lowering == Lowering::LibraryStagedInChunks) target.scalar_uniform_loads = false;
    if (lowering == Lowering::LibraryStagedInChunks || lowering == Lowering::LibraryDistributedInChunks) {
        target.reserved_shared_memory_bytes = 512;
    }
    if (lowering == Lowering::LibraryDistributed || lowering == Lowering::LibraryDistributedInChunks) {
        target.distributed_matrices = target.subgroup_shuffles = true;
    }
    if (lowering == Lowering::LibraryStreamedOnLanes) {
        target.simd_lane_invocations = target.subgroup_shuffles = true;
        target.scalar_uniform_loads = false;
        target.unroll_up_to = 0;
    }
    target.max_shared_memory_bytes = 32768;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2);
    return lower_checked(read_shader(shader), target);
}

// The emulations the suite forces (VK_POLYFILL_EXTENSIONS_FORCE_EMULATION) and `extension`.
std::string also_forced(const char* extension) {
    const char* suite = std::getenv("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION");
    return suite != nullptr && *suite != '\0' ? std::format("{},{}", suite, extension) : std::string(extension);
}

std::vector<float> run(Lowering lowering, uint32_t op, const Inputs& in, size_t outputs,
                       const char* shader = "tests/coopmat2/workgroup_attention.comp") {
    const bool layer = by_the_layer(lowering);
    ScopedEnv uniform_loads("VK_POLYFILL_EXTENSIONS_UNIFORM_LOADS", uniform_loads_setting(lowering));
    const char* units = matrix_units_setting(lowering);
    const bool on_units = units != nullptr;
    ScopedEnv matrix_units("VK_POLYFILL_EXTENSIONS_MATRIX_UNITS", units);
    // On the units the layer emulates coopmat2 on a driver that has it too; the suite's own forced
    // emulations (f16 arithmetic in vulkan.plain@VK_KHR_shader_float16_int8.*) stay.
    std::optional<ScopedEnv> forced;
    if (on_units) forced.emplace("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", also_forced(VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME).c_str());
    Coopmat2ComputeFeatures coopmat(true);
    VkPhysicalDeviceVulkan11Features features11 = vku::InitStructHelper(layer ? coopmat.head() : nullptr);
    features11.storageBuffer16BitAccess = VK_TRUE;
    // workgroup_flash_attention.comp sizes its workgroup by LocalSizeId.
    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper(&features11);
    features13.maintenance4 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features13);
    features12.shaderFloat16 = VK_TRUE;
    features12.vulkanMemoryModel = VK_TRUE;
    std::vector<const char*> extensions;
    if (layer) {
        extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME};
    }
    Context context({.layer = layer, .device_extensions = extensions, .device_features_next = &features12});
    const std::vector<uint32_t> words = layer ? read_shader(shader) : lowered_by_library(context.physical_device, shader, lowering);
    if (words.empty()) return {};

    Buffer q = context.create_buffer(in.q.size() * 2), k = context.create_buffer(in.k.size() * 2);
    Buffer v = context.create_buffer(in.v.size() * 2), out = context.create_buffer(outputs * sizeof(float));
    const auto upload = [](Buffer& buffer, const std::vector<float>& values) {
        for (size_t i = 0; i < values.size(); ++i) buffer.as<uint16_t>()[i] = half_from_double(values[i]);
    };
    upload(q, in.q);
    upload(k, in.k);
    upload(v, in.v);
    const VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &op};
    ComputePipeline pipeline = context.create_compute_pipeline(words, 4, 0, &specialization);
    const Buffer* buffers[] = {&q, &k, &v, &out};
    context.dispatch(pipeline, buffers, {}, 1);
    return {out.as<float>().begin(), out.as<float>().begin() + static_cast<ptrdiff_t>(outputs)};
}

class CooperativeMatrix2Workgroup : public testing::TestWithParam<Lowering> {};

TEST_P(CooperativeMatrix2Workgroup, GemmTileMatchesCpu) {
    const Inputs in = make_inputs();
    const std::vector<float> expected = scores(in);
    const std::vector<float> got = run(GetParam(), 0, in, expected.size());
    const auto where = [](size_t i) { return std::format("row {} column {}", i / kColumns, i % kColumns); };
    EXPECT_TRUE(coopmat::floats_match("the scores", got, expected, {}, where));
}

TEST_P(CooperativeMatrix2Workgroup, AttentionBlockMatchesCpu) {
    const Inputs in = make_inputs();
    const std::vector<float> expected = attention(in);
    const std::vector<float> got = run(GetParam(), 1, in, expected.size());
    // exp differs between the CPU and the device by a few ulp, which can move P's f16 rounding.
    std::vector<double> scale;
    for (float x : expected) scale.push_back(1.0 + std::abs(x));
    const auto where = [](size_t i) { return std::format("row {} column {}", i / kInner, i % kInner); };
    EXPECT_TRUE(coopmat::floats_match("the output", got, expected, {.relative = 2e-3}, where, scale));
}

// Online softmax over blocks of keys with its state carried around the loop (in the GPU layout held
// one value a row: row_values.h).
TEST_P(CooperativeMatrix2Workgroup, FlashAttentionMatchesCpu) {
    const Inputs in = make_inputs();
    const std::vector<float> expected = flash_attention(in);
    const std::vector<float> got = run(GetParam(), 0, in, expected.size(), "tests/coopmat2/workgroup_flash_attention.comp");
    // P is rounded to f16 in each block (a relative 2^-11), in O's sum and L's alike.
    std::vector<double> scale;
    for (float x : expected) scale.push_back(1.0 + std::abs(x));
    const auto where = [](size_t i) { return std::format("row {} column {}", i / kInner, i % kInner); };
    EXPECT_TRUE(coopmat::floats_match("the output", got, expected, {.relative = 2e-3}, where, scale));
}

// C += Q x K four times in a loop (workgroup_gemm_loop.comp): as it is (OP 0), halved by a
// per-element operation before each multiply-add (OP 1), a 32x16 C clamped element by element
// after the loop (OP 2), and Q times a B filled with 1.5 (OP 3: Q's row sums; in the GPU layout the
// streamed multiply-add sums A's rows without staging B). On the driver's matrix units (ByTheLayerOnMatrixUnits on lavapipe 26) the
// accumulators of OP 0 and 1 stay in the driver's tiles across the loop (OP 1's leave them for the
// per-element operation and come back) and OP 2's, read element by element, stay plain.
TEST_P(CooperativeMatrix2Workgroup, AccumulatingLoopMatchesCpu) {
    const Inputs in = make_inputs();
    const std::vector<float> s = scores(in);
    constexpr uint32_t kSteps = 4;
    constexpr float kLimit = 3.0f, kFilling = 1.5f;
    for (uint32_t op : {0u, 1u, 2u, 3u}) {
        SCOPED_TRACE(std::format("OP {}", op));
        const uint32_t columns = op == 2 ? kInner : kColumns;
        std::vector<float> expected;
        for (uint32_t r = 0; r < kRows; ++r) {
            float row_sum = 0.0f;
            for (uint32_t i = 0; i < kInner; ++i) row_sum += in.q[r * kInner + i] * kFilling;
            for (uint32_t c = 0; c < columns; ++c) {
                const float product = op == 3 ? row_sum : s[r * kColumns + c];
                float sum = 0.0f;
                for (uint32_t step = 0; step < kSteps; ++step) sum = (op == 1 ? sum * 0.5f : sum) + product;
                expected.push_back(op == 2 ? std::min(sum, kLimit) : sum);
            }
        }
        const std::vector<float> got = run(GetParam(), op, in, expected.size(), "tests/coopmat2/workgroup_gemm_loop.comp");
        const auto where = [columns](size_t i) { return std::format("row {} column {}", i / columns, i % columns); };
        EXPECT_TRUE(coopmat::floats_match("C", got, expected, {}, where));
    }
}

// Q x K and Q x K[:, 0:16] (Q striped, staged), K stored from its copies, P = f16(Q x K) as an A
// in the bands of P x V, P x V, and P stored from its copies (workgroup_layouts.comp). Every value
// is a multiple of 1/64 below 1024: exact in f16 and f32, so the results must match exactly.
TEST_P(CooperativeMatrix2Workgroup, BandedAndStripedOperandsMatchCpu) {
    const Inputs in = make_inputs();
    const std::vector<float> s = scores(in);
    std::vector<float> expected = s;
    for (uint32_t r = 0; r < kRows; ++r) {
        for (uint32_t c = 0; c < kInner; ++c) expected.push_back(s[r * kColumns + c]);
    }
    expected.insert(expected.end(), in.k.begin(), in.k.end());
    for (uint32_t r = 0; r < kRows; ++r) {
        for (uint32_t c = 0; c < kInner; ++c) {
            float sum = 0.0f;
            for (uint32_t j = 0; j < kColumns; ++j) sum += s[r * kColumns + j] * in.v[j * kInner + c];
            expected.push_back(sum);
        }
    }
    expected.insert(expected.end(), s.begin(), s.end());
    const std::vector<float> got = run(GetParam(), 0, in, expected.size(), "tests/coopmat2/workgroup_layouts.comp");
    const auto where = [](size_t i) {
        const char* parts[] = {"Q x K", "Q x K[:, 0:16]", "K", "P x V", "P"};
        const size_t starts[] = {0, 1024, 1536, 2048, 2560, 3584};
        size_t part = 0;
        while (i >= starts[part + 1]) ++part;
        return std::format("{} element {}", parts[part], i - starts[part]);
    };
    EXPECT_TRUE(coopmat::floats_match("the results", got, expected, {}, where));
}

// Whether the default device is lavapipe before Mesa 26, which loads a subgroup-uniform value per
// invocation (where the layer's `uniform_loads=auto` lowers for per-invocation loads).
bool lavapipe_before_26() {
    Context context({.layer = false});
    VkPhysicalDeviceDriverProperties driver = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&driver);
    vkGetPhysicalDeviceProperties2(context.physical_device, &properties);
    return driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE && VK_API_VERSION_MAJOR(properties.properties.driverVersion) < 26;
}

// The setting reaches the lowering (the results are checked by the suite above): the layer lowers
// the GEMM tile differently for scalar and for per-invocation loads, and at auto as the driver does best.
// In lavapipe's matrix layout: the GPUs' layout stripes workgroup operands whatever the loads.
TEST(CooperativeMatrix2WorkgroupSettings, UniformLoadsChooseHowTheLayerLowers) {
    ScopedEnv layout("VK_POLYFILL_EXTENSIONS_MATRIX_LAYOUT", "replicated");
    std::map<Lowering, std::vector<uint32_t>> lowered;
    for (Lowering lowering : {Lowering::Layer, Lowering::LayerScalarLoads, Lowering::LayerPerInvocationLoads}) {
        TempDir dumps;
        ScopedEnv dump_dir("VK_POLYFILL_EXTENSIONS_DUMP_DIR", dumps.path().c_str());
        const Inputs in = make_inputs();
        EXPECT_EQ(run(lowering, 0, in, kRows * kColumns), scores(in));
        const auto files = dumps.files_ending_with(".lowered.spv");
        ASSERT_EQ(files.size(), 1u);
        lowered[lowering] = read_words(files[0]);
    }
    EXPECT_NE(lowered[Lowering::LayerScalarLoads], lowered[Lowering::LayerPerInvocationLoads]);
    EXPECT_EQ(lowered[Lowering::Layer],
              lowered[lavapipe_before_26() ? Lowering::LayerPerInvocationLoads : Lowering::LayerScalarLoads]);
}

// On lavapipe before 26 the layer keeps the shader's own selections as branches (DontFlatten:
// lowering::Target::unflattened_selections); elsewhere it leaves their control as the shader gives it.
TEST(CooperativeMatrix2WorkgroupSettings, SelectionsStayBranchesOnLavapipeBefore26) {
    TempDir dumps;
    ScopedEnv dump_dir("VK_POLYFILL_EXTENSIONS_DUMP_DIR", dumps.path().c_str());
    const Inputs in = make_inputs();
    EXPECT_EQ(run(Lowering::Layer, 0, in, kRows * kColumns), scores(in));
    const auto files = dumps.files_ending_with(".lowered.spv");
    ASSERT_EQ(files.size(), 1u);
    const std::string text = lowering::disassemble(read_words(files[0]));
    ASSERT_NE(text.find("OpSelectionMerge"), std::string::npos);
    EXPECT_EQ(text.find("DontFlatten") != std::string::npos, lavapipe_before_26());
}

// Whether the default device's driver has VK_KHR_cooperative_matrix itself.
bool driver_has_cooperative_matrices() {
    Context context({.layer = false});
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(context.physical_device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(context.physical_device, nullptr, &count, extensions.data());
    return std::ranges::any_of(extensions, [](const VkExtensionProperties& e) {
        return std::string_view(e.extensionName) == VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
    });
}

// The matrix_units setting reaches the lowering (the results are checked by the suite above): on a
// driver with cooperative matrices of its own, the GEMM tile's workgroup multiply-add, whose sum is
// only stored, becomes the driver's subgroup-scope ones at native and kept_accumulators; at auto it
// stays plain code (auto takes the units on NVIDIA's drivers only).
TEST(CooperativeMatrix2WorkgroupSettings, MatrixUnitsMultiplyOnTheDriversCooperativeMatrices) {
    if (!driver_has_cooperative_matrices()) GTEST_SKIP() << "the driver has no VK_KHR_cooperative_matrix";
    for (Lowering lowering : {Lowering::LayerOnMatrixUnits, Lowering::LayerOnKeptMatrixUnits, Lowering::Layer}) {
        TempDir dumps;
        ScopedEnv dump_dir("VK_POLYFILL_EXTENSIONS_DUMP_DIR", dumps.path().c_str());
        ScopedEnv forced("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME);
        const Inputs in = make_inputs();
        EXPECT_EQ(run(lowering, 0, in, kRows * kColumns), scores(in));
        const auto files = dumps.files_ending_with(".lowered.spv");
        ASSERT_EQ(files.size(), 1u);
        const std::string text = lowering::disassemble(read_words(files[0]));
        EXPECT_EQ(text.find("OpCooperativeMatrixMulAddKHR") != std::string::npos, lowering != Lowering::Layer);
    }
}

INSTANTIATE_TEST_SUITE_P(Lowered, CooperativeMatrix2Workgroup,
                         testing::Values(Lowering::Library, Lowering::LibraryAsLoops, Lowering::LibraryPerInvocationLoads,
                                         Lowering::LibraryStagedInChunks, Lowering::LibraryDistributed,
                                         Lowering::LibraryDistributedInChunks, Lowering::LibraryStreamedOnLanes, Lowering::Layer, Lowering::LayerScalarLoads,
                                         Lowering::LayerPerInvocationLoads, Lowering::LayerOnMatrixUnits,
                                         Lowering::LayerOnKeptMatrixUnits),
                         [](const testing::TestParamInfo<Lowering>& param) {
                             switch (param.param) {
                                 case Lowering::Library: return "ByTheLibrary";
                                 case Lowering::LibraryAsLoops: return "ByTheLibraryAsLoops";
                                 case Lowering::LibraryPerInvocationLoads: return "ByTheLibraryWithPerInvocationLoads";
                                 case Lowering::LibraryStagedInChunks: return "ByTheLibraryStagedInChunks";
                                 case Lowering::LibraryDistributed: return "ByTheLibraryDistributed";
                                 case Lowering::LibraryDistributedInChunks: return "ByTheLibraryDistributedInChunks";
                                 case Lowering::LibraryStreamedOnLanes: return "ByTheLibraryStreamedOnLanes";
                                 case Lowering::Layer: return "ByTheLayer";
                                 case Lowering::LayerScalarLoads: return "ByTheLayerWithScalarLoads";
                                 case Lowering::LayerPerInvocationLoads: return "ByTheLayerWithPerInvocationLoads";
                                 case Lowering::LayerOnMatrixUnits: return "ByTheLayerOnMatrixUnits";
                                 case Lowering::LayerOnKeptMatrixUnits: return "ByTheLayerOnKeptMatrixUnits";
                             }
                             return "";
                         });

}  // namespace
}  // namespace vkpolyfill::test
