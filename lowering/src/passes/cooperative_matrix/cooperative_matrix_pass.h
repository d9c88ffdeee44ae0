// The SPV_KHR_cooperative_matrix pass: every subgroup-scope cooperative matrix becomes an array of
// the components one invocation holds (lane_layout.h), and every instruction on matrices becomes
// core SPIR-V on those arrays.
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkpolyfill::lowering {

std::unique_ptr<Pass> make_cooperative_matrix_pass();

}  // namespace vkpolyfill::lowering
