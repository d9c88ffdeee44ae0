#include "cooperative_matrix/cooperative_matrix_support.h"

#include "core/extension_list.h"

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

// The lowering spreads a matrix over the invocations of one subgroup, so it is compiled for one
// subgroup size and the pipeline must run at exactly that size.
bool has_fixed_subgroup_size(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceSubgroupSizeControlProperties& control = facts.subgroup_size_control;
    const bool requirable = facts.vulkan13.subgroupSizeControl &&
                            (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    const bool single = control.minSubgroupSize != 0 && control.minSubgroupSize == control.maxSubgroupSize;
    return requirable || single;
}

}  // namespace

std::string missing_cooperative_matrix_requirements(const PhysicalDeviceFacts& facts, bool has_configurations,
                                                    const char* types_needed) {
    std::string missing;
    auto need = [&missing](const char* what) { missing += (missing.empty() ? "needs " : ", ") + std::string(what); };
    if (!facts.vulkan12.vulkanMemoryModel) need("vulkanMemoryModel");
    if (!(facts.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
        !(facts.subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT)) {
        need("basic subgroup operations in compute shaders");
    }
    if (!has_fixed_subgroup_size(facts)) {
        need("a fixed subgroup size (subgroupSizeControl with compute in requiredSubgroupSizeStages, or one subgroup size)");
    } else if (!has_configurations) {
        need(types_needed);
    }
    return missing;
}

lowering::ArithmeticSupport arithmetic_support(const PhysicalDeviceFacts& facts) {
    lowering::ArithmeticSupport support;
    // The component types themselves, not 8/16-bit storage: the lowering reads and writes narrow
    // components in 32-bit words where a buffer's elements are (component_bits.cpp), and a shader
    // whose own buffers hold 8/16-bit types declares the storage capability, which the application
    // enables (Turnip on the Adreno 6xx has shaderFloat16 and shaderInt8 without 8/16-bit storage).
    // f16 arithmetic is the driver's or, where it lacks shaderFloat16, the layer's (float16/).
    support.float16 = true;
    support.int8 = facts.vulkan12.shaderInt8;
    support.bfloat16 = facts.shader_bfloat16.shaderBFloat16Type;
    return support;
}

namespace {

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

}  // namespace

void enable_subgroup_control_for(const PhysicalDeviceFacts& facts, uint32_t api_version, const char* extension,
                                 vku::safe_VkDeviceCreateInfo& create_info) {
    if (enables_extension(&create_info, extension)) enable_subgroup_control(facts, api_version, create_info);
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

}  // namespace vkpolyfill
