// What the layer reports for VK_KHR_cooperative_matrix: on the plain driver the extension, its
// features, its properties and its configuration list appear only with the layer, and the list is the
// lowering's for this device; on the native driver the driver's answers pass through unless
// force_emulation says otherwise. Device creation with the feature works, and the driver never sees
// an extension the layer emulates.
#include <dlfcn.h>

#include <set>
#include <tuple>

#include <gtest/gtest.h>
#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vk_layer.h>

#include "coopmat_configurations.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kExtension = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;

bool native_driver() { return driver_name() == "native"; }

struct Reported {
    bool feature = false;
    bool robust_buffer_access = false;
    VkShaderStageFlags stages = 0;
};

Reported reported(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR features = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features2 = vku::InitStructHelper(&features);
    vkGetPhysicalDeviceFeatures2(physical_device, &features2);
    VkPhysicalDeviceCooperativeMatrixPropertiesKHR properties = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties2 = vku::InitStructHelper(&properties);
    vkGetPhysicalDeviceProperties2(physical_device, &properties2);
    return {features.cooperativeMatrix == VK_TRUE, features.cooperativeMatrixRobustBufferAccess == VK_TRUE,
            properties.cooperativeMatrixSupportedStages};
}

using Entry = std::tuple<uint32_t, uint32_t, uint32_t, VkComponentTypeKHR, VkComponentTypeKHR, VkComponentTypeKHR,
                         VkComponentTypeKHR, VkBool32, VkScopeKHR>;

// Through vkGetInstanceProcAddr, as applications reach a device-extension physical-device command.
std::vector<Entry> property_list(const Context& context) {
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    if (get == nullptr) throw std::runtime_error("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR not found");
    uint32_t count = 0;
    check(get(context.physical_device, &count, nullptr), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    std::vector<VkCooperativeMatrixPropertiesKHR> properties(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
    check(get(context.physical_device, &count, properties.data()), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    std::vector<Entry> entries;
    for (uint32_t i = 0; i < count; ++i) {
        const VkCooperativeMatrixPropertiesKHR& p = properties[i];
        EXPECT_EQ(p.sType, VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR);
        EXPECT_EQ(p.pNext, nullptr);
        entries.emplace_back(p.MSize, p.NSize, p.KSize, p.AType, p.BType, p.CType, p.ResultType, p.saturatingAccumulation,
                             p.scope);
    }
    return entries;
}

// The lowering's configurations for this device, from the driver's own features and subgroup size.
std::vector<Entry> expected_emulated_list(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&features12);
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    lowering::ArithmeticSupport support;
    support.float16 = features12.shaderFloat16;
    support.int8 = features12.shaderInt8;
    std::vector<Entry> entries;
    for (const lowering::CooperativeMatrixConfiguration& c :
         lowering::cooperative_matrix_configurations(subgroup.subgroupSize, support)) {
        entries.emplace_back(c.m, c.n, c.k, coopmat::component_of(c.a), coopmat::component_of(c.b), coopmat::component_of(c.c),
                             coopmat::component_of(c.result), c.saturating_accumulation, VK_SCOPE_SUBGROUP_KHR);
    }
    return entries;
}

TEST(CooperativeMatrixReporting, ExtensionFeaturesAndPropertiesAppearWithTheLayer) {
    Context without_layer({.layer = false});
    Context with_layer({});
    EXPECT_EQ(lists_device_extension(without_layer.physical_device, kExtension), native_driver());
    EXPECT_TRUE(lists_device_extension(with_layer.physical_device, kExtension));

    VkPhysicalDeviceFeatures core;
    vkGetPhysicalDeviceFeatures(with_layer.physical_device, &core);
    const Reported layer = reported(with_layer.physical_device);
    EXPECT_TRUE(layer.feature);
    EXPECT_EQ(layer.stages, VkShaderStageFlags{VK_SHADER_STAGE_COMPUTE_BIT});
    if (native_driver()) {
        const Reported driver = reported(without_layer.physical_device);
        EXPECT_EQ(layer.robust_buffer_access, driver.robust_buffer_access);
        EXPECT_EQ(layer.stages, driver.stages);
    } else {
        // Emulated loads and stores are ordinary buffer accesses.
        EXPECT_EQ(layer.robust_buffer_access, core.robustBufferAccess == VK_TRUE);
        EXPECT_FALSE(reported(without_layer.physical_device).feature);
    }
}

TEST(CooperativeMatrixReporting, PropertyListIsTheDriversOrTheLowerings) {
    Context with_layer({});
    const std::vector<Entry> listed = property_list(with_layer);
    if (native_driver()) {
        Context without_layer({.layer = false});
        EXPECT_EQ(listed, property_list(without_layer)) << "the native list must pass through unchanged";
    } else {
        EXPECT_EQ(listed, expected_emulated_list(with_layer.physical_device));
    }
    EXPECT_FALSE(listed.empty());
}

TEST(CooperativeMatrixReporting, ForceEmulationReportsTheEmulatedList) {
    ScopedEnv force("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", kExtension);
    Context with_layer({});
    EXPECT_TRUE(lists_device_extension(with_layer.physical_device, kExtension));
    EXPECT_TRUE(reported(with_layer.physical_device).feature);
    EXPECT_EQ(property_list(with_layer), expected_emulated_list(with_layer.physical_device));
}

TEST(CooperativeMatrixReporting, PropertyListFollowsTheTwoCallIdiom) {
    ScopedEnv force("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", kExtension);
    Context context({});
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    ASSERT_NE(get, nullptr);
    uint32_t count = 0;
    check(get(context.physical_device, &count, nullptr), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    ASSERT_GE(count, 2u);
    std::vector<VkCooperativeMatrixPropertiesKHR> some(count - 1, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
    uint32_t short_count = count - 1;
    EXPECT_EQ(get(context.physical_device, &short_count, some.data()), VK_INCOMPLETE);
    EXPECT_EQ(short_count, count - 1);
}

TEST(CooperativeMatrixReporting, PhysicalDeviceProcAddrExportFindsTheCommand) {
    // The loader asks vk_layerGetPhysicalDeviceProcAddr for physical-device commands it does not know.
    void* library = dlopen(VKPOLYFILL_LAYER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    auto negotiate = reinterpret_cast<PFN_vkNegotiateLoaderLayerInterfaceVersion>(
        dlsym(library, "vkNegotiateLoaderLayerInterfaceVersion"));
    VkNegotiateLayerInterface version{LAYER_NEGOTIATE_INTERFACE_STRUCT, nullptr, 2, nullptr, nullptr, nullptr};
    ASSERT_EQ(negotiate(&version), VK_SUCCESS);
    EXPECT_NE(version.pfnGetPhysicalDeviceProcAddr(VK_NULL_HANDLE, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"),
              nullptr);
    EXPECT_NE(version.pfnGetInstanceProcAddr(VK_NULL_HANDLE, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"), nullptr);
    dlclose(library);
}

// Creates a device enabling the extension and its feature; returns the extensions the driver got.
std::set<std::string> extensions_reaching_the_driver() {
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    coopmat.cooperativeMatrix = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&coopmat);
    features12.vulkanMemoryModel = VK_TRUE;
    Context context({.spy = true, .device_extensions = {kExtension}, .device_features_next = &features12});
    const auto records = spy.files_ending_with("-device.txt");
    if (records.size() != 1) throw std::runtime_error("expected one device record from the spy layer");
    const std::vector<std::string> lines = read_lines(records[0]);
    return {lines.begin(), lines.end()};
}

TEST(CooperativeMatrixReporting, DeviceCreationWithTheFeatureKeepsEmulatedExtensionsFromTheDriver) {
    EXPECT_EQ(extensions_reaching_the_driver().count(kExtension), native_driver() ? 1u : 0u);
    ScopedEnv force("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", kExtension);
    EXPECT_EQ(extensions_reaching_the_driver().count(kExtension), 0u);
}

}  // namespace
}  // namespace vkpolyfill::test
