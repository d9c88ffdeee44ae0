// Everything the layer keeps per VkInstance: the next layer's dispatch table, the settings, the
// logger and a record per physical device. Looked up by dispatch key, without a global lock.
#pragma once

#include <memory>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/utility/vk_dispatch_table.h>

#include "core/capabilities.h"
#include "core/dispatch_map.h"
#include "core/log.h"
#include "core/settings.h"

namespace vkpolyfill {

struct InstanceData {
    InstanceData(VkInstance handle, Settings instance_settings)
        : instance(handle), settings(std::move(instance_settings)), logger(settings.log_level) {}

    VkInstance instance;
    VkuInstanceDispatchTable next{};
    PFN_GetPhysicalDeviceProcAddr next_get_physical_device_proc_addr = nullptr;
    uint32_t api_version = VK_API_VERSION_1_0;  // what the application asked for
    Settings settings;
    Logger logger;

    // The physical device's record, read from the driver on first use.
    std::shared_ptr<const PhysicalDeviceRecord> physical_device(VkPhysicalDevice physical_device);

  private:
    vku::concurrent::unordered_map<VkPhysicalDevice, std::shared_ptr<const PhysicalDeviceRecord>> physical_devices_;
};

// Keyed by a VkInstance's or any of its VkPhysicalDevices' dispatch key (they share it).
DispatchMap<InstanceData>& instances();

template <typename Handle>
InstanceData& instance_data(Handle handle) {
    return instances().at(dispatch_key(handle));
}

}  // namespace vkpolyfill
