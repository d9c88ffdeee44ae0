// What tells one build of the layer from another: a hash of its own shared library. The disk cache
// keys files by it, so modules lowered by an earlier build (a changed pass, same version number)
// are never served to a later one.
#pragma once

#include <string>

namespace vkpolyfill {

// The hash as hex, computed on first use; the layer version when the library cannot be read.
const std::string& build_identity();

}  // namespace vkpolyfill
