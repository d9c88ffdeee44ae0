#include "tensors/tensor_descriptor_sets.h"

#include <algorithm>
#include <mutex>

namespace vkpolyfill {

bool TensorSetLayout::is_tensor(uint32_t binding) const { return std::ranges::binary_search(tensor_bindings, binding); }

void TensorDescriptorSets::record_sets(VkDescriptorPool pool, std::span<const VkDescriptorSetLayout> layouts,
                                       std::span<const VkDescriptorSet> sets) {
    std::vector<std::shared_ptr<const TensorSetLayout>> tensors(layouts.size());
    for (size_t i = 0; i < layouts.size(); ++i) tensors[i] = layout(layouts[i]);
    std::unique_lock lock(sets_mutex_);
    for (size_t i = 0; i < sets.size(); ++i) {
        if (tensors[i]) {
            sets_.insert_or_assign(sets[i], SetEntry{pool, tensors[i]});
        } else {
            sets_.erase(sets[i]);
        }
    }
}

void TensorDescriptorSets::forget_sets(std::span<const VkDescriptorSet> sets) {
    std::unique_lock lock(sets_mutex_);
    for (VkDescriptorSet set : sets) sets_.erase(set);
}

void TensorDescriptorSets::forget_pool(VkDescriptorPool pool) {
    std::unique_lock lock(sets_mutex_);
    std::erase_if(sets_, [pool](const auto& entry) { return entry.second.pool == pool; });
}

std::shared_ptr<const TensorSetLayout> TensorDescriptorSets::set(VkDescriptorSet set) const {
    std::shared_lock lock(sets_mutex_);
    const auto found = sets_.find(set);
    return found == sets_.end() ? nullptr : found->second.layout;
}

}  // namespace vkpolyfill
