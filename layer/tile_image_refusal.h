// How the tile-image emulation refuses a shader it cannot serve (a pipeline's stage or a shader
// object): VK_ERROR_UNKNOWN, and an error naming the shader and the reason.
#pragma once

#include <string>

#include "shader_stage_lowering.h"

namespace vkpolyfill {

inline VkResult refuse_tile_image_reads(const DeviceData& data, const StageCode& code, const std::string& why) {
    const LoggedObject objects[] = {code.object};
    data.instance->logger.log(LogLevel::Error, "vkpolyfill-tile-image", code.name + ": error: " + why,
                              code.object.handle ? std::span<const LoggedObject>(objects) : std::span<const LoggedObject>());
    return VK_ERROR_UNKNOWN;
}

}  // namespace vkpolyfill
