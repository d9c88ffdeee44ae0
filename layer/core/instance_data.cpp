#include "core/instance_data.h"

namespace vkpolyfill {

DispatchMap<InstanceData>& instances() {
    static DispatchMap<InstanceData> map;
    return map;
}

std::shared_ptr<const PhysicalDeviceRecord> InstanceData::physical_device(VkPhysicalDevice physical_device) {
    if (auto found = physical_devices_.find(physical_device); found != physical_devices_.end()) {
        return found->second;
    }
    auto record = std::make_shared<const PhysicalDeviceRecord>(
        decide_capabilities(read_physical_device_facts(physical_device, next), settings));
    for (const CapabilityDecision& d : record->decisions) {
        logger.log(LogLevel::Info, "vkpolyfill-capability",
                   std::string(record->facts.properties.deviceName) + ": " + d.capability->extension + " " +
                       to_string(d.provision) + " (" + d.reason + ")");
    }
    for (const SpirvOnlyCapability& capability : spirv_only_capabilities()) {
        logger.log(LogLevel::Info, "vkpolyfill-capability",
                   std::string(record->facts.properties.deviceName) + ": " + capability.spirv_extension +
                       " emulated (SPIR-V only: no Vulkan extension names it, so modules using it are lowered on every device)");
    }
    // Two threads may both read the facts; the first record stored wins and both return it.
    physical_devices_.insert(physical_device, record);
    return physical_devices_.find(physical_device)->second;
}

}  // namespace vkpolyfill
