// Float16 arithmetic where the device lacks shaderFloat16 (the GTX 1080 class: 16-bit storage, no
// f16 arithmetic), so that modules with f16 matrices and values run there: values in f32 registers,
// rounded to f16 after each operation; laid-out memory keeps its f16 data.
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkpolyfill::lowering {

std::unique_ptr<Pass> make_float16_pass();

}  // namespace vkpolyfill::lowering
