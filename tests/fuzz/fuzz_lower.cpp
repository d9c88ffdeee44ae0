// lower() with one capability's pass, VKPOLYFILL_FUZZ_PASS (a fuzz_checks.h Pass; one target each).
#include "fuzz_checks.h"
#include "fuzz_main.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace vkpolyfill::lowering::fuzz;
    return run_check(data, size, [](std::span<const uint32_t> words) {
        return lower_problem(words, Pass::VKPOLYFILL_FUZZ_PASS);
    });
}
