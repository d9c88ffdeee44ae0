#include "coopmat2_target.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "vulkan_context.h"

namespace vkpolyfill::test {

BlockLoadFeatures::BlockLoadFeatures() {
    v11_ = vku::InitStructHelper();
    v11_.storageBuffer16BitAccess = VK_TRUE;
    v12_ = vku::InitStructHelper(&v11_);
    v12_.shaderFloat16 = VK_TRUE;
    v12_.shaderInt8 = VK_TRUE;
    v12_.vulkanMemoryModel = VK_TRUE;
    v12_.bufferDeviceAddress = VK_TRUE;  // the application's decode functions stay in the module
    decode_vector_ = vku::InitStructHelper();
    decode_vector_.cooperativeMatrixDecodeVector = VK_TRUE;
    coopmat2_ = vku::InitStructHelper();
    coopmat2_.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    coopmat2_.cooperativeMatrixConversions = VK_TRUE;
    coopmat2_.cooperativeMatrixTensorAddressing = VK_TRUE;
    coopmat2_.cooperativeMatrixBlockLoads = VK_TRUE;
    coopmat_ = vku::InitStructHelper(&coopmat2_);
    coopmat_.cooperativeMatrix = VK_TRUE;
}

ContextOptions BlockLoadFeatures::options(bool through_layer, bool decode_vector) {
    ContextOptions options{.layer = through_layer, .device_features_next = &v12_};
    v11_.pNext = through_layer ? &coopmat_ : nullptr;
    coopmat2_.pNext = decode_vector ? &decode_vector_ : nullptr;
    if (through_layer) options.device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME};
    if (through_layer && decode_vector) options.device_extensions.push_back(VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME);
    return options;
}

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
                     lowering::bit(lowering::Emulated::NvTensorAddressing) |
                     lowering::bit(lowering::Emulated::NvCooperativeMatrixDecodeVector);
    return target;
}

}  // namespace vkpolyfill::test
