// Physical-device queries: the extension list, features and properties report the union of what
// the driver has and what the layer emulates; tooling info names the layer.
#include <cstring>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/output_params.h"
#include "core/hooks.h"
#include "core/instance_data.h"
#include "core/layer_extensions.h"
#include "layer_info.h"

namespace vkpolyfill::hooks {
namespace {

// The device extensions the layer provides on this device: its own, plus the emulated ones.
std::vector<VkExtensionProperties> layer_device_extensions(const PhysicalDeviceRecord* record) {
    std::vector<VkExtensionProperties> extensions(kLayerDeviceExtensions.begin(), kLayerDeviceExtensions.end());
    if (record == nullptr) return extensions;
    for (const CapabilityDecision& d : record->decisions) {
        if (d.provision != Provision::Emulated) continue;
        VkExtensionProperties properties{};
        write_string(properties.extensionName, d.capability->extension);
        properties.specVersion = d.capability->spec_version;
        extensions.push_back(properties);
    }
    return extensions;
}

// The driver's answer, then each emulated capability fills its own structs in the chain. `query`
// picks the core or the KHR entry point, whichever the application called.
template <typename Chain, typename Query>
void query_and_report(VkPhysicalDevice physical_device, Chain* chain, Query VkuInstanceDispatchTable::*query,
                      void (*Capability::*report)(const PhysicalDeviceFacts&, VkBaseOutStructure*)) {
    InstanceData& instance = instance_data(physical_device);
    (instance.next.*query)(physical_device, chain);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physical_device);
    for (const CapabilityDecision& d : record->decisions) {
        if (d.provision == Provision::Emulated) (d.capability->*report)(record->facts, reinterpret_cast<VkBaseOutStructure*>(chain));
    }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char* pLayerName,
                                                                  uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
    const bool ours = pLayerName != nullptr && std::strcmp(pLayerName, kLayerName) == 0;
    if (physicalDevice == VK_NULL_HANDLE) {
        return ours ? write_enumeration(std::span(kLayerDeviceExtensions), pPropertyCount, pProperties)
                    : VK_ERROR_LAYER_NOT_PRESENT;
    }
    InstanceData& instance = instance_data(physicalDevice);
    if (pLayerName != nullptr && !ours) {
        return instance.next.EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
    }
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physicalDevice);
    std::vector<VkExtensionProperties> extensions = layer_device_extensions(record.get());
    if (!ours) {
        // The union: the driver's own list, then what the layer adds that the driver lacks.
        std::vector<VkExtensionProperties> all = record->facts.extensions;
        for (const VkExtensionProperties& e : extensions) {
            if (record->facts.native_spec_version(e.extensionName) == 0) all.push_back(e);
        }
        extensions = std::move(all);
    }
    return write_enumeration(std::span<const VkExtensionProperties>(extensions), pPropertyCount, pProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
    query_and_report(physicalDevice, pFeatures, &VkuInstanceDispatchTable::GetPhysicalDeviceFeatures2,
                     &Capability::report_features);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2KHR(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
    query_and_report(physicalDevice, pFeatures, &VkuInstanceDispatchTable::GetPhysicalDeviceFeatures2KHR,
                     &Capability::report_features);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties) {
    query_and_report(physicalDevice, pProperties, &VkuInstanceDispatchTable::GetPhysicalDeviceProperties2,
                     &Capability::report_properties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2KHR(VkPhysicalDevice physicalDevice,
                                                           VkPhysicalDeviceProperties2* pProperties) {
    query_and_report(physicalDevice, pProperties, &VkuInstanceDispatchTable::GetPhysicalDeviceProperties2KHR,
                     &Capability::report_properties);
}

// Limits an emulation reduces are reported the same through the version-1 query.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties* pProperties) {
    InstanceData& instance = instance_data(physicalDevice);
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper();
    instance.next.GetPhysicalDeviceProperties(physicalDevice, &properties.properties);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physicalDevice);
    for (const CapabilityDecision& d : record->decisions) {
        if (d.provision == Provision::Emulated) d.capability->report_properties(record->facts, reinterpret_cast<VkBaseOutStructure*>(&properties));
    }
    *pProperties = properties.properties;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice, uint32_t* pToolCount,
                                                               VkPhysicalDeviceToolProperties* pToolProperties) {
    const VkuInstanceDispatchTable& next = instance_data(physicalDevice).next;
    PFN_vkGetPhysicalDeviceToolProperties next_tools =
        next.GetPhysicalDeviceToolProperties ? next.GetPhysicalDeviceToolProperties : next.GetPhysicalDeviceToolPropertiesEXT;
    // The layer's entry comes first; tools below it (other layers, the driver) follow.
    uint32_t below = 0;
    VkResult result = VK_SUCCESS;
    if (pToolProperties == nullptr) {
        if (next_tools) result = next_tools(physicalDevice, &below, nullptr);
        *pToolCount = below + 1;
        return result;
    }
    if (*pToolCount == 0) return VK_INCOMPLETE;
    VkPhysicalDeviceToolProperties& tool = pToolProperties[0];
    write_string(tool.name, "vkpolyfill");
    write_string(tool.version, kLayerVersionString);
    tool.purposes = VK_TOOL_PURPOSE_ADDITIONAL_FEATURES_BIT | VK_TOOL_PURPOSE_MODIFYING_FEATURES_BIT;
    write_string(tool.description, kLayerDescription);
    write_string(tool.layer, kLayerName);
    below = *pToolCount - 1;
    if (next_tools) {
        result = next_tools(physicalDevice, &below, pToolProperties + 1);
    } else {
        below = 0;
    }
    *pToolCount = below + 1;
    return result;
}

}  // namespace vkpolyfill::hooks
