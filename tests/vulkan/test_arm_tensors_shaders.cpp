// SPV_ARM_tensors shaders through the layer end to end (the lowering's shaders/tests/arm_tensors):
// every element type read and written element by element and as arrays, packed and strided, on a grid
// larger than the tensors, against a CPU reference; canaries around and between rows prove nothing
// outside the tensors was written, and the size queries answer the tensor's shape.
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"

namespace vkpolyfill::test {
namespace {

struct ElementCase {
    const char* shader;  // tests/arm_tensors/elements_<name>.comp
    VkFormat format;
};

// Bytes of element i of a source tensor: values every type holds exactly (small integers, booleans).
void write_value(VkFormat format, uint32_t i, std::byte* out) {
    const int32_t n = static_cast<int32_t>(i % 50) - 20;
    switch (format) {
        case VK_FORMAT_R32_SFLOAT: { const float f = static_cast<float>(n) * 0.5f; std::memcpy(out, &f, 4); break; }
        case VK_FORMAT_R64_SFLOAT: { const double d = n * 0.25; std::memcpy(out, &d, 8); break; }
        case VK_FORMAT_R16_SFLOAT: {  // n / 4 as a half: exact for these magnitudes
            const float f = static_cast<float>(n) * 0.25f;
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            const uint16_t half = f == 0.0f ? 0
                                            : static_cast<uint16_t>(((bits >> 16) & 0x8000) | ((((bits >> 23) & 0xff) - 112) << 10) |
                                                                    ((bits >> 13) & 0x3ff));
            std::memcpy(out, &half, 2);
            break;
        }
        case VK_FORMAT_R8_BOOL_ARM: out[0] = std::byte(i % 3 == 0 ? 1 : 0); break;
        default: {
            const int64_t v = static_cast<int64_t>(n) * 3 + static_cast<int64_t>(i);
            std::memcpy(out, &v, element_size(format));  // little-endian: the low bytes
        }
    }
}

class ArmTensorsShaders : public testing::TestWithParam<ElementCase> {};

void run_elements(const ElementCase& c, bool strided) {
    TensorDevice device;
    Context& ctx = device.context();
    const int64_t e = element_size(c.format);
    const std::vector<int64_t> dims{5, 7};
    const std::vector<int64_t> strides = strided ? std::vector<int64_t>{9 * e, e} : std::vector<int64_t>{};
    const TestTensor src = device.create(c.format, dims, strides), copy = device.create(c.format, dims, strides),
                     rows = device.create(c.format, dims, strides);
    for (uint32_t y = 0; y < 5; ++y) {
        for (uint32_t x = 0; x < 7; ++x) write_value(c.format, y * 7 + x, src.data + src.offset({y, x}));
    }
    const Buffer sizes = ctx.create_buffer(16);
    using Binding = TensorComputePipeline::Binding;
    const Binding tensor{VK_DESCRIPTOR_TYPE_TENSOR_ARM};
    TensorComputePipeline pipeline(device, std::string("tests/arm_tensors/") + c.shader + ".comp",
                                   {{tensor, tensor, tensor, Binding{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
    pipeline.write_tensors(0, 0, {device.view(src, c.format)});
    pipeline.write_tensors(0, 1, {device.view(copy, c.format)});
    pipeline.write_tensors(0, 2, {device.view(rows, c.format)});
    pipeline.write_buffer(0, 3, sizes);
    pipeline.dispatch(2, 2);  // 8 x 8 invocations over a 5 x 7 tensor

    // Both outputs equal the source element by element; gaps and canaries keep their bytes.
    for (const TestTensor* out : {&copy, &rows}) {
        std::vector<std::byte> expected(out->size, kCanary);
        for (uint32_t y = 0; y < 5; ++y) {
            for (uint32_t x = 0; x < 7; ++x) std::memcpy(&expected[out->offset({y, x})], src.data + src.offset({y, x}), e);
        }
        EXPECT_EQ(std::memcmp(out->data, expected.data(), out->size), 0) << (out == &copy ? "copy" : "rows");
        EXPECT_TRUE(TensorDevice::canaries_intact(*out));
    }
    EXPECT_EQ(sizes.as<uint32_t>()[0], 5u);
    EXPECT_EQ(sizes.as<uint32_t>()[1], 7u);
    // The layer lowered the module (the driver has no tensors), with nothing else to say.
    EXPECT_EQ(device.messages.count("vkpolyfill-lowering", "lowered entry point main"), 1u) << device.messages.dump();
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

TEST_P(ArmTensorsShaders, PackedElementsAreReadWrittenAndSized) { run_elements(GetParam(), false); }
TEST_P(ArmTensorsShaders, StridedElementsLeaveTheGapsAlone) { run_elements(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Elements, ArmTensorsShaders,
                         testing::Values(ElementCase{"elements_u8", VK_FORMAT_R8_UINT}, ElementCase{"elements_s8", VK_FORMAT_R8_SINT},
                                         ElementCase{"elements_u16", VK_FORMAT_R16_UINT}, ElementCase{"elements_s16", VK_FORMAT_R16_SINT},
                                         ElementCase{"elements_u32", VK_FORMAT_R32_UINT}, ElementCase{"elements_s32", VK_FORMAT_R32_SINT},
                                         ElementCase{"elements_u64", VK_FORMAT_R64_UINT}, ElementCase{"elements_s64", VK_FORMAT_R64_SINT},
                                         ElementCase{"elements_f16", VK_FORMAT_R16_SFLOAT}, ElementCase{"elements_f32", VK_FORMAT_R32_SFLOAT},
                                         ElementCase{"elements_f64", VK_FORMAT_R64_SFLOAT}, ElementCase{"elements_bool", VK_FORMAT_R8_BOOL_ARM}),
                         [](const testing::TestParamInfo<ElementCase>& param) { return std::string(param.param.shader); });

}  // namespace
}  // namespace vkpolyfill::test
