// Everything the layer keeps per VkDevice, looked up by dispatch key (queues and command buffers
// share their device's key).
#pragma once

#include <memory>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

#include "core/capabilities.h"
#include "core/device_shaders.h"
#include "core/instance_data.h"
#include "tensors/tensor_device.h"
#include "tile_image/tile_image_device.h"

namespace vkpolyfill {

struct DeviceData {
    VkDevice device = VK_NULL_HANDLE;
    VkuDeviceDispatchTable next{};
    InstanceData* instance = nullptr;  // outlives the device (vkDestroyInstance requires it)
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    std::shared_ptr<const PhysicalDeviceRecord> record;
    lowering::EmulatedSet enabled_emulation = 0;  // those the application enabled, and the SPIR-V-only sets
    uint32_t api_version = VK_API_VERSION_1_0;    // the version the device is used at (instance and driver)
    std::unique_ptr<DeviceShaders> shaders;       // null when enabled_emulation is 0
    std::unique_ptr<TileImageDevice> tile_image;  // where the application enabled emulated tile images
    std::unique_ptr<TensorDevice> tensors;        // where the application enabled emulated tensors
};

// Keyed by a VkDevice's dispatch key, which its queues and command buffers share.
DispatchMap<DeviceData>& devices();

template <typename Handle>
DeviceData& device_data(Handle handle) {
    return devices().at(dispatch_key(handle));
}

}  // namespace vkpolyfill
