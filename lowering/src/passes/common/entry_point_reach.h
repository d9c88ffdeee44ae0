// Instructions an extension allows in some shader stages only (tile-image reads in fragment shaders,
// cooperative matrices in compute shaders, as the device reports them): spirv-val enforces that on
// the input, but an application may skip validation and the lowered code would no longer say it. A
// watched instruction reachable, directly or through calls, from an entry point of another execution
// model is reported, naming the instruction and the entry point.
#pragma once

#include <cstdint>
#include <string_view>

#include "diagnostics.h"
#include "ir/module.h"

namespace vkpolyfill::lowering {

struct StageRule {
    bool (*allowed_model)(uint32_t execution_model);
    bool (*watched)(uint32_t opcode);
    std::string_view allowed_stages;  // "a fragment shader"
    std::string_view rule;            // "tile images are read by fragment shaders only"
};

// Reports every watched instruction reachable from an entry point the rule does not allow; returns
// whether there was one.
bool report_outside_allowed_stages(const ir::Module& module, const StageRule& rule, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering
