// Lowering with the library, as the test cases that run a lowered module without the layer do. When
// the conformance listener points the layer's dumps at a directory (VK_POLYFILL_EXTENSIONS_DUMP_DIR),
// the module goes there too, as the layer would dump it, so scripts/conformance.sh's coverage
// accounting sees what these cases exercise.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::test {

// lowering::lower(), plus "<n>.original.spv" (with `options`' specialization written in as the
// constants' defaults: the accounting reads defaults) and "<n>.lowered.spv" in the dump directory.
lowering::Result lower_and_dump(std::span<const uint32_t> words, const lowering::Target& target,
                                const lowering::Options& options = {});

// lower_and_dump() for a case that runs the result: a module that does not lower or that spirv-val
// (Vulkan 1.3) refuses fails the test (non-fatally) and comes back empty.
std::vector<uint32_t> lower_checked(std::span<const uint32_t> words, const lowering::Target& target,
                                    const lowering::Options& options = {});

}  // namespace vkpolyfill::test
