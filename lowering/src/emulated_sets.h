// The capability sets lower() can emulate: what declares each in a module, and the pass lowering it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

class Pass;
using PassFactory = std::unique_ptr<Pass> (*)();

struct EmulatedSetInfo {
    Emulated set;
    std::string_view name;  // the SPIR-V extension messages call it by
    std::span<const uint32_t> capabilities;
    std::span<const std::string_view> extensions;
    PassFactory make_pass;  // nullptr until the set's pass exists
};

std::span<const EmulatedSetInfo> emulated_sets();

// The members of `sets` that a capability / an extension belongs to.
EmulatedSet sets_of_capability(std::span<const EmulatedSetInfo> sets, uint32_t capability);
EmulatedSet sets_of_extension(std::span<const EmulatedSetInfo> sets, std::string_view extension);

}  // namespace vkpolyfill::lowering
