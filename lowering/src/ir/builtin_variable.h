// The Input variable of a built-in (SubgroupLocalInvocationId, say): the module's own if it declares
// one, else a new one added to every entry point's interface (SPIR-V 1.4+ requires every global a
// function touches to be listed; listing it where unused is allowed).
#pragma once

#include <cstdint>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/type_manager.h"

namespace vkpolyfill::lowering::ir {

uint32_t get_builtin_input(Module& module, TypeManager& types, spv::BuiltIn builtin, uint32_t value_type);

// Lists a new global variable in every entry point's interface.
void add_to_entry_point_interfaces(Module& module, uint32_t variable);
// Takes `variables` out of every entry point's interface (the ids after its name, never the name's
// words or the function's id, which may equal one of them in a module nobody validated).
void remove_from_entry_point_interfaces(Module& module, const std::unordered_set<uint32_t>& variables);

}  // namespace vkpolyfill::lowering::ir
