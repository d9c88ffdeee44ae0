// For tests that start an uninstrumented program (vulkaninfo) which loads the layer: in a sanitizer
// build the layer needs its sanitizer's runtime loaded first, or the program refuses to load it.
#pragma once

#include <string>

namespace vkpolyfill::test {

// "" in an ordinary build; under ASan or TSan, environment assignments for a shell command line that
// preload this process's sanitizer runtime (leak checking off: the program's leaks are not the layer's).
std::string sanitizer_runtime_preload();

}  // namespace vkpolyfill::test
