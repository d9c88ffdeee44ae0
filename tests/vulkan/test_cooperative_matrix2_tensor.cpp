// Tensor-addressed loads and stores (SPV_NV_tensor_addressing with SPV_NV_cooperative_matrix2) of
// subgroup- and workgroup-scope matrices, lowered by the library for the device's subgroup size and
// run on the driver without the layer, against the CPU transcription of the spec's addressing
// pseudo-code (tensor_reference.h): every clamp mode at the edges of 1-, 2-, 3- and 5-D slices,
// explicit strides, block sizes, transposing and clipping views, views with their own dimensions,
// strides and permutation, stores that discard what falls outside, and 2-D slices whose spans the
// module fixes to the matrix's shape (the lowering then decides the addressing's direct path when
// it lowers, where the clamp mode allows); all of it again with the
// buffers declared as uint8_t arrays (each float component four array elements, as llama.cpp's
// attention kernels load their matrices).
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <bit>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "tensor_reference.h"
#include "coopmat2_target.h"
#include "coopmat_compare.h"
#include "library_lowering.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using namespace tensor;

// The parameters the shader builds its layout and view from (tensor_addressing.glsl's p[]).
struct Setup {
    std::vector<uint32_t> dims{};
    std::vector<int32_t> offsets{};
    std::vector<uint32_t> spans{};
    std::vector<uint32_t> strides{};  // empty: those of OpTensorLayoutSetDimensionNV
    std::vector<uint32_t> block{};    // empty: blocks of 1
    std::vector<uint32_t> view_dims{};     // OP 6 only
    std::vector<uint32_t> view_strides{};  // OP 6; empty: those of OpTensorViewSetDimensionNV
    std::array<uint32_t, 4> clip{0, 0xFFFFFFFFu, 0, 0xFFFFFFFFu};
    uint32_t element = 5;  // the Pointer's index into the buffer
};

struct Case {
    std::string name;
    uint32_t op;  // tensor_addressing.glsl's OP
    ClampMode mode;
    std::function<Setup(uint32_t n)> setup;  // for an n x n matrix
};

bool is_store(uint32_t op) { return op == 2 || op == 3 || op == 9; }

// What the shader's OP builds from `s`, built by the reference's transcription of each instruction.
Layout make_layout(const Setup& s, ClampMode mode) {
    Layout t = create_layout(uint32_t(s.dims.size()), mode);
    if (!s.block.empty()) t = set_block_size(t, s.block);
    t = set_dimension(t, s.dims);
    if (!s.strides.empty()) t = set_stride(t, s.strides);
    return set_clamp_value(slice(t, s.offsets, s.spans), std::bit_cast<uint32_t>(42.5f));
}

std::optional<View> make_view(const Setup& s, uint32_t op) {
    View v;
    if (op == 1 || op == 3 || op == 8) {
        v = create_view(2, false, {1, 0});
    } else if (op == 6) {
        v = set_view_dimension(create_view(3, true, {2, 0, 1}), s.view_dims);
        if (!s.view_strides.empty()) v = set_view_stride(v, s.view_strides);
    } else {
        return std::nullopt;
    }
    return set_clip(v, s.clip[0], s.clip[1], s.clip[2], s.clip[3]);
}

std::vector<uint32_t> parameters(const Setup& s) {
    std::vector<uint32_t> p(44, 0);
    const auto put = [&](uint32_t at, const auto& values) {
        for (size_t i = 0; i < values.size(); ++i) p[at + i] = uint32_t(values[i]);
    };
    put(0, s.dims);
    put(5, s.offsets);
    put(10, s.spans);
    p[15] = std::bit_cast<uint32_t>(42.5f);
    put(16, s.strides);
    p[21] = s.strides.empty() ? 0 : 1;
    put(22, s.block);
    p[27] = s.block.empty() ? 0 : 1;
    put(28, s.view_dims);
    put(33, s.view_strides);
    p[38] = s.view_strides.empty() ? 0 : 1;
    put(39, s.clip);
    p[43] = s.element;
    return p;
}

constexpr float kObject = -1.0f, kUntouched = -7.0f;

float source_value(uint32_t i) { return float(i) * 0.5f - 100.0f; }

void run(const Case& test, const char* shader, uint32_t n) {
    const Setup s = test.setup(n);
    const Layout layout = make_layout(s, test.mode);
    const std::optional<View> view = make_view(s, test.op);
    const bool store = is_store(test.op);

    std::vector<Address> addresses;
    uint32_t largest = 0;
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            addresses.push_back(address(layout, view ? &*view : nullptr, r, c, n, store));
            if (addresses.back().fate == Fate::Element) largest = std::max(largest, addresses.back().index);
        }
    }
    const uint32_t tensor_elements = s.element + largest + 16;

    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper();
    features13.maintenance4 = VK_TRUE;  // the subgroup shaders' workgroup is LocalSizeId (one subgroup)
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features13);
    features12.vulkanMemoryModel = VK_TRUE;
    features12.storageBuffer8BitAccess = VK_TRUE;  // the byte variants
    features12.shaderInt8 = VK_TRUE;
    Context context({.layer = false, .device_features_next = &features12});
    const lowering::Target target = coopmat2_target(context.physical_device, 16384);
    const uint32_t constants[] = {test.op, test.mode};
    lowering::Options options;
    for (uint32_t id = 0; id < 2; ++id) {
        options.specialization.push_back({id, {uint8_t(constants[id]), uint8_t(constants[id] >> 8), 0, 0}});
    }
    const lowering::Result lowered = lower_and_dump(read_shader(shader), target, options);
    ASSERT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    ASSERT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");

    const std::vector<uint32_t> p = parameters(s);
    Buffer params = context.create_buffer(p.size() * sizeof(uint32_t));
    std::memcpy(params.mapped, p.data(), p.size() * sizeof(uint32_t));
    Buffer source = context.create_buffer((store ? n * n : tensor_elements) * sizeof(float));
    Buffer result = context.create_buffer((store ? tensor_elements : n * n) * sizeof(float));
    for (uint32_t i = 0; i < source.as<float>().size(); ++i) source.as<float>()[i] = store ? float(i + 1) : source_value(i);
    for (float& x : result.as<float>()) x = kUntouched;

    const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}};
    const VkSpecializationInfo specialization{2, entries, sizeof(constants), constants};
    ComputePipeline pipeline = context.create_compute_pipeline(lowered.words, 3, 0, &specialization);
    const Buffer* buffers[] = {&params, &source, &result};
    context.dispatch(pipeline, buffers, {}, 1);

    std::vector<float> expected(result.as<float>().size(), kUntouched);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            const Address& a = addresses[r * n + c];
            if (store) {
                if (a.fate == Fate::Element) expected[s.element + a.index] = float(r * n + c + 1);
            } else {
                expected[r * n + c] = a.fate == Fate::Element ? source_value(s.element + a.index)
                                      : a.fate == Fate::Outside ? 42.5f
                                                                : kObject;
            }
        }
    }
    EXPECT_TRUE(coopmat::floats_match(store ? "the tensor" : "the matrix", result.as<float>().first(expected.size()), expected));
}

const char* mode_name(ClampMode mode) {
    static const char* const names[] = {"Undefined", "Constant", "ClampToEdge", "Repeat", "RepeatMirrored"};
    return names[mode];
}

std::vector<Case> cases() {
    std::vector<Case> all;
    const ClampMode clamping[] = {Constant, ClampToEdge, Repeat, RepeatMirrored};
    // A slice hanging over all four edges of an (n/2 + 3) x (n/2 + 5) tensor.
    const auto over_edges = [](uint32_t n) {
        return Setup{.dims = {n / 2 + 3, n / 2 + 5}, .offsets = {-2, -3}, .spans = {n, n}};
    };
    const auto inside = [](uint32_t n) { return Setup{.dims = {n + 4, n + 6}, .offsets = {2, 3}, .spans = {n, n}}; };
    for (ClampMode mode : clamping) {
        all.push_back({std::string("Slice2D") + mode_name(mode), 0, mode, over_edges});
        all.push_back({std::string("TransposedView") + mode_name(mode), 1, mode, over_edges});
        all.push_back({std::string("Store2D") + mode_name(mode), 2, mode, over_edges});
        all.push_back({std::string("Slice1D") + mode_name(mode), 4, mode,
                       [](uint32_t n) { return Setup{.dims = {n * n - 20}, .offsets = {-5}, .spans = {n * n}}; }});
        all.push_back({std::string("Slice5D") + mode_name(mode), 5, mode, [](uint32_t n) {
                           return Setup{.dims = {3, 3, 2, 3, n * n / 16 - 1}, .offsets = {1, 0, 1, -1, 1},
                                        .spans = {2, 2, 2, 2, n * n / 16}};
                       }});
    }
    all.push_back({"Slice2DUndefined", 0, Undefined, inside});
    all.push_back({"Store2DUndefined", 2, Undefined, inside});
    all.push_back({"Strided2D", 0, Constant, [](uint32_t n) {
                       return Setup{.dims = {n + 1, n + 2}, .offsets = {1, 0}, .spans = {n, n}, .strides = {n + 9, 1}};
                   }});
    all.push_back({"BlockSize2D", 0, Constant, [](uint32_t n) {
                       return Setup{.dims = {n + 2, n + 6}, .offsets = {1, 2}, .spans = {n, n}, .block = {2, 4}};
                   }});
    all.push_back({"ClippedTransposedView", 1, Constant, [](uint32_t n) {
                       Setup s{.dims = {n + 1, n + 3}, .offsets = {0, 1}, .spans = {n, n}};
                       s.clip = {2, n - 5, 3, n - 6};
                       return s;
                   }});
    all.push_back({"StoreClippedTransposedView", 3, Constant, [](uint32_t n) {
                       Setup s{.dims = {n / 2 + 3, n + 1}, .offsets = {-1, 0}, .spans = {n, n}};
                       s.clip = {1, n - 3, 2, n - 4};
                       return s;
                   }});
    all.push_back({"View3DOwnDimensions", 6, Constant, [](uint32_t n) {
                       Setup s{.dims = {5, n / 2, n}, .offsets = {0, 1, 0}, .spans = {4, n / 2, n}, .view_dims = {4, n, n / 4}};
                       s.clip = {1, n - 2, 0, n};
                       return s;
                   }});
    // Views with the default clip, over the edges: Constant puts elements outside, none is clipped.
    all.push_back({"TransposedViewOverTheEdges", 1, Constant, [](uint32_t n) {
                       return Setup{.dims = {n - 3, n + 2}, .offsets = {-1, 2}, .spans = {n, n}};
                   }});
    all.push_back({"StoreTransposedViewOverTheEdges", 3, Constant, [](uint32_t n) {
                       return Setup{.dims = {n + 2, n - 5}, .offsets = {1, -2}, .spans = {n, n}};
                   }});
    // Slices not of the matrix's shape (narrower, wider, shorter: the matrix wraps over the span's
    // rows; taller: it does not), where the addressing takes its general path or its direct one.
    const std::pair<const char*, std::function<Setup(uint32_t)>> shapes[] = {
        {"Narrower", [](uint32_t n) { return Setup{.dims = {2 * n, n}, .offsets = {1, 2}, .spans = {2 * n, n / 2}}; }},
        {"Wider", [](uint32_t n) { return Setup{.dims = {n, 2 * n + 1}, .offsets = {-1, 0}, .spans = {n / 2, 2 * n}}; }},
        {"Shorter", [](uint32_t n) { return Setup{.dims = {n, n + 1}, .offsets = {1, -1}, .spans = {n / 2, n}}; }},
        {"Taller", [](uint32_t n) { return Setup{.dims = {n + 2, n + 3}, .offsets = {0, 1}, .spans = {n + 3, n}}; }},
    };
    for (const auto& [shape, setup] : shapes) {
        all.push_back({std::string(shape) + "Slice2D", 0, Constant, setup});
        // Transposed, the slice's dimensions swap.
        all.push_back({std::string(shape) + "TransposedView", 1, Constant, [setup](uint32_t n) {
                           Setup s = setup(n);
                           std::swap(s.dims[0], s.dims[1]);
                           std::swap(s.offsets[0], s.offsets[1]);
                           std::swap(s.spans[0], s.spans[1]);
                           return s;
                       }});
    }
    // The spans fixed by the module (n, as the setups give them): Undefined and Constant loads and
    // every store take the direct path alone; ClampToEdge loads keep the general one.
    all.push_back({"FixedSlice2DConstant", 7, Constant, over_edges});
    all.push_back({"FixedSlice2DUndefined", 7, Undefined, inside});
    all.push_back({"FixedSlice2DClampToEdge", 7, ClampToEdge, over_edges});
    all.push_back({"FixedStrided2D", 7, Constant, [](uint32_t n) {
                       return Setup{.dims = {n + 1, n + 2}, .offsets = {-1, 1}, .spans = {n, n}, .strides = {n + 9, 1}};
                   }});
    // A Constant load on the direct path reads an element outside at the tensor's first element and
    // takes the clamp value instead (no branch an element), and reads nothing from an empty layout.
    all.push_back({"FixedSlice2DConstantAllOutside", 7, Constant,
                   [](uint32_t n) { return Setup{.dims = {n, n}, .offsets = {static_cast<int32_t>(n) + 2, 0}, .spans = {n, n}}; }});
    all.push_back({"FixedSlice2DConstantEmpty", 7, Constant, [](uint32_t n) { return Setup{.dims = {0, n}, .offsets = {0, 0}, .spans = {n, n}}; }});
    all.push_back({"FixedTransposedViewConstant", 8, Constant, over_edges});
    all.push_back({"FixedStore2DConstant", 9, Constant, over_edges});
    all.push_back({"FixedStore2DRepeat", 9, Repeat, over_edges});
    all.push_back({"View3DOwnStrides", 6, ClampToEdge, [](uint32_t n) {
                       return Setup{.dims = {4, n / 2, n}, .offsets = {0, 0, 0}, .spans = {4, n / 2, n}, .view_dims = {2, n, n / 2},
                                    .view_strides = {1, 2 * n, 2}};
                   }});
    return all;
}

std::string case_name(const testing::TestParamInfo<Case>& param_info) { return param_info.param.name; }

// The cases through a view that keeps the default clip, for tensor_addressing_unclipped.comp.
std::vector<Case> unclipped_view_cases() {
    std::vector<Case> unclipped;
    for (const Case& c : cases()) {
        if ((c.op == 1 || c.op == 3 || c.op == 6 || c.op == 8) && c.setup(16).clip == Setup{}.clip) unclipped.push_back(c);
    }
    return unclipped;
}

class CooperativeMatrix2TensorSubgroup : public testing::TestWithParam<Case> {};
class CooperativeMatrix2TensorWorkgroup : public testing::TestWithParam<Case> {};
class CooperativeMatrix2TensorUnclippedViews : public testing::TestWithParam<Case> {};

TEST_P(CooperativeMatrix2TensorSubgroup, MatchesCpu) { run(GetParam(), "tests/coopmat2/tensor_addressing_subgroup.comp", 16); }
TEST_P(CooperativeMatrix2TensorWorkgroup, MatchesCpu) { run(GetParam(), "tests/coopmat2/tensor_addressing_workgroup.comp", 32); }
TEST_P(CooperativeMatrix2TensorSubgroup, ThroughBytesMatchesCpu) {
    run(GetParam(), "tests/coopmat2/tensor_addressing_subgroup_bytes.comp", 16);
}
TEST_P(CooperativeMatrix2TensorWorkgroup, ThroughBytesMatchesCpu) {
    run(GetParam(), "tests/coopmat2/tensor_addressing_workgroup_bytes.comp", 32);
}

INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2TensorSubgroup, testing::ValuesIn(cases()), case_name);
INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2TensorWorkgroup, testing::ValuesIn(cases()), case_name);

// A module without OpTensorViewSetClipNV, whose loads never keep Object's values (-1 here): the
// elements outside take the clamp value, the rest are loaded.
TEST_P(CooperativeMatrix2TensorUnclippedViews, MatchesCpu) { run(GetParam(), "tests/coopmat2/tensor_addressing_unclipped.comp", 16); }
INSTANTIATE_TEST_SUITE_P(, CooperativeMatrix2TensorUnclippedViews, testing::ValuesIn(unclipped_view_cases()), case_name);

}  // namespace
}  // namespace vkpolyfill::test
