// VK_NV_cooperative_matrix2 as a Capability. The layer reports the union of what the driver has and
// what the lowering implements, feature bit by feature bit; when the driver lacks any bit the layer
// can add, the extension is emulated and every shader using it is lowered whole (the driver's own
// bits are not mixed with lowered code).
#include "capability_nv_cooperative_matrix2.h"

#include <algorithm>

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "cooperative_matrix_support.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME;

// The feature bits the lowering implements. Tensor addressing and block loads are not there yet.
VkPhysicalDeviceCooperativeMatrix2FeaturesNV emulated_features() {
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV features = vku::InitStructHelper();
    features.cooperativeMatrixWorkgroupScope = VK_TRUE;
    features.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    features.cooperativeMatrixReductions = VK_TRUE;
    features.cooperativeMatrixConversions = VK_TRUE;
    features.cooperativeMatrixPerElementOperations = VK_TRUE;
    return features;
}

// Each bit: the driver's or the lowering's.
VkPhysicalDeviceCooperativeMatrix2FeaturesNV union_features(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceCooperativeMatrix2FeaturesNV& native = facts.nv_cooperative_matrix2;
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV features = emulated_features();
    features.cooperativeMatrixWorkgroupScope |= native.cooperativeMatrixWorkgroupScope;
    features.cooperativeMatrixFlexibleDimensions |= native.cooperativeMatrixFlexibleDimensions;
    features.cooperativeMatrixReductions |= native.cooperativeMatrixReductions;
    features.cooperativeMatrixConversions |= native.cooperativeMatrixConversions;
    features.cooperativeMatrixPerElementOperations |= native.cooperativeMatrixPerElementOperations;
    features.cooperativeMatrixTensorAddressing |= native.cooperativeMatrixTensorAddressing;
    features.cooperativeMatrixBlockLoads |= native.cooperativeMatrixBlockLoads;
    return features;
}

// Native when the driver has every bit the lowering could add.
bool is_native(const PhysicalDeviceFacts& facts) {
    if (facts.native_spec_version(kExtension) == 0) return false;
    const VkPhysicalDeviceCooperativeMatrix2FeaturesNV all = union_features(facts);
    const VkPhysicalDeviceCooperativeMatrix2FeaturesNV& native = facts.nv_cooperative_matrix2;
    return native.cooperativeMatrixWorkgroupScope == all.cooperativeMatrixWorkgroupScope &&
           native.cooperativeMatrixFlexibleDimensions == all.cooperativeMatrixFlexibleDimensions &&
           native.cooperativeMatrixReductions == all.cooperativeMatrixReductions &&
           native.cooperativeMatrixConversions == all.cooperativeMatrixConversions &&
           native.cooperativeMatrixPerElementOperations == all.cooperativeMatrixPerElementOperations;
}

uint32_t max_workgroup_invocations(const PhysicalDeviceFacts& facts) {
    return std::min<uint32_t>(facts.properties.limits.maxComputeWorkGroupInvocations, 1024);
}

std::vector<lowering::FlexibleConfiguration> configurations(const PhysicalDeviceFacts& facts) {
    return lowering::flexible_configurations(facts.subgroup.subgroupSize, max_workgroup_invocations(facts),
                                             arithmetic_support(facts));
}

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    return missing_cooperative_matrix_requirements(facts, !configurations(facts).empty());
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

void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t api_version,
                                vku::safe_VkDeviceCreateInfo& create_info) {
    prepare_emulated_device(facts, api_version, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV, kExtension, create_info);
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
        .physical_device_functions = kPhysicalDeviceFunctions,
    };
}

}  // namespace vkpolyfill
