// Structure-aware mutations for the lowering's fuzz targets. libFuzzer's byte mutations of a SPIR-V
// module break its word-count chain or its ids almost every time: 96% of the lowering targets'
// inputs were rejected by the parser and never reached a pass. These mutate whole instructions and
// operands instead (plug in another defined id, a small number; drop, copy, move an instruction;
// give a copy a fresh result id; splice in instructions of another module), so most results parse
// and the pass sees them. The parser's own target keeps libFuzzer's byte mutations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace vkpolyfill::lowering::fuzz {

// Byte-level mutation (libFuzzer's LLVMFuzzerMutate in a fuzz target): (data, size, max_size) -> new size.
using ByteMutator = std::function<size_t(uint8_t*, size_t, size_t)>;

// Mutates the module in data[0, size) in place, within max_size bytes, and returns its new size.
// Input that is not a header and a whole chain of instructions, and one mutation in four, go to
// `bytes` instead. The same seed and input give the same result.
size_t mutate_module(uint8_t* data, size_t size, size_t max_size, unsigned int seed, const ByteMutator& bytes);

// A module of `a`'s instructions with a run of `b`'s spliced in at an instruction boundary, written
// to out (at most max_out bytes); returns its size, 0 when either is not a whole module or it would
// not fit.
size_t cross_over_modules(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, uint8_t* out, size_t max_out,
                          unsigned int seed);

}  // namespace vkpolyfill::lowering::fuzz
