// The formats an emulated tensor may have, and what the layer can do with each on a device: every
// one-component format whose elements the lowered code and the copies can store in a storage buffer.
#pragma once

#include <cstdint>

#include <vulkan/vulkan_core.h>

#include "core/physical_device_facts.h"

namespace vkpolyfill {

// Bytes per element, 0 for a format that is not a tensor format.
uint32_t tensor_element_size(VkFormat format);

// VkTensorFormatPropertiesARM's features for `format` (the same for both tilings: an optimal tensor
// is laid out packed, like a linear one). Zero for formats the device cannot store or the layer
// does not emulate.
VkFormatFeatureFlags2 tensor_format_features(const PhysicalDeviceFacts& facts, VkFormat format);

// The largest element the device can hold in any tensor format (what the size limits divide by).
uint32_t largest_tensor_element(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
