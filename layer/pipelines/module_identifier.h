// VK_EXT_shader_module_identifier for the modules the layer keeps: the driver holds one placeholder
// for all of them, so its identifier would name every such module alike (an application's
// identifier-keyed cache would hand one module's pipeline to another). The layer names them itself.
#pragma once

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/vulkan_core.h>

#include "core/content_hash.h"

namespace vkpolyfill {

// Writes the identifier (size and bytes; the application's sType and pNext stay) of a kept module whose
// words hash to `module`, lowered for `target`: the same for the same code, layer build and device
// configuration, and never the driver's (it starts with a tag no driver writes). A pipeline created
// from it alone finds nothing in the driver's cache, which answers VK_PIPELINE_COMPILE_REQUIRED, as the
// extension requires of any identifier it does not know.
void write_module_identifier(const ContentHash& module, const lowering::Target& target, VkShaderModuleIdentifierEXT& out);

}  // namespace vkpolyfill
