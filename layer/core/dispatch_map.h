// Loader-dispatchable handles (instance, physical device; device, queue, command buffer) start with
// the loader's dispatch-table pointer; objects that share it share the layer's per-object record.
#pragma once

#include <memory>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>

namespace vkpolyfill {

using DispatchKey = void*;

template <typename DispatchableHandle>
DispatchKey dispatch_key(DispatchableHandle handle) {
    return *reinterpret_cast<DispatchKey*>(handle);
}

// Records by dispatch key, sharded so concurrent calls on different objects do not contend.
template <typename Record>
class DispatchMap {
  public:
    void insert(DispatchKey key, std::shared_ptr<Record> record) { map_.insert_or_assign(key, std::move(record)); }
    std::shared_ptr<Record> pop(DispatchKey key) { return map_.pop(key)->second; }
    // The record lives until its vkDestroy* call, after every other call on its handles, so a
    // reference is safe where a shared_ptr copy would cost an atomic on every call.
    Record& at(DispatchKey key) const {
        Record* record = map_.find(key)->second.get();
        if (record == nullptr) __builtin_unreachable();  // every call on a handle comes after its creation
        return *record;
    }

  private:
    vku::concurrent::unordered_map<DispatchKey, std::shared_ptr<Record>, 4> map_;
};

}  // namespace vkpolyfill
