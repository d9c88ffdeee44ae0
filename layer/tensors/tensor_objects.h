// The layer's VkTensorARM and VkTensorViewARM: records the layer owns, whose addresses are the
// handles the application sees (unique while they live). Looked up in sharded maps, so a bad
// handle is reported rather than followed.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>

#include "tensors/tensor_description.h"
#include "tensors/tensor_shape_store.h"

namespace vkpolyfill {

struct Tensor {
    VkBuffer buffer = VK_NULL_HANDLE;
    TensorLayout layout;
    VkTensorUsageFlagsARM usage = 0;
    VkTensorCreateFlagsARM flags = 0;
    std::atomic<bool> bound = false;
    // The compute copies' descriptor set of the buffer, written at the bind.
    VkDescriptorSet copy_set = VK_NULL_HANDLE;
    // The buffer's, read at the bind, where tensor descriptors may be in descriptor buffers.
    VkDeviceAddress address = 0;
};

struct TensorView {
    std::shared_ptr<const Tensor> tensor;
    VkFormat format = VK_FORMAT_UNDEFINED;
    ShapeSlot shape;
};

template <typename Handle, typename Record>
class HandleMap {
  public:
    Handle insert(std::shared_ptr<Record> record) {
        const Handle handle = reinterpret_cast<Handle>(record.get());
        map_.insert_or_assign(handle, std::move(record));
        return handle;
    }
    std::shared_ptr<Record> find(Handle handle) const {
        return map_.find(handle)->second;
    }
    std::shared_ptr<Record> pop(Handle handle) {
        return map_.pop(handle)->second;
    }

  private:
    vku::concurrent::unordered_map<Handle, std::shared_ptr<Record>, 4> map_;
};

// The name of a layer-owned tensor object in messages: its type and handle.
std::string describe_tensor(VkTensorARM tensor);
std::string describe_tensor_view(VkTensorViewARM view);

}  // namespace vkpolyfill
