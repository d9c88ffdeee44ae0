// VK_NV_cooperative_matrix2 as a Capability. The layer reports the union of what the driver has and
// what the lowering implements, feature bit by feature bit. When the driver lacks a bit the layer can
// add, the extension is emulated: a module whose every use of it the driver has goes to the driver
// as it is, any other is lowered whole (the driver's own bits are not mixed with lowered code).
#include "cooperative_matrix/capability_nv_cooperative_matrix2.h"

#include <algorithm>

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "cooperative_matrix/cooperative_matrix_support.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME;

using Features = VkPhysicalDeviceCooperativeMatrix2FeaturesNV;
constexpr VkBool32 Features::*kFeatureBits[] = {
    &Features::cooperativeMatrixWorkgroupScope,       &Features::cooperativeMatrixFlexibleDimensions,
    &Features::cooperativeMatrixReductions,           &Features::cooperativeMatrixConversions,
    &Features::cooperativeMatrixPerElementOperations, &Features::cooperativeMatrixTensorAddressing,
    &Features::cooperativeMatrixBlockLoads,
};

// The feature bits the lowering implements: all seven.
Features emulated_features() {
    Features features = vku::InitStructHelper();
    features.cooperativeMatrixWorkgroupScope = VK_TRUE;
    features.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    features.cooperativeMatrixReductions = VK_TRUE;
    features.cooperativeMatrixConversions = VK_TRUE;
    features.cooperativeMatrixPerElementOperations = VK_TRUE;
    features.cooperativeMatrixTensorAddressing = VK_TRUE;
    features.cooperativeMatrixBlockLoads = VK_TRUE;
    return features;
}

// Each bit: the driver's or the lowering's.
Features union_features(const PhysicalDeviceFacts& facts) {
    Features features = emulated_features();
    for (VkBool32 Features::*bit : kFeatureBits) features.*bit |= facts.nv_cooperative_matrix2.*bit;
    return features;
}

// Native when the driver has every bit the lowering could add.
bool is_native(const PhysicalDeviceFacts& facts) {
    if (facts.native_spec_version(kExtension) == 0) return false;
    const Features all = union_features(facts);
    for (VkBool32 Features::*bit : kFeatureBits) {
        if (all.*bit != facts.nv_cooperative_matrix2.*bit) return false;
    }
    return true;
}

// The driver's bits the layer leaves shaders to. Lavapipe (Mesa 26.1) reduces rows and columns wrongly
// (ReduceRowsSum and ReduceColumnsMax in tests/vulkan/test_cooperative_matrix2_subgroup.cpp differ
// from the CPU and from the lowering there), so modules that reduce are lowered on it.
Features trusted_native_features(const PhysicalDeviceFacts& facts) {
    Features native = facts.nv_cooperative_matrix2;
    if (facts.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) native.cooperativeMatrixReductions = VK_FALSE;
    return native;
}

// Whether the driver's own bits cover everything `code` uses of the extension. Flexible dimensions
// need no capability, so a driver without them natively runs no module of the extension.
bool driver_runs(const PhysicalDeviceFacts& facts, std::span<const uint32_t> code) {
    const Features native = trusted_native_features(facts);
    const std::optional<lowering::CooperativeMatrix2Use> use = lowering::cooperative_matrix2_use(code);
    return use && !use->other && native.cooperativeMatrixFlexibleDimensions &&
           (!use->workgroup_scope || native.cooperativeMatrixWorkgroupScope) &&
           (!use->reductions || native.cooperativeMatrixReductions) &&
           (!use->conversions || native.cooperativeMatrixConversions) &&
           (!use->per_element_operations || native.cooperativeMatrixPerElementOperations) &&
           (!use->tensor_addressing || native.cooperativeMatrixTensorAddressing) &&
           (!use->block_loads || native.cooperativeMatrixBlockLoads);
}

uint32_t max_workgroup_invocations(const PhysicalDeviceFacts& facts) {
    return std::min<uint32_t>(facts.properties.limits.maxComputeWorkGroupInvocations, 1024);
}

std::vector<lowering::FlexibleConfiguration> configurations(const PhysicalDeviceFacts& facts) {
    return lowering::flexible_configurations(facts.subgroup.subgroupSize, max_workgroup_invocations(facts),
                                             arithmetic_support(facts));
}

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    return missing_cooperative_matrix_requirements(facts, !configurations(facts).empty(),
                                                   "shaderFloat16 (its matrix component types)");
}

void report_features(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrix2FeaturesNV>(chain->pNext)) {
        VkPhysicalDeviceCooperativeMatrix2FeaturesNV all = union_features(facts);
        all.pNext = features->pNext;
        *features = all;
    }
}

void report_properties(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    if (auto* properties = vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrix2PropertiesNV>(chain->pNext)) {
        properties->cooperativeMatrixWorkgroupScopeMaxWorkgroupSize = max_workgroup_invocations(facts);
        properties->cooperativeMatrixFlexibleDimensionsMaxDimension = 1024;
        properties->cooperativeMatrixWorkgroupScopeReservedSharedMemory = reserved_shared_memory(facts);
    }
}

// A driver that has part of the extension keeps it enabled, with only its own bits asked for.
void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t api_version, bool shared_with_driver,
                                vku::safe_VkDeviceCreateInfo& create_info) {
    if (!shared_with_driver) {
        vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV);
    } else if (auto* features = vku::FindStructInPNextChain<Features>(const_cast<void*>(create_info.pNext))) {
        for (VkBool32 Features::*bit : kFeatureBits) features->*bit &= facts.nv_cooperative_matrix2.*bit;
    }
    enable_subgroup_control_for(facts, api_version, kExtension, create_info);
}

std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> emulated_properties(const PhysicalDeviceFacts& facts) {
    std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> properties;
    for (const lowering::FlexibleConfiguration& c : configurations(facts)) {
        VkCooperativeMatrixFlexibleDimensionsPropertiesNV p = vku::InitStructHelper();
        p.MGranularity = c.m_granularity;
        p.NGranularity = c.n_granularity;
        p.KGranularity = c.k_granularity;
        write_component_types(c, p);
        p.scope = c.workgroup_invocations ? VK_SCOPE_WORKGROUP_KHR : VK_SCOPE_SUBGROUP_KHR;
        p.workgroupInvocations = c.workgroup_invocations;
        properties.push_back(p);
    }
    return properties;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(
    VkPhysicalDevice physicalDevice, uint32_t* pPropertyCount, VkCooperativeMatrixFlexibleDimensionsPropertiesNV* pProperties) {
    return query_configurations(physicalDevice, kExtension, &VkuInstanceDispatchTable::GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV, emulated_properties,
                                pPropertyCount, pProperties);
}

const EntryPoint kPhysicalDeviceFunctions[] = {
    {"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
     reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)},
};

}  // namespace

bool driver_has_all_of_cooperative_matrix2(const PhysicalDeviceFacts& facts) { return is_native(facts); }

std::string cooperative_matrix2_missing_requirements(const PhysicalDeviceFacts& facts) { return missing_requirements(facts); }

uint32_t reserved_shared_memory(const PhysicalDeviceFacts& facts) {
    return facts.properties.limits.maxComputeSharedMemorySize / 2;
}

Capability nv_cooperative_matrix2_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_NV_COOPERATIVE_MATRIX_2_SPEC_VERSION,
        .lowering = lowering::Emulated::NvCooperativeMatrix2,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .driver_runs = driver_runs,
        .physical_device_functions = kPhysicalDeviceFunctions,
    };
}

}  // namespace vkpolyfill
