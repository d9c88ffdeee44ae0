// Short names of VkComponentTypeKHR ("f16", "s8", ...), shared by the cooperative-matrix tests
// (their shaders' file names spell the types so) and the benchmarks' listings of configurations.
#pragma once

#include <string_view>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill::test {

std::string_view short_name(VkComponentTypeKHR type);  // "other" for a type without one

}  // namespace vkpolyfill::test
