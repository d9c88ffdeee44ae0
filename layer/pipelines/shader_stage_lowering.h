// Lowering one stage (of a pipeline or a shader object): the Target from the device and the
// stage, the cache, lowering::lower(), the validator (validate_output) and the dumps (dump_dir).
// Every failure is logged, naming the shader, before the caller fails its creation call.
#pragma once

#include <memory>
#include <string>

#include <vulkan/vulkan_core.h>

#include "pipelines/captured_modules.h"
#include "core/device_data.h"
#include "core/log.h"
#include "pipelines/lowering_cache.h"

namespace vkpolyfill {

// Code that needs lowering, and how messages name it.
struct StageCode {
    std::shared_ptr<const CapturedModule> module;
    std::string name;     // the debug-utils name, or "VkShaderModule 0x…", or what the inline code is
    LoggedObject object;  // the handle messages are about, when there is one
};

struct StageRequest {
    const char* entry_point;
    const VkSpecializationInfo* specialization;  // may be null
    uint32_t subgroup_size;
    uint32_t rasterization_samples = 1;  // fragment stages: tile images read multisampled attachments above 1
    uint32_t color_locations = ~0u;      // fragment stages: where the pass has color attachments (TileImageTarget)
    bool interlock = false;              // fragment stages: coherent color reads ordered by an interlock (TileImageTarget)
};

struct LoweredStage {
    VkResult result = VK_SUCCESS;  // VK_ERROR_UNKNOWN when lowering or validation failed (see the log)
    LoweredWords words;            // set on success
};

LoweredStage lower_stage(const DeviceData& device, const StageCode& code, const StageRequest& request) noexcept;

}  // namespace vkpolyfill
