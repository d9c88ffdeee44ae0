// The layer's own compute shaders (shaders/layer/), compiled at build time and embedded by
// scripts/embed_spirv.py: layer_shader("tensor_copy_32") returns the words, empty for an unknown name.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace vkpolyfill {

std::span<const uint32_t> layer_shader(std::string_view name);

}  // namespace vkpolyfill
