// What the emulated cooperative-matrix extensions (KHR and NV2) share: the device facts the
// lowering relies on, the features the layer turns on for it, and component-type names.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <vulkan/utility/vk_safe_struct.hpp>

#include "core/instance_data.h"
#include "core/output_params.h"
#include "core/physical_device_facts.h"

namespace vkpolyfill {

// Empty when the device can run lowered cooperative matrices, else what it lacks. `has_shapes`:
// whether the lowering offers any configuration at the device's subgroup size.
// `has_configurations`: the lowering offers a configuration at the device's subgroup size with its
// arithmetic; `types_needed` says which features would give it one (every shape spreads over every
// subgroup size, so only the component types can be missing).
std::string missing_cooperative_matrix_requirements(const PhysicalDeviceFacts& facts, bool has_configurations,
                                                    const char* types_needed);

lowering::ArithmeticSupport arithmetic_support(const PhysicalDeviceFacts& facts);

// Prepares a device-create-info copy for an emulated extension: when the application enables
// `extension`, turns on what lets the layer fix a pipeline's subgroup size and ask for full subgroups.
void enable_subgroup_control_for(const PhysicalDeviceFacts& facts, uint32_t api_version, const char* extension,
                                 vku::safe_VkDeviceCreateInfo& create_info);

VkComponentTypeKHR to_vulkan(lowering::ComponentType type);

// The fields a configuration-list entry (VkCooperativeMatrixPropertiesKHR, or NV2's flexible
// dimensions entry) shares: its component types and saturation.
template <class Properties, class Configuration>
void write_component_types(const Configuration& c, Properties& p) {
    p.AType = to_vulkan(c.a);
    p.BType = to_vulkan(c.b);
    p.CType = to_vulkan(c.c);
    p.ResultType = to_vulkan(c.result);
    p.saturatingAccumulation = c.saturating_accumulation;
}

// A configuration-list query of `extension`: the driver's own list where it is native (`next`), the
// lowering's where it is emulated (`emulated(facts)`), none where it is unavailable.
template <class Properties, class Next, class Emulated>
VkResult query_configurations(VkPhysicalDevice physical_device, const char* extension, Next next, Emulated emulated,
                              uint32_t* count, Properties* properties) {
    InstanceData& instance = instance_data(physical_device);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physical_device);
    switch (record->provision_of(extension)) {
        case Provision::Native: return (instance.next.*next)(physical_device, count, properties);
        case Provision::Emulated: {
            const std::vector<Properties> list = emulated(record->facts);
            return write_chained_enumeration(std::span<const Properties>(list), count, properties);
        }
        case Provision::Unavailable: break;
    }
    *count = 0;
    return VK_SUCCESS;
}

}  // namespace vkpolyfill
