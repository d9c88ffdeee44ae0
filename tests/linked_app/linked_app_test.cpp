// The layer in an application that calls the loader's exported functions directly.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vulkan.h>

#include "conformance_listener.h"
#include "coverage_tags.h"
#include "test_driver.h"

namespace {

constexpr char kLayerName[] = "VK_LAYER_POLYFILL_extensions";

class LinkedApp : public testing::Test {
  protected:
    void SetUp() override {
        auto app = vku::InitStruct<VkApplicationInfo>();
        app.apiVersion = VK_API_VERSION_1_3;
        const char* layers[] = {kLayerName};
        auto info = vku::InitStruct<VkInstanceCreateInfo>();
        info.pApplicationInfo = &app;
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = layers;
        ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance_), VK_SUCCESS);
        uint32_t count = 1;
        ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &count, &physical_device_), VK_SUCCESS);
        ASSERT_EQ(count, 1u);
    }
    void TearDown() override {
        if (instance_) vkDestroyInstance(instance_, nullptr);
    }
    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
};

TEST_F(LinkedApp, ToolingInfoReachesTheLayer) {
    uint32_t count = 0;
    ASSERT_EQ(vkGetPhysicalDeviceToolProperties(physical_device_, &count, nullptr), VK_SUCCESS);
    std::vector tools(count, vku::InitStruct<VkPhysicalDeviceToolProperties>());
    ASSERT_EQ(vkGetPhysicalDeviceToolProperties(physical_device_, &count, tools.data()), VK_SUCCESS);
    ASSERT_GE(count, 1u);
    EXPECT_STREQ(tools[0].layer, kLayerName);
}

// The loader's trampolines for an extension command end in the layer's hook (emulated on the plain
// driver, the driver's own on the native one): either way the configurations are there.
TEST_F(LinkedApp, CooperativeMatrixCommandsAndDeviceWork) {
    vkpolyfill::test::covers("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    auto get_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
        vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    ASSERT_NE(get_properties, nullptr);
    uint32_t count = 0;
    ASSERT_EQ(get_properties(physical_device_, &count, nullptr), VK_SUCCESS);
    EXPECT_GE(count, 1u);

    auto cooperative_matrix = vku::InitStruct<VkPhysicalDeviceCooperativeMatrixFeaturesKHR>();
    cooperative_matrix.cooperativeMatrix = VK_TRUE;
    const float priority = 1.0f;
    auto queue = vku::InitStruct<VkDeviceQueueCreateInfo>();
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME};
    auto info = vku::InitStruct<VkDeviceCreateInfo>(&cooperative_matrix);
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = extensions;
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(physical_device_, &info, nullptr, &device), VK_SUCCESS);
    EXPECT_NE(vkGetDeviceProcAddr(device, "vkCreateComputePipelines"), nullptr);
    EXPECT_EQ(vkGetDeviceProcAddr(device, "vkNotACommand"), nullptr);
    vkDestroyDevice(device, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    vkpolyfill::test::add_conformance_listener();
    if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();  // test discovery at build time: no driver needed
    if (!vkpolyfill::test::use_test_driver(VKPOLYFILL_LAYER_MANIFEST_PATH)) return 1;
    return RUN_ALL_TESTS();
}
