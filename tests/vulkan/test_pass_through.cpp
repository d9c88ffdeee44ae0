// What the layer must not change: a module that needs no emulation reaches the driver
// byte-identical (seen by the spy layer below), computes the same results, and every query
// answer unrelated to emulation is the driver's own.
#include <cstring>
#include <set>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

struct VectorAddPush {
    uint32_t count;
    float scale;
};

// c = a * scale + b on the device; inputs chosen so every result is exact in float.
std::vector<float> run_vector_add(const ContextOptions& options, const std::vector<uint32_t>& spirv, uint32_t count) {
    Context context(options);
    Buffer a = context.create_buffer(count * sizeof(float));
    Buffer b = context.create_buffer(count * sizeof(float));
    Buffer c = context.create_buffer(count * sizeof(float));
    for (uint32_t i = 0; i < count; ++i) {
        a.as<float>()[i] = static_cast<float>(i % 1000);
        b.as<float>()[i] = static_cast<float>(i / 7) - 40.0f;
        c.as<float>()[i] = -1.0e30f;  // anything not written stays visibly wrong
    }
    ComputePipeline pipeline = context.create_compute_pipeline(spirv, 3, sizeof(VectorAddPush));
    const VectorAddPush push{count - 3, 0.5f};  // the last three must stay untouched
    const Buffer* buffers[] = {&a, &b, &c};
    context.dispatch(pipeline, buffers, std::as_bytes(std::span(&push, 1)), (count + 63) / 64);
    auto out = c.as<float>();
    return {out.begin(), out.end()};
}

TEST(PassThrough, ComputeModuleReachesTheDriverByteIdentical) {
    const std::vector<uint32_t> spirv = read_shader("tests/vector_add.comp");
    constexpr uint32_t kCount = 4099;
    std::vector<float> expected(kCount, -1.0e30f);
    for (uint32_t i = 0; i + 3 < kCount; ++i) expected[i] = static_cast<float>(i % 1000) * 0.5f + (static_cast<float>(i / 7) - 40.0f);

    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    const std::vector<float> with_layer = run_vector_add({.layer = true, .spy = true}, spirv, kCount);
    const auto modules = spy.files_ending_with("-module.spv");
    ASSERT_EQ(modules.size(), 1u);
    EXPECT_EQ(read_words(modules[0]), spirv) << "the layer changed a module that needs no emulation";

    const std::vector<float> without_layer = run_vector_add({.layer = false}, spirv, kCount);
    EXPECT_EQ(with_layer, expected);
    EXPECT_EQ(without_layer, expected);
}

// Core feature and property structs, as bytes, so any field the layer touched shows up.
struct CoreQueries {
    VkPhysicalDeviceVulkan11Features features11 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features11);
    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper(&features12);
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&features13);
    VkPhysicalDeviceVulkan11Properties properties11 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Properties properties12 = vku::InitStructHelper(&properties11);
    VkPhysicalDeviceVulkan13Properties properties13 = vku::InitStructHelper(&properties12);
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&properties13);

    explicit CoreQueries(VkPhysicalDevice physical_device) {
        vkGetPhysicalDeviceFeatures2(physical_device, &features);
        vkGetPhysicalDeviceProperties2(physical_device, &properties);
    }
};

template <typename T>
bool same_payload(const T& a, const T& b) {
    // Everything after sType/pNext.
    constexpr size_t header = sizeof(VkBaseOutStructure);
    return std::memcmp(reinterpret_cast<const char*>(&a) + header, reinterpret_cast<const char*>(&b) + header,
                       sizeof(T) - header) == 0;
}

std::set<std::string> extension_names(VkPhysicalDevice physical_device, const char* layer) {
    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical_device, layer, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(count);
    check(vkEnumerateDeviceExtensionProperties(physical_device, layer, &count, extensions.data()),
          "vkEnumerateDeviceExtensionProperties");
    std::set<std::string> names;
    for (uint32_t i = 0; i < count; ++i) names.insert(extensions[i].extensionName);
    return names;
}

// The emulated VK_EXT_shader_tile_image takes a descriptor set and input attachments from the
// limits (test_tile_image_reporting checks by how much); the layer reports less of those only.
void take_driver_descriptor_limits(CoreQueries& layer, const CoreQueries& driver) {
    VkPhysicalDeviceLimits& l = layer.properties.properties.limits;
    const VkPhysicalDeviceLimits& d = driver.properties.properties.limits;
    for (auto field : {&VkPhysicalDeviceLimits::maxBoundDescriptorSets, &VkPhysicalDeviceLimits::maxPerStageDescriptorInputAttachments,
                       &VkPhysicalDeviceLimits::maxDescriptorSetInputAttachments, &VkPhysicalDeviceLimits::maxPerStageResources,
                       // tensors take storage buffers (VK_ARM_tensors)
                       &VkPhysicalDeviceLimits::maxPerStageDescriptorStorageBuffers, &VkPhysicalDeviceLimits::maxDescriptorSetStorageBuffers}) {
        EXPECT_LT(l.*field, d.*field);
        l.*field = d.*field;
    }
    for (auto field : {&VkPhysicalDeviceVulkan12Properties::maxPerStageDescriptorUpdateAfterBindInputAttachments,
                       &VkPhysicalDeviceVulkan12Properties::maxDescriptorSetUpdateAfterBindInputAttachments,
                       &VkPhysicalDeviceVulkan12Properties::maxPerStageUpdateAfterBindResources,
                       &VkPhysicalDeviceVulkan12Properties::maxPerStageDescriptorUpdateAfterBindStorageBuffers,
                       &VkPhysicalDeviceVulkan12Properties::maxDescriptorSetUpdateAfterBindStorageBuffers}) {
        EXPECT_LT(layer.properties12.*field, driver.properties12.*field);
        layer.properties12.*field = driver.properties12.*field;
    }
    // Where the driver has a fragment shader interlock (lavapipe 26), the tile-image emulation's set
    // also takes storage images (test_tile_image_reporting checks by how much).
    for (auto field :
         {&VkPhysicalDeviceLimits::maxPerStageDescriptorStorageImages, &VkPhysicalDeviceLimits::maxDescriptorSetStorageImages}) {
        EXPECT_LE(l.*field, d.*field);
        l.*field = d.*field;
    }
    for (auto field : {&VkPhysicalDeviceVulkan12Properties::maxPerStageDescriptorUpdateAfterBindStorageImages,
                       &VkPhysicalDeviceVulkan12Properties::maxDescriptorSetUpdateAfterBindStorageImages}) {
        EXPECT_LE(layer.properties12.*field, driver.properties12.*field);
        layer.properties12.*field = driver.properties12.*field;
    }
}

TEST(PassThrough, CoreQueriesAreTheDriversOwn) {
    Context with_layer({});
    Context without_layer({.layer = false});
    CoreQueries a(with_layer.physical_device);
    const CoreQueries b(without_layer.physical_device);
    take_driver_descriptor_limits(a, b);
    EXPECT_TRUE(same_payload(a.features, b.features));
    EXPECT_TRUE(same_payload(a.features11, b.features11));
    EXPECT_TRUE(same_payload(a.features12, b.features12));
    EXPECT_TRUE(same_payload(a.features13, b.features13));
    EXPECT_TRUE(same_payload(a.properties, b.properties));
    EXPECT_TRUE(same_payload(a.properties11, b.properties11));
    EXPECT_TRUE(same_payload(a.properties12, b.properties12));
    EXPECT_TRUE(same_payload(a.properties13, b.properties13));
}

TEST(PassThrough, ExtensionListIsTheUnionOfDriverAndLayer) {
    Context with_layer({});
    Context without_layer({.layer = false});
    const std::set<std::string> driver = extension_names(without_layer.physical_device, nullptr);
    const std::set<std::string> layer = extension_names(with_layer.physical_device, kLayerName);
    const std::set<std::string> both = extension_names(with_layer.physical_device, nullptr);
    EXPECT_TRUE(layer.count(VK_EXT_TOOLING_INFO_EXTENSION_NAME));
    std::set<std::string> expected = driver;
    expected.insert(layer.begin(), layer.end());
    EXPECT_EQ(both, expected);
}

TEST(DeviceCreation, LayerExtensionsNeverReachTheDriver) {
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    std::set<std::string> layer_extensions, driver_extensions;
    {
        Context probe({.layer = true});
        layer_extensions = extension_names(probe.physical_device, kLayerName);
        Context plain({.layer = false});
        driver_extensions = extension_names(plain.physical_device, nullptr);
    }
    std::vector<const char*> enabled;
    for (const std::string& name : layer_extensions) enabled.push_back(name.c_str());
    // Where the driver has VK_KHR_cooperative_matrix itself, the layer does not list it, and the
    // extensions it lists that build on it need it enabled too.
    if (!layer_extensions.contains(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME) && driver_extensions.contains(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME)) {
        enabled.push_back(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    }
    Context context({.layer = true, .spy = true, .device_extensions = enabled});
    const auto records = spy.files_ending_with("-device.txt");
    ASSERT_EQ(records.size(), 1u);
    for (const std::string& line : read_lines(records[0])) {
        EXPECT_TRUE(driver_extensions.count(line)) << line << " reached a driver that lacks it";
    }
}

TEST(DeviceCreation, WithoutLayerFeaturesTheCreateInfoPassesUnchanged) {
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    Context context({.layer = true, .spy = true, .device_extensions = {VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME}});
    const auto records = spy.files_ending_with("-device.txt");
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(read_lines(records[0]), std::vector<std::string>{VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME});
}

}  // namespace
}  // namespace vkpolyfill::test
