// The physical-device commands VK_ARM_tensors adds or extends: tensor format properties through
// vkGetPhysicalDeviceFormatProperties2 and vkGetPhysicalDeviceExternalTensorPropertiesARM.
#pragma once

#include <span>

#include "core/capabilities.h"

namespace vkpolyfill {

std::span<const EntryPoint> tensor_physical_device_functions();

}  // namespace vkpolyfill
