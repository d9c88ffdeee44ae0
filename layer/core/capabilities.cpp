#include "core/capabilities.h"

#include "tensors/capability_arm_tensors.h"
#include "tile_image/capability_ext_shader_tile_image.h"
#include "cooperative_matrix/capability_khr_cooperative_matrix.h"
#include "cooperative_matrix/capability_nv_cooperative_matrix2.h"
#include "cooperative_matrix/capability_nv_cooperative_matrix_decode_vector.h"
#include "float16/capability_shader_float16.h"

namespace vkpolyfill {

std::span<const Capability> implemented_capabilities() {
    // The capability issues ([K], [C], [T], [I], [L]) each register their extension here.
    static const Capability capabilities[] = {khr_cooperative_matrix_capability(), nv_cooperative_matrix2_capability(),
                                              nv_cooperative_matrix_decode_vector_capability(),
                                              ext_shader_tile_image_capability(), arm_tensors_capability(),
                                              shader_float16_capability()};
    return capabilities;
}

std::span<const SpirvOnlyCapability> spirv_only_capabilities() {
    static const SpirvOnlyCapability capabilities[] = {
        {"SPV_INTEL_long_composites", lowering::Emulated::IntelLongComposites},
    };
    return capabilities;
}

lowering::EmulatedSet spirv_only_set() {
    lowering::EmulatedSet set = 0;
    for (const SpirvOnlyCapability& capability : spirv_only_capabilities()) set |= lowering::bit(capability.lowering);
    return set;
}

const char* to_string(Provision provision) {
    switch (provision) {
        case Provision::Native: return "native";
        case Provision::Emulated: return "emulated";
        case Provision::Unavailable: break;
    }
    return "unavailable";
}

bool PhysicalDeviceRecord::emulates(const char* extension) const { return provision_of(extension) == Provision::Emulated; }

bool PhysicalDeviceRecord::shares_with_driver(const char* extension) const {
    for (const CapabilityDecision& d : decisions) {
        if (d.capability->extension == std::string_view(extension)) return d.shared_with_driver;
    }
    return false;
}

lowering::EmulatedSet PhysicalDeviceRecord::run_by_driver(std::span<const uint32_t> code, lowering::EmulatedSet sets) const {
    lowering::EmulatedSet run = 0;
    for (const CapabilityDecision& d : decisions) {
        const lowering::EmulatedSet set = lowering::bit(d.capability->lowering);
        if (d.shared_with_driver && (sets & set) && d.capability->driver_runs(facts, code)) run |= set;
    }
    return run;
}

Provision PhysicalDeviceRecord::provision_of(std::string_view extension) const {
    for (const CapabilityDecision& d : decisions) {
        if (d.capability->extension == extension) return d.provision;
    }
    return Provision::Unavailable;
}

namespace {

lowering::EmulatedSet set_of(const std::vector<CapabilityDecision>& decisions, Provision provision) {
    lowering::EmulatedSet set = 0;
    for (const CapabilityDecision& d : decisions) {
        if (d.provision == provision) set |= lowering::bit(d.capability->lowering);
    }
    return set;
}

}  // namespace

lowering::EmulatedSet PhysicalDeviceRecord::emulated_set() const { return set_of(decisions, Provision::Emulated); }

lowering::EmulatedSet PhysicalDeviceRecord::native_set() const { return set_of(decisions, Provision::Native); }

PhysicalDeviceRecord decide_capabilities(PhysicalDeviceFacts facts, const Settings& settings) {
    PhysicalDeviceRecord record{std::move(facts), {}};
    for (const Capability& capability : implemented_capabilities()) {
        CapabilityDecision decision{&capability, Provision::Emulated, {}};
        const bool forced = settings.forces_emulation_of(capability.extension);
        if (capability.is_native(record.facts) && !forced) {
            decision.provision = Provision::Native;
            decision.reason = "the driver has it";
        } else if (!record.facts.has_properties2) {
            decision.provision = Provision::Unavailable;
            decision.reason = "its features cannot be queried without vkGetPhysicalDeviceFeatures2";
        } else if (std::string missing = capability.missing_requirements(record.facts); !missing.empty()) {
            decision.provision = Provision::Unavailable;
            decision.reason = std::move(missing);
        } else {
            const bool has_part = record.facts.native_spec_version(capability.extension) != 0;
            decision.shared_with_driver = has_part && !forced && capability.driver_runs != nullptr;
            decision.reason = forced     ? "forced by the force_emulation setting"
                              : has_part ? "the driver has only part of it"
                                         : "the driver lacks it";
        }
        record.decisions.push_back(std::move(decision));
    }
    return record;
}

}  // namespace vkpolyfill
