#include "sanitizer_runtime.h"

#include <link.h>

namespace vkpolyfill::test {

std::string sanitizer_runtime_preload() {
    std::string runtime;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* found) {
            const std::string name = info->dlpi_name ? info->dlpi_name : "";
            const bool sanitizer = name.find("/libasan.so") != std::string::npos || name.find("/libtsan.so") != std::string::npos;
            if (sanitizer) *static_cast<std::string*>(found) = name;
            return sanitizer ? 1 : 0;
        },
        &runtime);
    return runtime.empty() ? "" : "LD_PRELOAD=" + runtime + " ASAN_OPTIONS=detect_leaks=0 ";
}

}  // namespace vkpolyfill::test
