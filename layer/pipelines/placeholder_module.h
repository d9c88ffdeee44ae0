// What the driver receives at vkCreateShaderModule in place of a module the layer captured: valid
// SPIR-V (a compute entry point that does nothing), so the application's handle is a real driver
// handle (destruction and debug-utils naming pass through) while the words wait, in the layer, for
// the pipeline that says how to lower them.
#pragma once

#include <cstdint>
#include <span>

namespace vkpolyfill {

std::span<const uint32_t> placeholder_module();

}  // namespace vkpolyfill
