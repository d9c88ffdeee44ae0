// The extensions the layer can provide, and the per-physical-device decision of which it provides:
// natively (pass through), emulated (the layer reports and lowers), or not at all (and why).
// Each capability issue adds one entry to the registry in capabilities.cpp; only implemented
// capabilities are there, so only those are ever advertised.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/utility/vk_safe_struct.hpp>

#include "core/physical_device_facts.h"
#include "core/settings.h"

namespace vkpolyfill {

// A Vulkan command the layer implements, by name.
struct EntryPoint {
    const char* name;
    PFN_vkVoidFunction function;
};

struct Capability {
    const char* extension;
    uint32_t spec_version;
    lowering::Emulated lowering;
    // Empty when the device has what the emulation needs, else a sentence saying what is missing.
    std::string (*missing_requirements)(const PhysicalDeviceFacts& facts);
    // Whether the driver has the whole capability itself.
    bool (*is_native)(const PhysicalDeviceFacts& facts);
    // Fill this capability's feature / property structs found in a query's pNext chain.
    void (*report_features)(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain);
    void (*report_properties)(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain);
    // Called on a copy of every vkCreateDevice info while the capability is emulated, before the
    // layer removes its extensions from the copy: take out the structs the driver must not see (or,
    // when `shared_with_driver`, leave in them only what the driver has), and, when the application
    // enabled the extension, turn on the core features the lowered code will need. `api_version` is
    // the version the device is used at (instance and device).
    void (*prepare_device_create_info)(const PhysicalDeviceFacts& facts, uint32_t api_version, bool shared_with_driver,
                                       vku::safe_VkDeviceCreateInfo& create_info);
    // For an extension a driver can have part of (VK_NV_cooperative_matrix2's feature bits): whether
    // the driver runs this module itself, everything it uses of the extension being the driver's own.
    // Where the driver lists the extension and this is set, the extension stays enabled at the driver
    // (prepare_device_create_info leaves it the driver's own bits) and such modules pass through.
    // Null: the driver has all of the extension or none.
    bool (*driver_runs)(const PhysicalDeviceFacts& facts, std::span<const uint32_t> code) = nullptr;
    // The extension's physical-device commands (reachable through vkGetInstanceProcAddr and
    // vk_layerGetPhysicalDeviceProcAddr); each passes through to the driver when it is native.
    std::span<const EntryPoint> physical_device_functions;
    // Whether a vkCreateDevice info asks for the capability, for one a feature bit enables (shaderFloat16,
    // core since Vulkan 1.2). Null: enabling the extension does.
    bool (*enabled_in)(const VkDeviceCreateInfo* create_info) = nullptr;
};

std::span<const Capability> implemented_capabilities();

// A capability set that only SPIR-V names (SPV_INTEL_long_composites): no Vulkan extension to
// advertise, no feature to report or for the application to enable, and no driver that has it. Such
// sets stay out of the decision table (which is about what to report); every device lowers modules
// that declare one, whatever the application enabled.
struct SpirvOnlyCapability {
    const char* spirv_extension;
    lowering::Emulated lowering;
};

std::span<const SpirvOnlyCapability> spirv_only_capabilities();
lowering::EmulatedSet spirv_only_set();

enum class Provision { Native, Emulated, Unavailable };

struct CapabilityDecision {
    const Capability* capability;
    Provision provision;
    std::string reason;  // why, in a sentence (for the log and the demo)
    // Emulated where the driver has part of it, and the capability can share it (Capability::driver_runs).
    bool shared_with_driver = false;
};

// What the layer does for one physical device.
struct PhysicalDeviceRecord {
    PhysicalDeviceFacts facts;
    std::vector<CapabilityDecision> decisions;  // one per implemented capability

    bool emulates(const char* extension) const;
    // Emulated, yet enabled at the driver too, which has part of it (see Capability::driver_runs).
    bool shares_with_driver(const char* extension) const;
    // The members of `sets` (emulated here) whose use in `code` the driver runs itself.
    lowering::EmulatedSet run_by_driver(std::span<const uint32_t> code, lowering::EmulatedSet sets) const;
    // Unavailable for an extension the layer does not implement.
    Provision provision_of(std::string_view extension) const;
    lowering::EmulatedSet emulated_set() const;
    lowering::EmulatedSet native_set() const;
};

PhysicalDeviceRecord decide_capabilities(PhysicalDeviceFacts facts, const Settings& settings);

const char* to_string(Provision provision);

}  // namespace vkpolyfill
