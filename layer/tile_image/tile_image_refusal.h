// How the tile-image emulation refuses a shader it cannot serve (a pipeline's stage or a shader
// object): VK_ERROR_UNKNOWN, and an error naming the shader and the reason.
#pragma once

#include <format>
#include <string>

#include <vkpolyfill/lowering/tile_image.h>

#include "pipelines/shader_stage_lowering.h"

namespace vkpolyfill {

// Why the layer's set has no binding for a color location the shader reads, or "": colors take
// bindings 0..`color_bindings` - 1 (tile_image_color_budget(): `color_limit` says which limit decides),
// depth and stencil the two after them.
inline std::string unreadable_color_location(const lowering::TileImageUsage& usage, uint32_t color_bindings,
                                             const std::string& color_limit) {
    for (const lowering::TileImageColors& c : usage.colors) {
        if (c.location + c.count > color_bindings) {
            return std::format("it reads color location {}, and the emulation reads color locations below {} ({})",
                               c.location + c.count - 1, color_bindings, color_limit);
        }
    }
    return {};
}

inline VkResult refuse_tile_image_reads(const DeviceData& data, const StageCode& code, const std::string& why) {
    const LoggedObject objects[] = {code.object};
    data.instance->logger.log(LogLevel::Error, "vkpolyfill-tile-image", code.name + ": error: " + why,
                              code.object.handle ? std::span<const LoggedObject>(objects) : std::span<const LoggedObject>());
    return VK_ERROR_UNKNOWN;
}

}  // namespace vkpolyfill
