// The KHR cooperative-matrix lowering on its own, without the layer: a GEMM tile shader lowered by
// the library for the device's subgroup size runs on the driver and matches a CPU reference. This
// checks the lowering's arithmetic and lane layout independently of pipeline interception.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <cmath>

#include "library_lowering.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

// IEEE half from a small integer (exact): sign, exponent, mantissa by hand to avoid a f16 type.
uint16_t half_from_int(int value) {
    if (value == 0) return 0;
    const uint16_t sign = value < 0 ? 0x8000 : 0;
    uint32_t magnitude = static_cast<uint32_t>(std::abs(value));
    int exponent = 0;
    while ((magnitude >> exponent) > 1) ++exponent;
    const uint32_t mantissa = (magnitude << (10 - exponent)) & 0x3FF;
    return static_cast<uint16_t>(sign | ((exponent + 15) << 10) | mantissa);
}

uint32_t subgroup_size(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    return subgroup.subgroupSize;
}

TEST(LoweredModule, CooperativeMatrixGemmTileMatchesCpu) {
    VkPhysicalDeviceVulkan11Features features11 = vku::InitStructHelper();
    features11.storageBuffer16BitAccess = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features11);
    features12.shaderFloat16 = VK_TRUE;
    features12.vulkanMemoryModel = VK_TRUE;
    Context context({.layer = false, .device_features_next = &features12});

    lowering::Target target;
    target.subgroup_size = subgroup_size(context.physical_device);
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix);
    const lowering::Result lowered = lower_and_dump(read_shader("tests/coopmat_khr.comp"), target, {});
    ASSERT_TRUE(lowered.ok);
    ASSERT_EQ(lowering::validate(lowered.words, VK_API_VERSION_1_3), "");

    constexpr uint32_t kTiles = 3, kStride = 16 * kTiles;
    Buffer a = context.create_buffer(16 * kStride * 2);
    Buffer b = context.create_buffer(16 * kTiles * kStride * 2);
    Buffer c = context.create_buffer(16 * kStride * 4);
    auto value = [](uint32_t i, uint32_t salt) { return static_cast<int>((i * 7 + salt * 13) % 5) - 2; };
    for (uint32_t i = 0; i < a.size / 2; ++i) a.as<uint16_t>()[i] = half_from_int(value(i, 1));
    for (uint32_t i = 0; i < b.size / 2; ++i) b.as<uint16_t>()[i] = half_from_int(value(i, 2));
    struct Push {
        uint32_t k_tiles, stride;
    } push{kTiles, kStride};
    ComputePipeline pipeline = context.create_compute_pipeline(lowered.words, 3, sizeof(Push));
    const Buffer* buffers[] = {&a, &b, &c};
    context.dispatch(pipeline, buffers, std::as_bytes(std::span(&push, 1)), 1);

    // The shader's own indexing: A row-major at a[k*16 + r*stride + kk], B column-major at
    // b[k*16*stride + col*stride + kk], C row-major at c[r*stride + col].
    for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t col = 0; col < 16; ++col) {
            float expected = 0;
            for (uint32_t k = 0; k < kTiles; ++k) {
                for (uint32_t kk = 0; kk < 16; ++kk) {
                    expected += static_cast<float>(value(k * 16 + r * kStride + kk, 1) *
                                                   value(k * 16 * kStride + col * kStride + kk, 2));
                }
            }
            EXPECT_EQ(c.as<float>()[r * kStride + col], expected) << "row " << r << " column " << col;
        }
    }
}

}  // namespace
}  // namespace vkpolyfill::test
