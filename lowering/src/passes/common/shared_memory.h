// How much shared memory a module's Workgroup variables take, as the passes that add or widen them
// must check against the device's maxComputeSharedMemorySize.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "ir/module.h"

namespace vkpolyfill::lowering {

// Bytes a variable of a type takes in Workgroup memory (no explicit layout: tightly packed, which is
// what drivers allocate in practice); 0 for what cannot be sized here. Types share their parts (a
// struct of two of the struct below, 40 deep, has 2^40 paths), so each is sized once; a type nesting
// past ir::kMostNesting levels cannot be sized; sums saturate far past any device.
class WorkgroupBytes {
  public:
    explicit WorkgroupBytes(const ir::Module& module) : module_(module) {}

    uint64_t of(uint32_t type, uint32_t depth = 0);

  private:
    uint64_t size(uint32_t type, uint32_t depth);

    const ir::Module& module_;
    std::unordered_map<uint32_t, uint64_t> known_;
};

// The bytes of every Workgroup variable the module declares.
uint64_t module_shared_memory(const ir::Module& module);

}  // namespace vkpolyfill::lowering
