// The workgroup width of an entry point, read from the words without the lowering library's IR: the
// layer asks for full subgroups only where the width is known to be a multiple of the subgroup size.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace vkpolyfill {

// LocalSize's x when the module gives it as a literal; nullopt when it comes from specialization
// constants (LocalSizeId, a WorkgroupSize built-in) or the module does not say.
std::optional<uint32_t> literal_local_size_x(std::span<const uint32_t> words, std::string_view entry_point);

}  // namespace vkpolyfill
