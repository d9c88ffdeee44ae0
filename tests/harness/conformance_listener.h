// A GoogleTest listener for scripts/conformance.sh, added by the Vulkan test mains:
// - at the end of each test it prints the test's coverage tags (coverage_tags.h), one a line:
//   "[  COVERS  ] vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR";
// - with VKPOLYFILL_CONFORMANCE_DUMP_ROOT set, it points the layer's dump_dir at
//   <root>/<VKPOLYFILL_TEST_DRIVER>/<Suite.Test> (slashes as '~') before each test, so the SPIR-V
//   each case handed the layer (and what the layer made of it) can be traced back to the case.
#pragma once

namespace vkpolyfill::test {

void add_conformance_listener();

}  // namespace vkpolyfill::test
