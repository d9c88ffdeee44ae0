// For test code that drives the Vulkan driver alone, without the layer (the cooperative-matrix grids'
// native observations): under ASan, LeakSanitizer ignores what this thread allocates while the scope
// lives, so a leak inside the driver (lavapipe 26 leaks compiling its own coopmat OpSelect) is not
// charged to the test. The stack of such a leak ends inside the driver, which has no frame pointers, so
// a suppression by function name cannot match it. Nothing in a build without ASan.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace vkpolyfill::test {

class DriverOnlyLeakScope {
public:
#if defined(__SANITIZE_ADDRESS__)
    DriverOnlyLeakScope() { __lsan_disable(); }
    ~DriverOnlyLeakScope() { __lsan_enable(); }
#else
    DriverOnlyLeakScope() {}  // user-provided as under ASan: a scope guard, not an unused variable
#endif
    DriverOnlyLeakScope(const DriverOnlyLeakScope&) = delete;
    DriverOnlyLeakScope& operator=(const DriverOnlyLeakScope&) = delete;
};

}  // namespace vkpolyfill::test
