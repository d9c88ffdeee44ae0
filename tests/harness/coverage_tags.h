// What a test exercises beyond what its SPIR-V shows, for the coverage accounting of
// scripts/conformance.sh: Vulkan commands ("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR") and
// enabled feature bits. The harness tags what it does itself (features enabled at vkCreateDevice);
// a test that calls an extension's command directly tags it with covers(). The conformance listener
// prints the tags of each test when it ends (conformance_listener.h); a tag of a test that then fails
// or skips counts for nothing.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace vkpolyfill::test {

// Tags the running test as exercising `item`.
void covers(std::string_view item);

// The tags since the last call, which clears them.
std::set<std::string> take_coverage_tags();

}  // namespace vkpolyfill::test
