// Vulkan tests run once per driver: ctest sets VKPOLYFILL_TEST_DRIVER (plain / native) and this
// main points the loader at that driver, and at this build tree's layers (not whichever build
// scripts/env.sh found), before anything touches Vulkan.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "vulkan_context.h"

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();  // test discovery at build time: no driver needed
    const std::string& driver = vkpolyfill::test::driver_name();
    const char* icd_variable = driver == "plain" ? "VKPOLYFILL_ICD_PLAIN" : driver == "native" ? "VKPOLYFILL_ICD_NATIVE" : nullptr;
    const char* icd = icd_variable ? std::getenv(icd_variable) : nullptr;
    if (icd == nullptr || *icd == '\0') {
        std::fprintf(stderr,
                     "VKPOLYFILL_TEST_DRIVER must be 'plain' or 'native' and the matching VKPOLYFILL_ICD_* must be set: "
                     "run through scripts/env.sh (ctest does this)\n");
        return 1;
    }
    setenv("VK_DRIVER_FILES", icd, 1);
    setenv("VK_ADD_LAYER_PATH", VKPOLYFILL_LAYER_MANIFEST_PATH, 1);
    return RUN_ALL_TESTS();
}
