// Links a function of a GLSL helper module into the module being lowered, as the validation
// layers' GPU-AV links its instrumentation functions: the helper's specialization constants are
// frozen to the values given (array lengths, shapes), its types and constants are shared with the
// target's, and the function and every function it calls are copied in with fresh ids.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "diagnostics.h"
#include "ir/type_manager.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::helpers {

// A 32-bit value for specialization constant `spec_id` (uint, int or bool).
SpecializationValue uint_value(uint32_t spec_id, uint32_t number);

// `function` is the GLSL name (glslang's OpName is "name(params"). Returns the function's id in
// `target`, or 0 after reporting why it could not be linked.
uint32_t link_helper_function(ir::Module& target, ir::TypeManager& types, std::string_view helper,
                              std::string_view function, std::span<const SpecializationValue> values,
                              Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::helpers
