// What the layer keeps per device to intercept shaders: on devices where the application enabled an
// emulated capability or a SPIR-V-only set is registered (elsewhere every shader and pipeline call
// goes straight down).
#pragma once

#include <memory>
#include <string>

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/vulkan_core.h>

#include "core/capabilities.h"
#include "pipelines/captured_modules.h"
#include "pipelines/lowering_cache.h"
#include "pipelines/subgroup_pinning.h"

namespace vkpolyfill {

struct DeviceShaders {
    DeviceShaders(const PhysicalDeviceRecord& device_record, const lowering::Target& device_target,
                  const SubgroupControl& control, const std::string& cache_dir)
        : record(device_record), target(device_target), subgroup(control), cache(cache_dir) {}

    const PhysicalDeviceRecord& record;  // the DeviceData's, which owns this and keeps the record alive

    lowering::Target target;  // the device's part; subgroup_size is set per stage
    SubgroupControl subgroup;
    CapturedModules modules;
    LoweringCache cache;

    // Whether code uses a capability the layer emulates on this device, in a way the driver cannot run.
    // A module that declares only SPV_KHR_cooperative_matrix, on a driver that runs that itself, may
    // use VK_NV_cooperative_matrix2's matrices all the same: the lowering finds out with the
    // pipeline's specialization (lowering::Target::native_matrices) and leaves it as it is otherwise.
    bool needs_lowering(std::span<const uint32_t> code) const {
        lowering::EmulatedSet used = lowering::scan_emulated_capabilities(code);
        if ((used & lowering::bit(lowering::Emulated::KhrCooperativeMatrix)) && !target.native_matrices.empty()) {
            used |= lowering::bit(lowering::Emulated::NvCooperativeMatrix2);
        }
        const lowering::EmulatedSet emulated = used & target.emulate;
        return emulated != 0 && (emulated & ~record.run_by_driver(code, emulated)) != 0;
    }
};

// `create_info` is what the driver received (the layer's copy or the application's own); `settings`
// are the instance's (the cache directory, the uniform-load choice).
std::unique_ptr<DeviceShaders> make_device_shaders(const PhysicalDeviceRecord& record, lowering::EmulatedSet enabled,
                                                   uint32_t api_version, const VkDeviceCreateInfo* create_info,
                                                   const Settings& settings);

}  // namespace vkpolyfill
