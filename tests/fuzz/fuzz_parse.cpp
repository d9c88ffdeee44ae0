// The SPIR-V parser: round trip parse -> emit (fuzz_checks.h's parse_problem).
#include "fuzz_checks.h"
#include "fuzz_main.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return vkpolyfill::lowering::fuzz::run_check(data, size, vkpolyfill::lowering::fuzz::parse_problem);
}
