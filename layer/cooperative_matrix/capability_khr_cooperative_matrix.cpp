// VK_KHR_cooperative_matrix as a Capability: when the driver has it, when the emulation can run, what
// the layer reports for it, and vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR.
#include "cooperative_matrix/capability_khr_cooperative_matrix.h"

#include "cooperative_matrix/cooperative_matrix_support.h"

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;

std::vector<lowering::CooperativeMatrixConfiguration> emulated_configurations(const PhysicalDeviceFacts& facts) {
    return lowering::cooperative_matrix_configurations(facts.subgroup.subgroupSize, arithmetic_support(facts));
}

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    return missing_cooperative_matrix_requirements(
        facts, !emulated_configurations(facts).empty(),
        "shaderFloat16 or shaderInt8 (a matrix component type)");
}

bool is_native(const PhysicalDeviceFacts& facts) {
    return facts.native_spec_version(kExtension) != 0 && facts.khr_cooperative_matrix.cooperativeMatrix;
}

void report_features(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrixFeaturesKHR>(chain->pNext)) {
        features->cooperativeMatrix = VK_TRUE;
        // Emulated loads and stores are ordinary buffer accesses: as robust as the device's.
        features->cooperativeMatrixRobustBufferAccess = facts.features.robustBufferAccess;
    }
}

void report_properties(const PhysicalDeviceFacts&, VkBaseOutStructure* chain) {
    if (auto* properties = vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrixPropertiesKHR>(chain->pNext)) {
        properties->cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    }
}

void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t api_version, bool,
                                vku::safe_VkDeviceCreateInfo& create_info) {
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR);
    enable_subgroup_control_for(facts, api_version, kExtension, create_info);
}

std::vector<VkCooperativeMatrixPropertiesKHR> emulated_properties(const PhysicalDeviceFacts& facts) {
    std::vector<VkCooperativeMatrixPropertiesKHR> properties;
    for (const lowering::CooperativeMatrixConfiguration& c : emulated_configurations(facts)) {
        VkCooperativeMatrixPropertiesKHR p = vku::InitStructHelper();
        p.MSize = c.m;
        p.NSize = c.n;
        p.KSize = c.k;
        write_component_types(c, p);
        p.scope = VK_SCOPE_SUBGROUP_KHR;
        properties.push_back(p);
    }
    return properties;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceCooperativeMatrixPropertiesKHR(VkPhysicalDevice physicalDevice,
                                                                               uint32_t* pPropertyCount,
                                                                               VkCooperativeMatrixPropertiesKHR* pProperties) {
    return query_configurations(physicalDevice, kExtension, &VkuInstanceDispatchTable::GetPhysicalDeviceCooperativeMatrixPropertiesKHR, emulated_properties,
                                pPropertyCount, pProperties);
}

const EntryPoint kPhysicalDeviceFunctions[] = {
    {"vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
     reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceCooperativeMatrixPropertiesKHR)},
};

}  // namespace

Capability khr_cooperative_matrix_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_KHR_COOPERATIVE_MATRIX_SPEC_VERSION,
        .lowering = lowering::Emulated::KhrCooperativeMatrix,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .physical_device_functions = kPhysicalDeviceFunctions,
    };
}

}  // namespace vkpolyfill
