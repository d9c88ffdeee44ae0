// Test modules for forms glslang does not write (OpSpecConstantComposite and OpSelect of matrix
// type), assembled at run time from SPIR-V text. module_head() writes what such a module shares:
// capabilities for the component type, the workgroup size from constant 0, a rows x cols matrix
// type %matrix of %component with use from constants 1-3, and `buffers` storage buffers %buffer0..
// of the component type (bindings 0..); the caller appends its globals and %main.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coopmat_scalars.h"

namespace vkpolyfill::test::coopmat {

// Also declares %void %fn %uint %bool %element (a buffer element pointer), %uint_0, %uint_1 and
// %subgroup. `interface` names further variables of the entry point; `decorations` are the
// caller's (they must precede the types).
std::string module_head(Component type, uint32_t buffers, const std::string& interface, const std::string& decorations);

// Throws with the assembler's message.
std::vector<uint32_t> assemble(const std::string& text);

}  // namespace vkpolyfill::test::coopmat
