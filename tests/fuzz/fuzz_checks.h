// What the fuzz targets check on every input, shared with the regression test of the inputs they
// found (tests/lowering/test_fuzz_regressions.cpp). Each returns an empty string when the library
// behaved, else what went wrong; a crash is, of course, caught by the sanitizers instead.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace vkpolyfill::lowering::fuzz {

// The parser rejects the module with exactly one diagnostic, or parses it and emits the same words.
std::string parse_problem(std::span<const uint32_t> words);

// The capabilities' passes, one fuzz target each (NvCooperativeMatrix2 with SPV_NV_tensor_addressing;
// Float16: shaderFloat16's f16 arithmetic alone, over every seed module, not only matrix ones).
enum class Pass { KhrCooperativeMatrix, NvCooperativeMatrix2, TileImage, LongComposites, ArmTensors, Float16 };
inline constexpr Pass kPasses[] = {Pass::KhrCooperativeMatrix, Pass::NvCooperativeMatrix2, Pass::TileImage,
                                   Pass::LongComposites, Pass::ArmTensors, Pass::Float16};

// lower() with a Target emulating `pass`'s capability fails with a diagnostic or returns a module
// that parses, declares none of the emulated capabilities and extensions, and that spirv-val accepts
// whenever it accepts the input.
std::string lower_problem(std::span<const uint32_t> words, Pass pass);

}  // namespace vkpolyfill::lowering::fuzz
