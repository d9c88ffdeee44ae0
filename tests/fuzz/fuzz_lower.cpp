// lower() with one capability's pass, VKPOLYFILL_FUZZ_PASS (a fuzz_checks.h Pass; one target each),
// on inputs mutated by whole instructions and operands (spirv_mutator.h) so that they reach the pass.
#include "fuzz_checks.h"
#include "fuzz_main.h"
#include "spirv_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace vkpolyfill::lowering::fuzz;
    return run_check(data, size, [](std::span<const uint32_t> words) {
        return lower_problem(words, Pass::VKPOLYFILL_FUZZ_PASS);
    });
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    return vkpolyfill::lowering::fuzz::mutate_module(data, size, max_size, seed, LLVMFuzzerMutate);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, uint8_t* out,
                                            size_t max_out, unsigned int seed) {
    return vkpolyfill::lowering::fuzz::cross_over_modules(a, a_size, b, b_size, out, max_out, seed);
}
