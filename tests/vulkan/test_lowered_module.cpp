// The KHR cooperative-matrix lowering on its own, without the layer: a GEMM tile shader lowered by
// the library for the device's subgroup size runs on the driver and matches a CPU reference. This
// checks the lowering's arithmetic and lane layout independently of pipeline interception.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "gemm_tile.h"
#include "library_lowering.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

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

    ComputePipeline pipeline = context.create_compute_pipeline(lowered.words, kGemmTileBuffers, kGemmTilePushBytes);
    EXPECT_EQ(gemm_tile_mismatch(context, pipeline), "");
}

}  // namespace
}  // namespace vkpolyfill::test
