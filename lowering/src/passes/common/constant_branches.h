// The blocks of a function that can run under the pipeline's specialization: from the entry block, a
// conditional branch or a switch on a constant (OpConstant*, or OpSpecConstant* at the pipeline's
// value) goes only where that value leads. Engines pick code per data type this way (llama.cpp's
// flash attention switches on its K and V types, a specialization constant, to set their block
// sizes), so a value merged from such branches is known once the untaken ones are left out.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_set>

#include "ir/function.h"
#include "ir/module.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

// The labels of `function`'s blocks reached from its entry block.
std::unordered_set<uint32_t> blocks_reached(const ir::Module& module, const ir::Function& function,
                                            std::span<const SpecializationValue> specialization);

}  // namespace vkpolyfill::lowering
