// SPV_NV_cooperative_matrix2 used by a module that declares only SPV_KHR_cooperative_matrix: glslang
// writes a GL_NV_cooperative_matrix2 shader that uses nothing of it beyond matrix types that way
// (workgroup scope, flexible dimensions). Where the driver runs the KHR extension itself, such a
// module must still be lowered, not handed to a driver without those matrices.
#pragma once

#include <span>

#include "ir/module.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

// Whether a matrix type has workgroup scope (or a scope a specialization constant decides), or, where
// the target lists the driver's own configurations (Target::native_matrices) and leaves it KHR's,
// a subgroup-scope type (with the pipeline's specialization) that none of them offers in its use.
bool uses_cooperative_matrix2_implicitly(const ir::Module& module, const Target& target,
                                         std::span<const SpecializationValue> specialization);

}  // namespace vkpolyfill::lowering
