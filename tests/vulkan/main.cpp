// Vulkan tests run once per driver: ctest sets VKPOLYFILL_TEST_DRIVER (plain / native) and this
// main points the loader at that driver, and at this build tree's layers (not whichever build
// scripts/env.sh found), before anything touches Vulkan.
#include <gtest/gtest.h>

#include "conformance_listener.h"
#include "test_driver.h"

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    vkpolyfill::test::add_conformance_listener();
    if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();  // test discovery at build time: no driver needed
    if (!vkpolyfill::test::use_test_driver(VKPOLYFILL_LAYER_MANIFEST_PATH)) return 1;
    return RUN_ALL_TESTS();
}
