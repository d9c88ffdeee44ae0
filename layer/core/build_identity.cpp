#include "core/build_identity.h"

#include <dlfcn.h>

#include "core/content_hash.h"
#include "core/file_io.h"
#include "layer_info.h"

namespace vkpolyfill {

const std::string& build_identity() {
    static const std::string identity = [] {
        Dl_info info{};
        if (dladdr(reinterpret_cast<const void*>(&build_identity), &info) != 0 && info.dli_fname != nullptr) {
            if (const auto library = read_file(info.dli_fname)) return hash_bytes(*library).hex();
        }
        return std::string(kLayerVersionString);
    }();
    return identity;
}

}  // namespace vkpolyfill
