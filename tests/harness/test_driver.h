#pragma once

namespace vkpolyfill::test {

// Points the loader at the driver ctest chose (VKPOLYFILL_TEST_DRIVER: plain or native, whose
// manifests scripts/env.sh exports as VKPOLYFILL_ICD_*) and at `layer_manifest_path`, before anything
// touches Vulkan. False, with a message on stderr, when the environment does not say which.
bool use_test_driver(const char* layer_manifest_path);

}  // namespace vkpolyfill::test
