// More SPV_ARM_tensors shaders through the layer (VK-GL-CTS's tensor groups as the model): ranks 1 to
// 8 packed and strided, arrays of tensors indexed by a constant, a uniform and a non-uniform index,
// tensors passed to functions with out-of-bounds reads answered by OutOfBoundsValueARM, and a SPIR-V
// 1.5 module. Each against a CPU reference, with canaries around the written tensors.
#include <cstring>
#include <numeric>

#include <gtest/gtest.h>

#include "arm_tensor_device.h"

namespace vkpolyfill::test {
namespace {

using Binding = TensorComputePipeline::Binding;
constexpr Binding kTensor{VK_DESCRIPTOR_TYPE_TENSOR_ARM};

template <typename T>
T& at(const TestTensor& t, const std::vector<uint64_t>& coordinates) {
    return *reinterpret_cast<T*>(t.data + t.offset(coordinates));
}

// Every coordinate of `dimensions` in row-major order.
std::vector<std::vector<uint64_t>> all_coordinates(const std::vector<int64_t>& dimensions) {
    std::vector<std::vector<uint64_t>> all;
    std::vector<uint64_t> c(dimensions.size(), 0);
    const int64_t count = std::accumulate(dimensions.begin(), dimensions.end(), int64_t{1}, std::multiplies<>());
    for (int64_t n = 0; n < count; ++n) {
        all.push_back(c);
        for (size_t d = c.size(); d-- > 0;) {
            if (++c[d] < static_cast<uint64_t>(dimensions[d])) break;
            c[d] = 0;
        }
    }
    return all;
}

// Bytes of `t` outside its elements (gaps between strided rows, padding) still hold the canary.
bool gaps_untouched(const TestTensor& t) {
    std::vector<bool> element(t.size, false);
    for (const auto& c : all_coordinates(t.dimensions)) {
        for (uint32_t b = 0; b < t.element_size; ++b) element[t.offset(c) + b] = true;
    }
    for (size_t i = 0; i < t.size; ++i) {
        if (!element[i] && t.data[i] != kCanary) return false;
    }
    return TensorDevice::canaries_intact(t);
}

class ArmTensorsRanks : public testing::TestWithParam<uint32_t> {};

void copy_rank(uint32_t rank, bool strided) {
    TensorDevice device;
    std::vector<int64_t> dimensions;
    for (uint32_t d = 0; d < rank; ++d) dimensions.push_back(d % 3 == 0 ? 3 : d % 3 == 1 ? 2 : 1 + rank % 3);
    std::vector<int64_t> strides;
    if (strided) {  // one element of gap after every run of the innermost dimension, more further out
        strides.resize(rank);
        int64_t stride = 4;
        for (uint32_t d = rank; d-- > 0;) {
            strides[d] = stride;
            stride = stride * dimensions[d] + (d + 1 == rank ? 4 : 8);
        }
    }
    const TestTensor src = device.create(VK_FORMAT_R32_UINT, dimensions, strides), dst = device.create(VK_FORMAT_R32_UINT, dimensions, strides);
    const auto coordinates = all_coordinates(dimensions);
    for (size_t i = 0; i < coordinates.size(); ++i) at<uint32_t>(src, coordinates[i]) = 1000 + static_cast<uint32_t>(i) * 7;
    TensorComputePipeline pipeline(device, "tests/arm_tensors/ranks_" + std::to_string(rank) + ".comp", {{kTensor, kTensor}});
    pipeline.write_tensors(0, 0, {device.view(src, VK_FORMAT_R32_UINT)});
    pipeline.write_tensors(0, 1, {device.view(dst, VK_FORMAT_R32_UINT)});
    pipeline.dispatch(static_cast<uint32_t>(coordinates.size() / 8 + 2));  // invocations past the end write nothing
    for (size_t i = 0; i < coordinates.size(); ++i) ASSERT_EQ(at<uint32_t>(dst, coordinates[i]), 1000 + i * 7) << i;
    EXPECT_TRUE(gaps_untouched(dst));
}

TEST_P(ArmTensorsRanks, APackedTensorIsCopiedElementByElement) { copy_rank(GetParam(), false); }
TEST_P(ArmTensorsRanks, AStridedTensorIsCopiedAndItsGapsKept) { copy_rank(GetParam(), true); }
INSTANTIATE_TEST_SUITE_P(Rank, ArmTensorsRanks, testing::Range(1u, 9u));

TEST(ArmTensorsShaderCases, ArraysOfTensorsIndexedByConstantUniformAndNonUniformIndices) {
    TensorDevice device;
    std::vector<TestTensor> tables;
    std::vector<VkTensorViewARM> views;
    for (int32_t t = 0; t < 4; ++t) {
        tables.push_back(device.create(VK_FORMAT_R32_SINT, {16}));
        for (uint64_t i = 0; i < 16; ++i) at<int32_t>(tables.back(), {i}) = (t + 1) * 100 + static_cast<int32_t>(i);
        views.push_back(device.view(tables.back(), VK_FORMAT_R32_SINT));
    }
    const TestTensor out = device.create(VK_FORMAT_R32_SINT, {16});
    TensorComputePipeline pipeline(device, "tests/arm_tensors/arrays.comp", {{Binding{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4}, kTensor}}, 4);
    pipeline.write_tensors(0, 0, views);
    pipeline.write_tensors(0, 1, {device.view(out, VK_FORMAT_R32_SINT)});
    const uint32_t pick = 1;
    pipeline.dispatch(1, 1, 1, std::as_bytes(std::span(&pick, 1)));
    for (uint64_t i = 0; i < 16; ++i) {
        const int32_t expected = at<int32_t>(tables[2], {i}) + at<int32_t>(tables[pick], {i}) + at<int32_t>(tables[i % 4], {i});
        EXPECT_EQ(at<int32_t>(out, {i}), expected) << i;
    }
    EXPECT_TRUE(gaps_untouched(out));
}

TEST(ArmTensorsShaderCases, TensorsPassedToFunctionsAndOutOfBoundsValues) {
    TensorDevice device;
    const TestTensor src = device.create(VK_FORMAT_R32_SFLOAT, {5}), dst = device.create(VK_FORMAT_R32_SFLOAT, {12});
    const TestTensor w0 = device.create(VK_FORMAT_R32_SFLOAT, {12}), w1 = device.create(VK_FORMAT_R32_SFLOAT, {12});
    const TestTensor bias = device.create(VK_FORMAT_R32_SFLOAT, {9});
    for (uint64_t i = 0; i < 5; ++i) at<float>(src, {i}) = 1.5f * static_cast<float>(i);
    for (uint64_t i = 0; i < 9; ++i) at<float>(bias, {i}) = 0.25f * static_cast<float>(i);
    for (uint64_t i = 0; i < 12; ++i) {
        at<float>(w0, {i}) = 1000.0f;
        at<float>(w1, {i}) = static_cast<float>(i) + 2.0f;
    }
    TensorComputePipeline pipeline(device, "tests/arm_tensors/functions.comp", {{kTensor, kTensor}, {Binding{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2}, kTensor}});
    pipeline.write_tensors(0, 0, {device.view(src, VK_FORMAT_R32_SFLOAT)});
    pipeline.write_tensors(0, 1, {device.view(dst, VK_FORMAT_R32_SFLOAT)});
    pipeline.write_tensors(1, 0, {device.view(w0, VK_FORMAT_R32_SFLOAT), device.view(w1, VK_FORMAT_R32_SFLOAT)});
    pipeline.write_tensors(1, 1, {device.view(bias, VK_FORMAT_R32_SFLOAT)});
    pipeline.dispatch(2);  // 16 invocations: 12 in dst, 4 writing nothing
    for (uint64_t i = 0; i < 12; ++i) {
        // OutOfBoundsValueARM (-1) past src and past bias.
        const float read = i < 5 ? at<float>(src, {i}) : -1.0f;
        const float added = i < 9 ? at<float>(bias, {i}) : -1.0f;
        EXPECT_EQ(at<float>(dst, {i}), read * at<float>(w1, {i}) + added + 12.0f) << i;
    }
    EXPECT_TRUE(gaps_untouched(dst));
    EXPECT_TRUE(gaps_untouched(src));
}

TEST(ArmTensorsShaderCases, ASpirv15ModuleOfByteElements) {
    TensorDevice device;
    const std::vector<int64_t> dims{5, 7};
    const TestTensor src = device.create(VK_FORMAT_R8_UINT, dims, {12, 1}), copy = device.create(VK_FORMAT_R8_UINT, dims, {12, 1}),
                     rows = device.create(VK_FORMAT_R8_UINT, dims);
    for (const auto& c : all_coordinates(dims)) at<uint8_t>(src, c) = static_cast<uint8_t>(c[0] * 31 + c[1] * 3 + 1);
    Context& ctx = device.context();
    const Buffer sizes = ctx.create_buffer(8);
    TensorComputePipeline pipeline(device, "tests/arm_tensors/vulkan12.comp",
                                   {{kTensor, kTensor, kTensor, Binding{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
    pipeline.write_tensors(0, 0, {device.view(src, VK_FORMAT_R8_UINT)});
    pipeline.write_tensors(0, 1, {device.view(copy, VK_FORMAT_R8_UINT)});
    pipeline.write_tensors(0, 2, {device.view(rows, VK_FORMAT_R8_UINT)});
    pipeline.write_buffer(0, 3, sizes);
    pipeline.dispatch(2, 2);
    for (const auto& c : all_coordinates(dims)) {
        EXPECT_EQ(at<uint8_t>(copy, c), at<uint8_t>(src, c));
        EXPECT_EQ(at<uint8_t>(rows, c), at<uint8_t>(src, c));
    }
    EXPECT_TRUE(gaps_untouched(copy));
    EXPECT_TRUE(gaps_untouched(rows));
    EXPECT_EQ(sizes.as<uint32_t>()[0], 5u);
    EXPECT_EQ(sizes.as<uint32_t>()[1], 7u);
}

}  // namespace
}  // namespace vkpolyfill::test
