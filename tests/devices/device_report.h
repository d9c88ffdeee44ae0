// What an application sees of one device, with or without the layer: its extensions and the feature
// bits of the extensions the layer provides; and what the layer said it decided for each of them.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>

#include <volk.h>

namespace vkpolyfill::test {

class DebugMessages;

// One feature bit of a capability the layer provides (an extension and a member of its feature struct).
struct FeatureBit {
    const char* extension;
    const char* name;
};

std::span<const FeatureBit> feature_bits();
// The Vulkan extensions of feature_bits(), each once, in order.
std::span<const char* const> capability_extensions();
bool is_vulkan_capability(const std::string& extension);

// The device limits the layer may report smaller (its own descriptor set takes from them), by name,
// with the minimum Vulkan requires of every device (the specification's Required Limits).
struct ReducibleLimit {
    const char* name;
    uint32_t VkPhysicalDeviceLimits::* member;
    uint32_t vulkan_minimum;
};
std::span<const ReducibleLimit> reducible_limits();

struct DeviceReport {
    std::string device_name, driver_info;
    std::set<std::string> extensions;
    std::set<std::string> features;  // the bits that are on, by member name
    std::map<std::string, uint32_t> limits;  // reducible_limits(), by name

    bool lists(const std::string& extension) const { return extensions.count(extension) != 0; }
    bool has(const FeatureBit& bit) const { return lists(bit.extension) && features.count(bit.name) != 0; }
};

// The first physical device on an instance of its own, with the layer or without; `messages` (with the
// layer) hears what the layer says meanwhile.
DeviceReport read_device(bool layer, DebugMessages* messages);

// What the layer logged for each capability ("vkpolyfill-capability" messages), by extension.
struct Decision {
    std::string provision;  // native | emulated | unavailable
    std::string reason;
};
std::map<std::string, Decision> layer_decisions(const DebugMessages& messages);

}  // namespace vkpolyfill::test
