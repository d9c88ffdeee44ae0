#include "pipelines/module_identifier.h"

#include <cstring>
#include <string>

#include "core/build_identity.h"
#include "pipelines/lowering_cache.h"

namespace vkpolyfill {

void write_module_identifier(const ContentHash& module, const lowering::Target& target, VkShaderModuleIdentifierEXT& out) {
    static constexpr char kTag[] = "vkpolyfill:lower";  // 16 bytes before the hash; VK_MAX_SHADER_MODULE_IDENTIFIER_SIZE_EXT is 32
    static_assert(sizeof(kTag) - 1 + sizeof(ContentHash) == VK_MAX_SHADER_MODULE_IDENTIFIER_SIZE_EXT);
    // The lowering key without an entry point or specialization: the module and all the device decides.
    const std::string named = build_identity() + lowering_key(module, {}, {}, target).bytes;
    const ContentHash hash = hash_of(std::span<const char>(named));
    out.identifierSize = VK_MAX_SHADER_MODULE_IDENTIFIER_SIZE_EXT;
    std::memcpy(out.identifier, kTag, sizeof(kTag) - 1);
    std::memcpy(out.identifier + sizeof(kTag) - 1, &hash, sizeof(hash));
}

}  // namespace vkpolyfill
