// VK_KHR_cooperative_matrix as a Capability: when the driver has it, when the emulation can run, what
// the layer reports for it, and vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR.
#include "capability_khr_cooperative_matrix.h"

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "extension_list.h"
#include "instance_data.h"
#include "output_params.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;

// The lowering spreads a matrix over the invocations of one subgroup, so it is compiled for one
// subgroup size and the pipeline must run at exactly that size.
bool has_fixed_subgroup_size(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceSubgroupSizeControlProperties& control = facts.subgroup_size_control;
    const bool requirable = facts.vulkan13.subgroupSizeControl &&
                            (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    const bool single = control.minSubgroupSize != 0 && control.minSubgroupSize == control.maxSubgroupSize;
    return requirable || single;
}

lowering::ArithmeticSupport arithmetic_support(const PhysicalDeviceFacts& facts) {
    lowering::ArithmeticSupport support;
    support.float16 = facts.vulkan12.shaderFloat16 && facts.vulkan11.storageBuffer16BitAccess;
    support.int8 = facts.vulkan12.shaderInt8 && facts.vulkan12.storageBuffer8BitAccess;
    support.bfloat16 = facts.shader_bfloat16.shaderBFloat16Type;
    return support;
}

std::vector<lowering::CooperativeMatrixConfiguration> emulated_configurations(const PhysicalDeviceFacts& facts) {
    return lowering::cooperative_matrix_configurations(facts.subgroup.subgroupSize, arithmetic_support(facts));
}

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    std::string missing;
    auto need = [&missing](const char* what) { missing += (missing.empty() ? "needs " : ", ") + std::string(what); };
    if (!facts.vulkan12.vulkanMemoryModel) need("vulkanMemoryModel");
    if (!(facts.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
        !(facts.subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT)) {
        need("basic subgroup operations in compute shaders");
    }
    if (!has_fixed_subgroup_size(facts)) {
        need("a fixed subgroup size (subgroupSizeControl with compute in requiredSubgroupSizeStages, or one subgroup size)");
    } else if (emulated_configurations(facts).empty()) {
        need("a subgroup size the lowering can lay matrices out over");
    }
    return missing;
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

// Turns on, in the copy, what lets the layer fix a pipeline's subgroup size and ask for full subgroups.
void enable_subgroup_control(const PhysicalDeviceFacts& facts, uint32_t api_version, vku::safe_VkDeviceCreateInfo& create_info) {
    const VkBool32 size_control = facts.vulkan13.subgroupSizeControl;
    const VkBool32 full_subgroups = facts.vulkan13.computeFullSubgroups;
    if (!size_control && !full_subgroups) return;
    void* chain = const_cast<void*>(create_info.pNext);
    if (auto* vulkan13 = vku::FindStructInPNextChain<VkPhysicalDeviceVulkan13Features>(chain)) {
        vulkan13->subgroupSizeControl |= size_control;
        vulkan13->computeFullSubgroups |= full_subgroups;
        return;
    }
    if (auto* control = vku::FindStructInPNextChain<VkPhysicalDeviceSubgroupSizeControlFeatures>(chain)) {
        control->subgroupSizeControl |= size_control;
        control->computeFullSubgroups |= full_subgroups;
        return;
    }
    // Below Vulkan 1.3 the struct belongs to VK_EXT_subgroup_size_control, which must then be enabled.
    if (api_version < VK_API_VERSION_1_3) {
        if (facts.native_spec_version(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME) == 0) return;
        vku::AddExtension(create_info, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    }
    VkPhysicalDeviceSubgroupSizeControlFeatures control = vku::InitStructHelper();
    control.subgroupSizeControl = size_control;
    control.computeFullSubgroups = full_subgroups;
    vku::AddToPnext(create_info, control);
}

void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t api_version,
                                vku::safe_VkDeviceCreateInfo& create_info) {
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR);
    if (enables_extension(&create_info, kExtension)) enable_subgroup_control(facts, api_version, create_info);
}

VkComponentTypeKHR to_vulkan(lowering::ComponentType type) {
    using CT = lowering::ComponentType;
    switch (type) {
        case CT::Float16: return VK_COMPONENT_TYPE_FLOAT16_KHR;
        case CT::Float32: return VK_COMPONENT_TYPE_FLOAT32_KHR;
        case CT::BFloat16: return VK_COMPONENT_TYPE_BFLOAT16_KHR;
        case CT::Float8E4M3: return VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT;
        case CT::Float8E5M2: return VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT;
        case CT::SInt8: return VK_COMPONENT_TYPE_SINT8_KHR;
        case CT::UInt8: return VK_COMPONENT_TYPE_UINT8_KHR;
        case CT::SInt16: return VK_COMPONENT_TYPE_SINT16_KHR;
        case CT::UInt16: return VK_COMPONENT_TYPE_UINT16_KHR;
        case CT::SInt32: return VK_COMPONENT_TYPE_SINT32_KHR;
        case CT::UInt32: break;
    }
    return VK_COMPONENT_TYPE_UINT32_KHR;
}

std::vector<VkCooperativeMatrixPropertiesKHR> emulated_properties(const PhysicalDeviceFacts& facts) {
    std::vector<VkCooperativeMatrixPropertiesKHR> properties;
    for (const lowering::CooperativeMatrixConfiguration& c : emulated_configurations(facts)) {
        VkCooperativeMatrixPropertiesKHR p = vku::InitStructHelper();
        p.MSize = c.m;
        p.NSize = c.n;
        p.KSize = c.k;
        p.AType = to_vulkan(c.a);
        p.BType = to_vulkan(c.b);
        p.CType = to_vulkan(c.c);
        p.ResultType = to_vulkan(c.result);
        p.saturatingAccumulation = c.saturating_accumulation;
        p.scope = VK_SCOPE_SUBGROUP_KHR;
        properties.push_back(p);
    }
    return properties;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceCooperativeMatrixPropertiesKHR(VkPhysicalDevice physicalDevice,
                                                                               uint32_t* pPropertyCount,
                                                                               VkCooperativeMatrixPropertiesKHR* pProperties) {
    InstanceData& instance = instance_data(physicalDevice);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physicalDevice);
    switch (record->provision_of(kExtension)) {
        case Provision::Native:
            return instance.next.GetPhysicalDeviceCooperativeMatrixPropertiesKHR(physicalDevice, pPropertyCount, pProperties);
        case Provision::Emulated:
            return write_chained_enumeration(std::span<const VkCooperativeMatrixPropertiesKHR>(emulated_properties(record->facts)),
                                             pPropertyCount, pProperties);
        case Provision::Unavailable: break;
    }
    *pPropertyCount = 0;
    return VK_SUCCESS;
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
