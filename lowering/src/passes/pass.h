// The interface every emulation pass implements (one per capability set, listed in emulated_sets.cpp),
// after the validation layers' GPU-AV Pass.
#pragma once

#include <span>
#include <string_view>

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

struct PassContext {
    ir::Module& module;
    ir::TypeManager& types;
    const Target& target;
    Diagnostics& diagnostics;
    // The pipeline's specialization, for the constants a pass must know (and freeze).
    std::span<const SpecializationValue> specialization;
};

class Pass {
  public:
    virtual ~Pass() = default;
    virtual std::string_view name() const = 0;
    // Rewrites the module so it no longer declares or uses the pass's capabilities. Returns whether
    // anything changed; reports what it cannot lower as errors in context.diagnostics.
    virtual bool run(PassContext& context) = 0;
};

}  // namespace vkpolyfill::lowering
