#include "coopmat2_target.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "vulkan_context.h"

namespace vkpolyfill::test {

uint32_t subgroup_size(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    return subgroup.subgroupSize;
}

lowering::Target coopmat2_target(VkPhysicalDevice physical_device, uint32_t max_shared_memory_bytes) {
    lowering::Target target;
    target.subgroup_size = subgroup_size(physical_device);
    target.max_shared_memory_bytes = max_shared_memory_bytes;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2) |
                     lowering::bit(lowering::Emulated::NvTensorAddressing);
    return target;
}

}  // namespace vkpolyfill::test
