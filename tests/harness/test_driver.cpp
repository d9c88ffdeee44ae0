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
    // lavapipe 26 (LLVM 21) computes wrong results with AVX-512: the same lowered module (spirv-val
    // clean) runs right on lavapipe 25 on that CPU and on lavapipe 26 with AVX-512 off or 128-bit
    // vectors (docs/real_gpus.md, Known driver defects). Its tests run with Mesa's own switch that leaves AVX-512 out.
    if (name == "native" && __builtin_cpu_supports("avx512f")) setenv("GALLIUM_OVERRIDE_CPU_CAPS", "avx", 0);
    setenv("VK_ADD_LAYER_PATH", layer_manifest_path, 1);
    return true;
}

}  // namespace vkpolyfill::test
