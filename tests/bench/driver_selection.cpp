#include "driver_selection.h"

#include <cstdlib>

namespace vkpolyfill::bench {

std::string select_driver(const std::string& driver) {
    if (driver != "system") {
        const char* variable = driver == "plain" ? "VKPOLYFILL_ICD_PLAIN" : "VKPOLYFILL_ICD_NATIVE";
        const char* icd = std::getenv(variable);
        if (icd == nullptr || *icd == '\0') {
            return std::string(variable) + " is not set: run through scripts/env.sh (scripts/bench.sh does), or use --driver system";
        }
        setenv("VK_DRIVER_FILES", icd, 1);
    }
    setenv("VK_ADD_LAYER_PATH", VKPOLYFILL_LAYER_MANIFEST_PATH, 1);
    // Mesa drivers keep compiled shaders on disk; without that cache every pipeline creation
    // and first dispatch does the driver's whole compile, the same on every run.
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    return {};
}

}  // namespace vkpolyfill::bench
