// SPIR-V words -> Module, checking what the lowering relies on: the header; every instruction's size
// and operands against the grammar; ids inside the bound and defined once; the logical layout; and
// definitions before uses wherever SPIR-V requires them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "diagnostics.h"
#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// SPIR-V's universal limit on the id bound (spec 2.17); spirv-val enforces the same.
inline constexpr uint32_t kMaxIdBound = 0x3FFFFF;

// Stops at the first problem: returns nullptr and reports one error.
std::unique_ptr<Module> parse(std::span<const uint32_t> words, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::ir
