// A VkTensorCreateInfoARM checked against the specification's valid usage and the limits the layer
// reports, and the buffer layout of the tensor it describes.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <vkpolyfill/lowering/arm_tensors.h>
#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

struct PhysicalDeviceFacts;

// Where a tensor's elements are in its buffer.
struct TensorLayout {
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t element_size = 0;
    uint32_t rank = 0;
    std::array<int64_t, lowering::kMaxTensorRank> dimensions{};
    std::array<int64_t, lowering::kMaxTensorRank> strides{};  // in bytes; packed unless the application gave them
    VkDeviceSize size = 0;  // of the buffer: the tensor's extent rounded up to 16 bytes
};

// What the device was created with that the checks depend on.
struct TensorDeviceFeatures {
    bool non_packed = false;         // VkPhysicalDeviceTensorFeaturesARM::tensorNonPacked
    bool protected_memory = false;
    // VkPhysicalDeviceDescriptorBufferTensorFeaturesARM::descriptorBufferTensorDescriptors, where the
    // device has it: tensors' buffers and shape records then have device addresses.
    bool descriptor_buffer = false;
    bool capture_replay = false;     // VkPhysicalDeviceDescriptorBufferFeaturesEXT::descriptorBufferCaptureReplay
    bool null_descriptor = false;    // VkPhysicalDeviceRobustness2FeaturesKHR::nullDescriptor
    uint32_t queue_family_count = 0;
};

// Empty when `info` is valid, else a sentence naming the field, its value and the rule (with the VUID).
std::string check_tensor_create_info(const VkTensorCreateInfoARM& info, const PhysicalDeviceFacts& facts,
                                     const TensorDeviceFeatures& features);

// For a valid description.
TensorLayout tensor_layout(const VkTensorDescriptionARM& description);

}  // namespace vkpolyfill
