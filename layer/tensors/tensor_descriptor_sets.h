// The descriptor side of emulated tensors (the contract in lowering/arm_tensors.h): a tensor binding
// of N elements is a storage-buffer binding of 2N, element i its data at 2i and its view's shape
// record at 2i + 1. This keeps what writes and copies need to know of set layouts, sets and update
// templates; the translations themselves are in tensor_descriptor_writes.h.
#pragma once

#include <memory>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

// The tensor bindings of a set layout that has any.
struct TensorSetLayout {
    std::vector<uint32_t> tensor_bindings;  // sorted
    bool variable_count_tensor = false;     // its variable-count binding is a tensor binding

    bool is_tensor(uint32_t binding) const;
};

// A template with tensor entries: the driver's template reads the application's data copied into a
// blob, whose tail holds the buffer infos the tensor entries became.
struct TensorTemplate {
    struct TensorEntry {
        uint32_t count;
        size_t offset;  // of the application's first VkTensorViewARM
        size_t stride;
        size_t blob_offset;  // of the first of 2 * count VkDescriptorBufferInfo
    };
    size_t application_extent = 0;  // bytes of the application's data the other entries read
    std::vector<TensorEntry> tensor_entries;
    size_t blob_size = 0;
};

class TensorDescriptorSets {
  public:
    void record_layout(VkDescriptorSetLayout layout, std::shared_ptr<const TensorSetLayout> tensors) { layouts_.insert_or_assign(layout, std::move(tensors)); }
    void forget_layout(VkDescriptorSetLayout layout) { layouts_.erase(layout); }
    std::shared_ptr<const TensorSetLayout> layout(VkDescriptorSetLayout layout) const { return layouts_.find(layout)->second; }

    // Sets of layouts with tensor bindings, for descriptor copies. A handle a pool gives again for
    // another layout replaces what was known of it.
    void record_sets(VkDescriptorPool pool, std::span<const VkDescriptorSetLayout> layouts, std::span<const VkDescriptorSet> sets);
    void forget_sets(std::span<const VkDescriptorSet> sets);
    void forget_pool(VkDescriptorPool pool);
    std::shared_ptr<const TensorSetLayout> set(VkDescriptorSet set) const;

    void record_template(VkDescriptorUpdateTemplate handle, std::shared_ptr<const TensorTemplate> tensors) { templates_.insert_or_assign(handle, std::move(tensors)); }
    void forget_template(VkDescriptorUpdateTemplate handle) { templates_.erase(handle); }
    // Null for a template without tensor entries.
    std::shared_ptr<const TensorTemplate> update_template(VkDescriptorUpdateTemplate handle) const { return templates_.find(handle)->second; }

    // Push-descriptor templates at the compute bind point, which tensor copies restore: the bytes of
    // data the driver's template reads.
    void record_compute_push_template(VkDescriptorUpdateTemplate handle, size_t data_size) { push_templates_.insert_or_assign(handle, data_size); }
    void forget_compute_push_template(VkDescriptorUpdateTemplate handle) { push_templates_.erase(handle); }
    // 0 for any other template.
    size_t compute_push_template_size(VkDescriptorUpdateTemplate handle) const { return push_templates_.find(handle)->second; }

  private:
    struct SetEntry {
        VkDescriptorPool pool;
        std::shared_ptr<const TensorSetLayout> layout;
    };
    vku::concurrent::unordered_map<VkDescriptorSetLayout, std::shared_ptr<const TensorSetLayout>, 2> layouts_;
    vku::concurrent::unordered_map<VkDescriptorUpdateTemplate, std::shared_ptr<const TensorTemplate>, 2> templates_;
    vku::concurrent::unordered_map<VkDescriptorUpdateTemplate, size_t, 2> push_templates_;
    // Copies read it under a shared lock; allocations and frees take it alone.
    mutable std::shared_mutex sets_mutex_;
    std::unordered_map<VkDescriptorSet, SetEntry> sets_;
};

}  // namespace vkpolyfill
