#include "tensors/tensor_device.h"

#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "tensors/capability_arm_tensors.h"

namespace vkpolyfill {

TensorDevice::TensorDevice(VkDevice handle, const VkuDeviceDispatchTable& dispatch, const PhysicalDeviceFacts& device_facts,
                           const VkPhysicalDeviceMemoryProperties& memory, const TensorDeviceFeatures& enabled,
                           const Logger& log)
    : device(handle),
      next(dispatch),
      facts(device_facts),
      features(enabled),
      logger(log),
      shapes(handle, dispatch, memory, device_facts.properties.limits.minStorageBufferOffsetAlignment, enabled.descriptor_buffer),
      copy_pipelines(handle, dispatch) {}

TensorDeviceFeatures tensor_device_features(const VkDeviceCreateInfo& create_info, const PhysicalDeviceFacts& facts,
                                            uint32_t queue_family_count) {
    TensorDeviceFeatures features;
    features.queue_family_count = queue_family_count;
    if (const auto* tensor = vku::FindStructInPNextChain<VkPhysicalDeviceTensorFeaturesARM>(create_info.pNext)) {
        features.non_packed = tensor->tensorNonPacked;
    }
    if (const auto* buffer = vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorBufferTensorFeaturesARM>(create_info.pNext)) {
        features.descriptor_buffer = buffer->descriptorBufferTensorDescriptors && tensor_descriptor_size(facts) != 0;
    }
    if (const auto* descriptor_buffer = vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorBufferFeaturesEXT>(create_info.pNext)) {
        features.capture_replay = descriptor_buffer->descriptorBufferCaptureReplay;
    }
    if (const auto* robustness2 = vku::FindStructInPNextChain<VkPhysicalDeviceRobustness2FeaturesKHR>(create_info.pNext)) {
        features.null_descriptor = robustness2->nullDescriptor;
    }
    if (const auto* vulkan11 = vku::FindStructInPNextChain<VkPhysicalDeviceVulkan11Features>(create_info.pNext)) {
        features.protected_memory = vulkan11->protectedMemory;
    } else if (const auto* protected_memory = vku::FindStructInPNextChain<VkPhysicalDeviceProtectedMemoryFeatures>(create_info.pNext)) {
        features.protected_memory = protected_memory->protectedMemory;
    }
    return features;
}

std::string describe_tensor(VkTensorARM tensor) { return std::format("VkTensorARM {}", static_cast<const void*>(tensor)); }

std::string describe_tensor_view(VkTensorViewARM view) { return std::format("VkTensorViewARM {}", static_cast<const void*>(view)); }

}  // namespace vkpolyfill
