// What a fragment shader reads through SPV_EXT_shader_tile_image, for the layer to build the
// descriptors, pipeline layout and ordering the lowered code needs (lower.h's TileImageTarget says
// where the lowered reads look).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vkpolyfill::lowering {

// A tile-image variable: `count` consecutive color locations from `location` (an array of
// `count`); lowered, it reads input attachments `location`.. (elements `location`.. of binding 0).
struct TileImageColors {
    uint32_t location = 0;
    uint32_t count = 1;
    bool operator==(const TileImageColors&) const = default;
};

struct TileImageUsage {
    bool ok = false;
    std::string error;  // why not ok

    std::vector<TileImageColors> colors;  // by location
    bool depth = false;    // OpDepthAttachmentReadEXT
    bool stencil = false;  // OpStencilAttachmentReadEXT
    // Reads in rasterization order: the entry point lacks the NonCoherent*AttachmentReadEXT mode.
    bool coherent_color = false;
    bool coherent_depth = false;
    bool coherent_stencil = false;
    bool early_fragment_tests = false;
    // Why a fragment shader interlock cannot order the coherent color reads (TileImageTarget::interlock),
    // or "".
    std::string interlock_obstacle;

    bool reads_anything() const { return !colors.empty() || depth || stencil; }
};

// The tile-image reads of `entry_point` (a fragment entry point) in a module; a module that declares
// no tile image reads nothing (ok, reads_anything() false).
TileImageUsage tile_image_usage(std::span<const uint32_t> words, std::string_view entry_point);

}  // namespace vkpolyfill::lowering
