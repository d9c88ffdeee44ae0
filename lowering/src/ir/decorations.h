// Looking up and adding decorations (OpDecorate / OpMemberDecorate with a literal parameter), for
// passes that need a type's explicit layout, a variable's location or binding, or a constant's SpecId.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// The first literal of `decoration` on `target` (0 for a decoration without one), nullopt when it
// is not decorated so.
std::optional<uint32_t> find_decoration(const Module& module, uint32_t target, uint32_t decoration);
std::optional<uint32_t> find_member_decoration(const Module& module, uint32_t structure, uint32_t member,
                                               uint32_t decoration);

// OpDecorate `target` `decoration` `literals`...
void decorate(Module& module, uint32_t target, uint32_t decoration, std::span<const uint32_t> literals = {});
void decorate_member(Module& module, uint32_t structure, uint32_t member, uint32_t decoration,
                     std::span<const uint32_t> literals = {});

}  // namespace vkpolyfill::lowering::ir
