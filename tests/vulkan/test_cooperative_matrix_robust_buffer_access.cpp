// cooperativeMatrixRobustBufferAccess, as the KHR specification defines it with robustBufferAccess:
// a cooperative-matrix load or store that reaches past the end of its buffer does not fault; elements
// inside the buffer are loaded and stored as usual; an element loaded from outside it is zero or a
// value from inside the buffer. Through the layer: emulated on the plain driver, the driver's own on
// the native one (where it reports the 8x8 float accumulator the shader uses).
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <vector>

#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kElements = 64;       // the shader's 8x8 matrix, row-major with stride 8
constexpr uint32_t kSourceFloats = 37;   // the source ends in row 4
constexpr uint32_t kShortFloats = 45;    // so does the short destination, in row 5

bool reports_robust_coopmat(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&coopmat);
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    return coopmat.cooperativeMatrix && coopmat.cooperativeMatrixRobustBufferAccess && features.features.robustBufferAccess;
}

bool has_float_8x8_accumulator(VkPhysicalDevice physical_device) {
    uint32_t count = 0;
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(physical_device, &count, nullptr);
    std::vector<VkCooperativeMatrixPropertiesKHR> configurations(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(physical_device, &count, configurations.data());
    return std::any_of(configurations.begin(), configurations.end(), [](const VkCooperativeMatrixPropertiesKHR& c) {
        return c.scope == VK_SCOPE_SUBGROUP_KHR && c.ResultType == VK_COMPONENT_TYPE_FLOAT32_KHR && c.MSize == 8 && c.NSize == 8;
    });
}

TEST(CooperativeMatrixRobustBufferAccess, LoadsAndStoresPastTheEndOfTheirBuffers) {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    coopmat.cooperativeMatrix = VK_TRUE;
    coopmat.cooperativeMatrixRobustBufferAccess = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&coopmat);
    features12.vulkanMemoryModel = VK_TRUE;
    {
        Context probe({});
        if (!reports_robust_coopmat(probe.physical_device)) GTEST_SKIP() << "cooperativeMatrixRobustBufferAccess not reported";
        if (!has_float_8x8_accumulator(probe.physical_device)) GTEST_SKIP() << "no 8x8 float accumulator reported";
    }
    ContextOptions options;
    options.device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME};
    options.device_features.robustBufferAccess = VK_TRUE;
    options.device_features_next = &features12;
    Context context(options);

    Buffer source = context.create_buffer(kSourceFloats * sizeof(float));
    Buffer loaded = context.create_buffer(kElements * sizeof(float));
    Buffer short_destination = context.create_buffer(kShortFloats * sizeof(float));
    for (uint32_t i = 0; i < kSourceFloats; ++i) source.as<float>()[i] = float(i + 1);
    std::fill(loaded.as<float>().begin(), loaded.as<float>().end(), -1.0f);
    std::fill(short_destination.as<float>().begin(), short_destination.as<float>().end(), -1.0f);

    ComputePipeline pipeline = context.create_compute_pipeline(read_shader("tests/coopmat/robust_buffer_access.comp"), 3, 0);
    const Buffer* buffers[] = {&source, &loaded, &short_destination};
    context.dispatch(pipeline, buffers, {}, 1);

    const auto from_source = [&](float x) {
        return x == 0.0f || std::find(source.as<float>().begin(), source.as<float>().end(), x) != source.as<float>().end();
    };
    for (uint32_t i = 0; i < kElements; ++i) {
        const float x = loaded.as<float>()[i];
        if (i < kSourceFloats) {
            EXPECT_EQ(x, float(i + 1)) << "element " << i << " (inside the source)";
        } else {
            EXPECT_TRUE(from_source(x)) << "element " << i << " read from outside the source is " << x;
        }
    }
    for (uint32_t i = 0; i < kShortFloats; ++i) {
        EXPECT_EQ(short_destination.as<float>()[i], loaded.as<float>()[i]) << "element " << i << " of the short destination";
    }
}

}  // namespace
}  // namespace vkpolyfill::test
