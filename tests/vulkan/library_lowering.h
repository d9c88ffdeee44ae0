// Lowering with the library, as the test cases that run a lowered module without the layer do. When
// the conformance listener points the layer's dumps at a directory (VK_POLYFILL_EXTENSIONS_DUMP_DIR),
// the module goes there too, as the layer would dump it, so scripts/conformance.sh's coverage
// accounting sees what these cases exercise.
#pragma once

#include <cstdint>
#include <span>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::test {

// lowering::lower(), plus "<n>.original.spv" (with `options`' specialization written in as the
// constants' defaults: the accounting reads defaults) and "<n>.lowered.spv" in the dump directory.
lowering::Result lower_and_dump(std::span<const uint32_t> words, const lowering::Target& target,
                                const lowering::Options& options = {});

}  // namespace vkpolyfill::test
