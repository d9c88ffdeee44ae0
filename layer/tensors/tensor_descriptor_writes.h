// Translating the application's tensor descriptors into the storage-buffer descriptors of the
// contract (lowering/arm_tensors.h): set layouts, pool sizes, writes, copies and template data. A
// translation owns everything the translated structs point to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vulkan/utility/vk_safe_struct.hpp>

#include "tensors/tensor_descriptor_sets.h"
#include "tensors/tensor_objects.h"

namespace vkpolyfill {

// Null when the layout has no tensor binding. Otherwise the layer's copy of `info` with each tensor
// binding a storage-buffer binding of twice the count, and what the layer must remember of it.
struct TranslatedSetLayout {
    std::unique_ptr<vku::safe_VkDescriptorSetLayoutCreateInfo> info;
    std::shared_ptr<const TensorSetLayout> tensors;
};
TranslatedSetLayout translate_set_layout(const VkDescriptorSetLayoutCreateInfo& info);

// A mutable descriptor (VK_EXT_mutable_descriptor_type) that may hold a tensor would have to be two
// descriptors only when it does: not emulated. Empty when `info` has none, else a sentence naming it.
std::string mutable_tensor_problem(const VkDescriptorSetLayoutCreateInfo& info);

// Null when the pool has no tensor sizes; else the copy with tensors counted as two storage buffers.
std::unique_ptr<vku::safe_VkDescriptorPoolCreateInfo> translate_pool(const VkDescriptorPoolCreateInfo& info);

// Writes and copies as the driver must see them.
class TranslatedUpdates {
  public:
    // False, with `error` naming the write and view, when a tensor write names no view of this device.
    bool translate_writes(std::span<const VkWriteDescriptorSet> writes, const HandleMap<VkTensorViewARM, TensorView>& views,
                          std::string& error);
    void translate_copies(std::span<const VkCopyDescriptorSet> copies, const TensorDescriptorSets& sets);

    std::vector<VkWriteDescriptorSet> writes;
    std::vector<VkCopyDescriptorSet> copies;

  private:
    std::vector<std::vector<VkDescriptorBufferInfo>> buffer_infos_;  // one vector per tensor write, never moved
};

// Whether any write or copy needs translating (the fast path passes the others straight down).
bool has_tensor_writes(std::span<const VkWriteDescriptorSet> writes);

// The two buffer infos of one tensor view (or of a null descriptor).
void write_tensor_buffer_infos(const TensorView* view, VkDescriptorBufferInfo* out);

// Null when the template has no tensor entry; else the driver's template info (which points into
// `entries`) and the record the updates use.
struct TranslatedTemplate {
    std::vector<VkDescriptorUpdateTemplateEntry> entries;
    VkDescriptorUpdateTemplateCreateInfo info{};
    std::shared_ptr<const TensorTemplate> tensors;
};
std::unique_ptr<TranslatedTemplate> translate_template(const VkDescriptorUpdateTemplateCreateInfo& info);

// Bytes of the application's data a template reads (its entries' extent).
size_t template_data_extent(const VkDescriptorUpdateTemplateCreateInfo& info);

// The blob the driver's template reads: the application's data, then the tensor entries' buffer
// infos. False, with `error`, when a tensor entry names no view of this device.
bool fill_template_blob(const TensorTemplate& tensors, const void* data, const HandleMap<VkTensorViewARM, TensorView>& views,
                        std::vector<std::byte>& blob, std::string& error);

}  // namespace vkpolyfill
