// vkCreateDevice / vkDestroyDevice. The driver never sees the layer's extensions or the emulated
// capabilities' structs: they are removed from a deep copy of the create info (safe structs), and
// the application's own chain is left as it was.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include <vulkan/utility/vk_safe_struct_utils.hpp>

#include "core/device_data.h"
#include "core/extension_list.h"
#include "core/hooks.h"
#include "core/layer_extensions.h"
#include "core/layer_link.h"
#include "tile_image/capability_ext_shader_tile_image.h"

namespace vkpolyfill::hooks {
namespace {

bool is_layer_extension(const char* name) {
    for (const VkExtensionProperties& e : kLayerDeviceExtensions) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
    }
    return false;
}

// Extensions the application enabled that the layer, not the driver, provides.
std::vector<const char*> layer_provided_enabled(const VkDeviceCreateInfo* create_info, const PhysicalDeviceRecord& record) {
    std::vector<const char*> provided;
    for (uint32_t i = 0; i < create_info->enabledExtensionCount; ++i) {
        const char* name = create_info->ppEnabledExtensionNames[i];
        if ((record.emulates(name) && !record.shares_with_driver(name)) ||
            (is_layer_extension(name) && record.facts.native_spec_version(name) == 0)) {
            provided.push_back(name);
        }
    }
    return provided;
}

std::string describe(const DeviceData& data) {
    std::string text = std::string("device on ") + data.record->facts.properties.deviceName + ": emulating";
    bool any = false;
    for (const CapabilityDecision& d : data.record->decisions) {
        if (d.provision == Provision::Emulated && (data.enabled_emulation & lowering::bit(d.capability->lowering))) {
            text += std::string(" ") + d.capability->extension;
            any = true;
        }
    }
    for (const SpirvOnlyCapability& capability : spirv_only_capabilities()) {
        text += std::string(" ") + capability.spirv_extension;
        any = true;
    }
    return any ? text : text + " nothing";
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
    InstanceData& instance = instance_data(physicalDevice);
    auto* link = find_layer_link<VkLayerDeviceCreateInfo>(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    auto next_create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(instance.instance, "vkCreateDevice"));
    if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    auto data = std::make_shared<DeviceData>();
    data->instance = &instance;
    data->physical_device = physicalDevice;
    data->record = instance.physical_device(physicalDevice);
    const PhysicalDeviceRecord& record = *data->record;
    data->enabled_emulation = spirv_only_set();  // nothing for the application to enable
    for (const CapabilityDecision& d : record.decisions) {
        const bool enabled = d.capability->enabled_in ? d.capability->enabled_in(pCreateInfo)
                                                      : enables_extension(pCreateInfo, d.capability->extension);
        if (d.provision == Provision::Emulated && enabled) {
            data->enabled_emulation |= lowering::bit(d.capability->lowering);
        }
    }
    // An application info without a version means 1.0.
    data->api_version = std::min(std::max(instance.api_version, VK_API_VERSION_1_0), record.facts.properties.apiVersion);

    // The driver gets the application's create info unless the layer has something to take out or add.
    std::optional<vku::safe_VkDeviceCreateInfo> copy;
    const std::vector<const char*> provided = layer_provided_enabled(pCreateInfo, record);
    if (!provided.empty() || record.emulated_set() != 0) {
        copy.emplace(pCreateInfo);
        for (const CapabilityDecision& d : record.decisions) {
            if (d.provision == Provision::Emulated) {
                d.capability->prepare_device_create_info(record.facts, data->api_version, d.shared_with_driver, *copy);
            }
        }
        for (const char* name : provided) vku::RemoveExtension(*copy, name);
    }
    const VkDeviceCreateInfo* driver_info = copy ? copy->ptr() : pCreateInfo;
    const VkResult result = next_create(physicalDevice, driver_info, pAllocator, pDevice);
    if (result != VK_SUCCESS) return result;
    data->shaders = make_device_shaders(record, data->enabled_emulation, data->api_version, driver_info, instance.settings);

    data->device = *pDevice;
    vkuInitDeviceDispatchTable(*pDevice, &data->next, next_gdpa);
    if (data->enabled_emulation & lowering::bit(lowering::Emulated::ExtShaderTileImage)) {
        VkPhysicalDeviceMemoryProperties memory;
        instance.next.GetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
        data->tile_image = std::make_unique<TileImageDevice>(
            *pDevice, data->next, data->shaders->target.tile_image, tile_image_color_budget(record.facts).decided_by,
            tile_image_order(record.facts, instance.settings.tile_image_ordering), memory);
    }
    if (data->enabled_emulation & lowering::bit(lowering::Emulated::ArmTensors)) {
        VkPhysicalDeviceMemoryProperties memory;
        instance.next.GetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
        uint32_t queue_families = 0;
        instance.next.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &queue_families, nullptr);
        data->tensors = std::make_unique<TensorDevice>(*pDevice, data->next, record.facts, memory,
                                                       tensor_device_features(*pCreateInfo, record.facts, queue_families), instance.logger);
    }
    instance.logger.log(LogLevel::Debug, "vkpolyfill-device", describe(*data));
    devices().insert(dispatch_key(*pDevice), std::move(data));
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
    if (device == VK_NULL_HANDLE) return;
    std::shared_ptr<DeviceData> data = devices().pop(dispatch_key(device));
    if (data == nullptr) return;  // not a device this layer created
    data->tile_image.reset();  // their objects belong to the device
    data->tensors.reset();
    data->next.DestroyDevice(device, pAllocator);
}

}  // namespace vkpolyfill::hooks
