#include "test_driver.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vkpolyfill::test {

bool use_test_driver(const char* layer_manifest_path) {
    const char* driver = std::getenv("VKPOLYFILL_TEST_DRIVER");
    const std::string name = driver ? driver : "";
    const char* icd_variable = name == "plain" ? "VKPOLYFILL_ICD_PLAIN" : name == "native" ? "VKPOLYFILL_ICD_NATIVE" : nullptr;
    const char* icd = icd_variable ? std::getenv(icd_variable) : nullptr;
    if (icd == nullptr || *icd == '\0') {
        std::fprintf(stderr,
                     "VKPOLYFILL_TEST_DRIVER must be 'plain' or 'native' and the matching VKPOLYFILL_ICD_* must be set: "
                     "run through scripts/env.sh (ctest does this)\n");
        return false;
    }
    setenv("VK_DRIVER_FILES", icd, 1);
    setenv("VK_ADD_LAYER_PATH", layer_manifest_path, 1);
    return true;
}

}  // namespace vkpolyfill::test
