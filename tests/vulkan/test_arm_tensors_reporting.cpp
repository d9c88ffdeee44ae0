// What the layer reports for VK_ARM_tensors on drivers without it: the extension, its features and
// properties derived from the driver's storage-buffer limits, the storage-buffer limits tensors take,
// tensor format properties, and every command reachable through the proc-addr functions.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "coverage_tags.h"
#include "sanitizer_runtime.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kExtension = VK_ARM_TENSORS_EXTENSION_NAME;

TEST(ArmTensorsReporting, TheExtensionAndAllSixFeaturesAppearWithTheLayer) {
    Context without_layer({.layer = false});
    Context with_layer({});
    EXPECT_FALSE(lists_device_extension(without_layer.physical_device, kExtension)) << "this driver has the extension: the test assumes it lacks it";
    EXPECT_TRUE(lists_device_extension(with_layer.physical_device, kExtension));

    VkPhysicalDeviceTensorFeaturesARM features = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features2 = vku::InitStructHelper(&features);
    vkGetPhysicalDeviceFeatures2(with_layer.physical_device, &features2);
    // Both drivers have dynamic and non-uniform storage-buffer indexing and update-after-bind.
    EXPECT_TRUE(features.tensors);
    EXPECT_TRUE(features.tensorNonPacked);
    EXPECT_TRUE(features.shaderTensorAccess);
    EXPECT_TRUE(features.shaderStorageTensorArrayDynamicIndexing);
    EXPECT_TRUE(features.shaderStorageTensorArrayNonUniformIndexing);
    EXPECT_TRUE(features.descriptorBindingStorageTensorUpdateAfterBind);
}

TEST(ArmTensorsReporting, PropertiesComeFromTheDriversStorageBufferLimits) {
    Context without_layer({.layer = false});
    Context with_layer({});
    VkPhysicalDeviceVulkan12Properties driver12 = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 driver = vku::InitStructHelper(&driver12);
    vkGetPhysicalDeviceProperties2(without_layer.physical_device, &driver);
    VkPhysicalDeviceTensorPropertiesARM tensor = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Properties layer12 = vku::InitStructHelper(&tensor);
    VkPhysicalDeviceProperties2 layer = vku::InitStructHelper(&layer12);
    vkGetPhysicalDeviceProperties2(with_layer.physical_device, &layer);

    const VkPhysicalDeviceLimits& d = driver.properties.limits;
    const uint64_t size = d.maxStorageBufferRange / 16 * 16;
    EXPECT_EQ(tensor.maxTensorDimensionCount, 8u);
    EXPECT_GE(tensor.maxTensorDimensionCount, 6u);  // the minimum
    EXPECT_EQ(tensor.maxTensorSize, size);
    EXPECT_EQ(tensor.maxTensorElements, size / 8);  // both drivers store 64-bit elements
    EXPECT_EQ(tensor.maxPerDimensionTensorElements, size);
    EXPECT_EQ(tensor.maxTensorStride, static_cast<int64_t>(size));
    EXPECT_EQ(tensor.maxTensorShaderAccessArrayLength, 16u);
    EXPECT_EQ(tensor.maxTensorShaderAccessSize, 128u);
    EXPECT_EQ(tensor.maxPerStageDescriptorSetStorageTensors, d.maxPerStageDescriptorStorageBuffers / 4);
    EXPECT_EQ(tensor.maxDescriptorSetStorageTensors, d.maxDescriptorSetStorageBuffers / 4);
    EXPECT_EQ(tensor.maxPerStageDescriptorUpdateAfterBindStorageTensors, driver12.maxPerStageDescriptorUpdateAfterBindStorageBuffers / 4);
    EXPECT_EQ(tensor.maxDescriptorSetUpdateAfterBindStorageTensors, driver12.maxDescriptorSetUpdateAfterBindStorageBuffers / 4);
    EXPECT_EQ(tensor.shaderStorageTensorArrayNonUniformIndexingNative, driver12.shaderStorageBufferArrayNonUniformIndexingNative);
    EXPECT_EQ(tensor.shaderTensorSupportedStages, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);

    // Storage buffers left to the application plus twice the tensors fit the driver's limits.
    const VkPhysicalDeviceLimits& l = layer.properties.limits;
    EXPECT_LE(uint64_t{l.maxPerStageDescriptorStorageBuffers} + 2 * tensor.maxPerStageDescriptorSetStorageTensors, d.maxPerStageDescriptorStorageBuffers);
    EXPECT_LE(uint64_t{l.maxDescriptorSetStorageBuffers} + 2 * tensor.maxDescriptorSetStorageTensors, d.maxDescriptorSetStorageBuffers);
    EXPECT_LE(uint64_t{layer12.maxDescriptorSetUpdateAfterBindStorageBuffers} + 2 * tensor.maxDescriptorSetUpdateAfterBindStorageTensors,
              driver12.maxDescriptorSetUpdateAfterBindStorageBuffers);
    EXPECT_LE(uint64_t{l.maxPerStageResources} + tensor.maxPerStageDescriptorSetStorageTensors, d.maxPerStageResources);
    // The version-1 query says the same.
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(with_layer.physical_device, &properties);
    EXPECT_EQ(properties.limits.maxPerStageDescriptorStorageBuffers, l.maxPerStageDescriptorStorageBuffers);
}

VkTensorFormatPropertiesARM tensor_format(VkPhysicalDevice physical_device, VkFormat format) {
    VkTensorFormatPropertiesARM tensor = vku::InitStructHelper();
    VkFormatProperties2 properties = vku::InitStructHelper(&tensor);
    vkGetPhysicalDeviceFormatProperties2(physical_device, format, &properties);
    return tensor;
}

TEST(ArmTensorsReporting, TensorFormatsHaveShaderAndTransferFeatures) {
    Context context({});
    constexpr VkFormatFeatureFlags2 kAll =
        VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM | VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
    for (VkFormat format : {VK_FORMAT_R8_UINT, VK_FORMAT_R8_SINT, VK_FORMAT_R8_BOOL_ARM, VK_FORMAT_R16_SINT, VK_FORMAT_R16_SFLOAT,
                            VK_FORMAT_R32_UINT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R64_SINT, VK_FORMAT_R64_SFLOAT}) {
        const VkTensorFormatPropertiesARM tensor = tensor_format(context.physical_device, format);
        EXPECT_EQ(tensor.optimalTilingTensorFeatures, kAll) << format;
        EXPECT_EQ(tensor.linearTilingTensorFeatures, kAll) << format;
    }
    // bfloat16 tensors are copied, not read by lowered shaders; nothing aliases images.
    EXPECT_EQ(tensor_format(context.physical_device, VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM).linearTilingTensorFeatures,
              VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT);
    EXPECT_EQ(tensor_format(context.physical_device, VK_FORMAT_R8G8_UNORM).optimalTilingTensorFeatures, 0u);
    EXPECT_EQ(tensor_format(context.physical_device, VK_FORMAT_R32_SFLOAT).optimalTilingTensorFeatures &
                  VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM, 0u);
    // The driver's own answer for the image side is untouched.
    VkFormatProperties2 properties = vku::InitStructHelper();
    vkGetPhysicalDeviceFormatProperties2(context.physical_device, VK_FORMAT_R32_SFLOAT, &properties);
    EXPECT_NE(properties.formatProperties.bufferFeatures, 0u);
}

TEST(ArmTensorsReporting, ExternalTensorPropertiesAreThoseOfTheBuffer) {
    Context context({});
    const std::vector<int64_t> dimensions{4, 4};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_UINT, dimensions, {}, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkPhysicalDeviceExternalTensorInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalTensorPropertiesARM tensor = vku::InitStructHelper();
    auto query = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalTensorPropertiesARM>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceExternalTensorPropertiesARM"));
    ASSERT_NE(query, nullptr);
    query(context.physical_device, &info, &tensor);
    covers("vkGetPhysicalDeviceExternalTensorPropertiesARM");
    VkPhysicalDeviceExternalBufferInfo buffer_info = vku::InitStructHelper();
    buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalBufferProperties buffer = vku::InitStructHelper();
    vkGetPhysicalDeviceExternalBufferProperties(context.physical_device, &buffer_info, &buffer);
    EXPECT_EQ(tensor.externalMemoryProperties.externalMemoryFeatures, buffer.externalMemoryProperties.externalMemoryFeatures);
    EXPECT_EQ(tensor.externalMemoryProperties.compatibleHandleTypes, buffer.externalMemoryProperties.compatibleHandleTypes);
}

TEST(ArmTensorsReporting, EveryCommandIsReachableThroughTheProcAddrFunctions) {
    {
        // Without the extension enabled, the device keeps the driver's answer: no tensor commands.
        // (First: volk's global functions are those of the last instance made.)
        Context plain({});
        EXPECT_EQ(vkGetDeviceProcAddr(plain.device, "vkCreateTensorARM"), nullptr);
    }
    TensorDevice device;
    Context& context = device.context();
    EXPECT_NE(vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceExternalTensorPropertiesARM"), nullptr);
    for (const char* name : {"vkCreateTensorARM", "vkDestroyTensorARM", "vkCreateTensorViewARM", "vkDestroyTensorViewARM",
                             "vkGetTensorMemoryRequirementsARM", "vkGetDeviceTensorMemoryRequirementsARM", "vkBindTensorMemoryARM",
                             "vkCmdCopyTensorARM"}) {
        EXPECT_NE(vkGetDeviceProcAddr(context.device, name), nullptr) << name;
        EXPECT_NE(vkGetInstanceProcAddr(context.instance, name), nullptr) << name;
    }
}

TEST(ArmTensorsReporting, VulkaninfoListsTheExtensionThroughTheLayer) {
    const std::string command = sanitizer_runtime_preload() + "VK_INSTANCE_LAYERS=VK_LAYER_POLYFILL_extensions vulkaninfo 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char chunk[4096];
    while (size_t n = fread(chunk, 1, sizeof(chunk), pipe)) output.append(chunk, n);
    pclose(pipe);
    EXPECT_NE(output.find("VK_ARM_tensors"), std::string::npos) << "vulkaninfo printed " << output.size() << " bytes";
}

}  // namespace
}  // namespace vkpolyfill::test
