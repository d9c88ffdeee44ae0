// Lowered cooperative-matrix code spreads matrices over the invocations of one subgroup, so it is
// compiled for one subgroup size and the stage must run at exactly that size, in full subgroups:
// what the device lets the layer ask for, and what it asks for per stage.
#pragma once

#include <cstdint>
#include <span>

#include <vulkan/vulkan_core.h>

#include "core/physical_device_facts.h"

namespace vkpolyfill {

// What the device was created with.
struct SubgroupControl {
    uint32_t size = 0;              // what code is lowered for unless the stage requires another size
    bool can_require_size = false;  // subgroupSizeControl enabled, compute in requiredSubgroupSizeStages
    bool can_require_full = false;  // computeFullSubgroups enabled
};

// `create_info` is what the driver received.
SubgroupControl subgroup_control(const PhysicalDeviceFacts& facts, const VkDeviceCreateInfo* create_info);

struct StageSubgroups {
    uint32_t size = 0;               // the stage's own required size, or the device's
    bool add_required_size = false;  // the application gave none and the device allows it
};

// `stage_next` is the stage's pNext chain (a pipeline stage or a shader object).
StageSubgroups stage_subgroups(const SubgroupControl& control, const void* stage_next);

// Whether full subgroups can be required: the device allows it and the entry point's workgroup width
// is known to be a multiple of the subgroup size (otherwise requiring them is invalid usage).
bool can_require_full_subgroups(const SubgroupControl& control, std::span<const uint32_t> code, const char* entry_point,
                                uint32_t size);

}  // namespace vkpolyfill
