// Pointing the loader at the driver a benchmark runs on, and at this build tree's layer, before
// anything touches Vulkan (as the Vulkan tests' main does).
#pragma once

#include <string>

namespace vkpolyfill::bench {

// `driver` is "plain", "native" (the scripts/env.sh drivers) or "system" (the loader's default).
// Returns an error message, empty on success.
std::string select_driver(const std::string& driver);

}  // namespace vkpolyfill::bench
