// One draw of three vertices (no vertex input) into a square color image through dynamic rendering,
// read back: graphics shaders through the layer, for comparison with a CPU reference.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "vulkan_context.h"

namespace vkpolyfill::test {

struct TriangleDraw {
    std::span<const uint32_t> vertex;  // SPIR-V, entry point "main"
    std::span<const uint32_t> fragment;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    uint32_t texel_bytes = 4;
    uint32_t size = 8;  // width and height
    std::function<void(VkCommandBuffer)> bind{};  // descriptors and the like, once the pipeline is bound
};

// The image's texels, row after row (cleared to zero where nothing was drawn). Throws
// std::runtime_error, naming the call, when one fails.
std::vector<std::byte> draw_triangle(Context& context, const TriangleDraw& draw);

}  // namespace vkpolyfill::test
