// What the layer reports for VK_NV_cooperative_matrix2 (lavapipe 25 lacks it; lavapipe 26 has it
// without workgroup scope, tensor addressing and block loads): the extension, each feature bit the
// driver's or the lowering's, properties that follow from the device's limits, and a
// flexible-dimensions list that is the lowering's for this device, and device creation that gives
// the driver only the part of the extension it has.
#include <algorithm>
#include <tuple>

#include <gtest/gtest.h>
#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "coopmat_configurations.h"
#include "coverage_tags.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kExtension = VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME;

VkPhysicalDeviceCooperativeMatrix2FeaturesNV features_of(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV features = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features2 = vku::InitStructHelper(&features);
    vkGetPhysicalDeviceFeatures2(physical_device, &features2);
    return features;
}

struct Limits {
    VkPhysicalDeviceLimits limits;
    uint32_t subgroup_size;
    lowering::ArithmeticSupport support;
};

// The driver's own limits and arithmetic, which the layer's answers are derived from.
Limits driver_limits(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&features12);
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    lowering::ArithmeticSupport support;
    support.float16 = features12.shaderFloat16;
    support.int8 = features12.shaderInt8;
    return {properties.properties.limits, subgroup.subgroupSize, support};
}

using Entry = std::tuple<uint32_t, uint32_t, uint32_t, VkComponentTypeKHR, VkComponentTypeKHR, VkComponentTypeKHR,
                         VkComponentTypeKHR, VkBool32, VkScopeKHR, uint32_t>;

std::vector<Entry> flexible_list(const Context& context) {
    covers("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV"));
    if (get == nullptr) throw std::runtime_error("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV not found");
    uint32_t count = 0;
    check(get(context.physical_device, &count, nullptr), "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> properties(
        count, vku::InitStruct<VkCooperativeMatrixFlexibleDimensionsPropertiesNV>());
    check(get(context.physical_device, &count, properties.data()),
          "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    std::vector<Entry> entries;
    for (uint32_t i = 0; i < count; ++i) {
        const VkCooperativeMatrixFlexibleDimensionsPropertiesNV& p = properties[i];
        EXPECT_EQ(p.sType, VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV);
        EXPECT_EQ(p.pNext, nullptr);
        entries.emplace_back(p.MGranularity, p.NGranularity, p.KGranularity, p.AType, p.BType, p.CType, p.ResultType,
                             p.saturatingAccumulation, p.scope, p.workgroupInvocations);
    }
    return entries;
}

TEST(CooperativeMatrix2Reporting, ExtensionAndTheUnionOfFeatureBitsAppearWithTheLayer) {
    Context without_layer({.layer = false});
    Context with_layer({});
    const bool driver_has_it = lists_device_extension(without_layer.physical_device, kExtension);
    EXPECT_EQ(driver_has_it, driver_name() == "native");
    EXPECT_TRUE(lists_device_extension(with_layer.physical_device, kExtension));
    const VkPhysicalDeviceCooperativeMatrix2FeaturesNV native = features_of(without_layer.physical_device);
    const VkPhysicalDeviceCooperativeMatrix2FeaturesNV features = features_of(with_layer.physical_device);
    EXPECT_TRUE(features.cooperativeMatrixWorkgroupScope);
    EXPECT_TRUE(features.cooperativeMatrixFlexibleDimensions);
    EXPECT_TRUE(features.cooperativeMatrixReductions);
    EXPECT_TRUE(features.cooperativeMatrixConversions);
    EXPECT_TRUE(features.cooperativeMatrixPerElementOperations);
    EXPECT_TRUE(features.cooperativeMatrixTensorAddressing);
    EXPECT_TRUE(features.cooperativeMatrixBlockLoads);
    EXPECT_FALSE(native.cooperativeMatrixTensorAddressing);  // neither test driver has them: emulated
    EXPECT_FALSE(native.cooperativeMatrixBlockLoads);
    EXPECT_FALSE(native.cooperativeMatrixWorkgroupScope);
}

TEST(CooperativeMatrix2Reporting, PropertiesFollowTheDevicesLimits) {
    Context with_layer({});
    VkPhysicalDeviceCooperativeMatrix2PropertiesNV properties = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties2 = vku::InitStructHelper(&properties);
    vkGetPhysicalDeviceProperties2(with_layer.physical_device, &properties2);
    const Limits driver = driver_limits(with_layer.physical_device);
    EXPECT_EQ(properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize,
              std::min<uint32_t>(driver.limits.maxComputeWorkGroupInvocations, 1024));
    EXPECT_GE(properties.cooperativeMatrixFlexibleDimensionsMaxDimension, 256u);
    EXPECT_GT(properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory, 0u);
    EXPECT_LT(properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory, driver.limits.maxComputeSharedMemorySize);
}

TEST(CooperativeMatrix2Reporting, FlexibleListIsTheLoweringsForThisDevice) {
    Context with_layer({});
    const Limits driver = driver_limits(with_layer.physical_device);
    std::vector<Entry> expected;
    for (const lowering::FlexibleConfiguration& c : lowering::flexible_configurations(
             driver.subgroup_size, std::min<uint32_t>(driver.limits.maxComputeWorkGroupInvocations, 1024), driver.support)) {
        expected.emplace_back(c.m_granularity, c.n_granularity, c.k_granularity, coopmat::component_of(c.a), coopmat::component_of(c.b),
                              coopmat::component_of(c.c), coopmat::component_of(c.result), c.saturating_accumulation,
                              c.workgroup_invocations ? VK_SCOPE_WORKGROUP_KHR : VK_SCOPE_SUBGROUP_KHR, c.workgroup_invocations);
    }
    const std::vector<Entry> listed = flexible_list(with_layer);
    EXPECT_EQ(listed, expected);
    // Both test drivers compute f16, so both scopes are offered.
    const auto has_scope = [&](VkScopeKHR scope) {
        return std::any_of(listed.begin(), listed.end(), [&](const Entry& e) { return std::get<8>(e) == scope; });
    };
    EXPECT_TRUE(has_scope(VK_SCOPE_SUBGROUP_KHR));
    EXPECT_TRUE(has_scope(VK_SCOPE_WORKGROUP_KHR));
}

TEST(CooperativeMatrix2Reporting, FlexibleListFollowsTheTwoCallIdiom) {
    covers("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    Context context({});
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV"));
    ASSERT_NE(get, nullptr);
    uint32_t count = 0;
    check(get(context.physical_device, &count, nullptr), "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    ASSERT_GE(count, 2u);
    std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> some(
        count - 1, vku::InitStruct<VkCooperativeMatrixFlexibleDimensionsPropertiesNV>());
    uint32_t short_count = count - 1;
    EXPECT_EQ(get(context.physical_device, &short_count, some.data()), VK_INCOMPLETE);
    EXPECT_EQ(short_count, count - 1);
}

// Lavapipe 25 lacks the extension: neither it nor its feature struct may reach the driver. Lavapipe
// 26 has part of it: both reach it, the struct asking only for the driver's own bits (asked for
// workgroup scope, which it lacks, the driver would fail device creation).
TEST(CooperativeMatrix2Reporting, DeviceCreationGivesTheDriverOnlyWhatItHas) {
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2 = vku::InitStructHelper();
    coopmat2.cooperativeMatrixWorkgroupScope = VK_TRUE;
    coopmat2.cooperativeMatrixReductions = VK_TRUE;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper(&coopmat2);
    coopmat.cooperativeMatrix = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&coopmat);
    features12.vulkanMemoryModel = VK_TRUE;
    // A driver given an unknown feature struct may ignore it, so device creation succeeding is not
    // the check: the spy below the layer records what reached the driver.
    Context context({.spy = true,
                     .device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, kExtension},
                     .device_features_next = &features12});
    const int driver_has_part = driver_name() == "native" ? 1 : 0;
    const auto records = spy.files_ending_with("-device.txt");
    ASSERT_EQ(records.size(), 1u);
    const std::vector<std::string> lines = read_lines(records[0]);
    EXPECT_EQ(std::count(lines.begin(), lines.end(), kExtension), driver_has_part);
    const auto chains = spy.files_ending_with("-chain.txt");
    ASSERT_EQ(chains.size(), 1u);
    const std::vector<std::string> chained = read_lines(chains[0]);
    EXPECT_EQ(std::count(chained.begin(), chained.end(),
                         std::to_string(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV)),
              driver_has_part);
    // Its sibling, which the driver reads when it has the KHR extension, stays.
    EXPECT_EQ(std::count(chained.begin(), chained.end(), std::to_string(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)), 1);
}

}  // namespace
}  // namespace vkpolyfill::test
