#include "tensors/tensor_descriptor_writes.h"

#include <algorithm>
#include <cstring>
#include <format>
#include <map>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

constexpr VkDeviceSize kShapeRecordBytes = sizeof(lowering::TensorShapeRecord);

// Bytes of one element of a template entry's data (inline uniform blocks: the entry's byte count).
size_t template_element_size(const VkDescriptorUpdateTemplateEntry& entry) {
    switch (entry.descriptorType) {
        case VK_DESCRIPTOR_TYPE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: return sizeof(VkDescriptorImageInfo);
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return sizeof(VkBufferView);
        case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: return entry.descriptorCount;
        case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
        case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV: return sizeof(VkAccelerationStructureKHR);
        case VK_DESCRIPTOR_TYPE_TENSOR_ARM: return sizeof(VkTensorViewARM);
        default: return sizeof(VkDescriptorBufferInfo);
    }
}

size_t template_entry_extent(const VkDescriptorUpdateTemplateEntry& entry) {
    if (entry.descriptorCount == 0) return 0;
    if (entry.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) return entry.offset + entry.descriptorCount;
    return entry.offset + (entry.descriptorCount - 1) * entry.stride + template_element_size(entry);
}

}  // namespace

void write_tensor_buffer_infos(const TensorView* view, VkDescriptorBufferInfo* out) {
    if (view == nullptr) {  // a null descriptor (nullDescriptor): both halves null
        out[0] = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
        out[1] = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
        return;
    }
    out[0] = {view->tensor->buffer, 0, VK_WHOLE_SIZE};
    out[1] = {view->shape.buffer, view->shape.offset, kShapeRecordBytes};
}

TranslatedSetLayout translate_set_layout(const VkDescriptorSetLayoutCreateInfo& info) {
    TranslatedSetLayout translated;
    auto tensors = std::make_shared<TensorSetLayout>();
    const auto* flags = vku::FindStructInPNextChain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(info.pNext);
    for (uint32_t i = 0; i < info.bindingCount; ++i) {
        const VkDescriptorSetLayoutBinding& binding = info.pBindings[i];
        if (binding.descriptorType != VK_DESCRIPTOR_TYPE_TENSOR_ARM) continue;
        tensors->tensor_bindings.push_back(binding.binding);
        if (flags && i < flags->bindingCount && (flags->pBindingFlags[i] & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)) {
            tensors->variable_count_tensor = true;
        }
    }
    if (tensors->tensor_bindings.empty()) return translated;
    std::ranges::sort(tensors->tensor_bindings);
    translated.info = std::make_unique<vku::safe_VkDescriptorSetLayoutCreateInfo>(&info);
    for (uint32_t i = 0; i < translated.info->bindingCount; ++i) {
        auto& binding = translated.info->pBindings[i];
        if (binding.descriptorType != VK_DESCRIPTOR_TYPE_TENSOR_ARM) continue;
        binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        binding.descriptorCount *= 2;
    }
    translated.tensors = std::move(tensors);
    return translated;
}

std::string mutable_tensor_problem(const VkDescriptorSetLayoutCreateInfo& info) {
    const auto* lists = vku::FindStructInPNextChain<VkMutableDescriptorTypeCreateInfoEXT>(info.pNext);
    if (lists == nullptr) return {};
    for (uint32_t b = 0; b < lists->mutableDescriptorTypeListCount; ++b) {
        const VkMutableDescriptorTypeListEXT& list = lists->pMutableDescriptorTypeLists[b];
        for (uint32_t t = 0; t < list.descriptorTypeCount; ++t) {
            if (list.pDescriptorTypes[t] == VK_DESCRIPTOR_TYPE_TENSOR_ARM) {
                return std::format("pMutableDescriptorTypeLists[{}] lists VK_DESCRIPTOR_TYPE_TENSOR_ARM: mutable descriptors that may "
                                   "hold a tensor are not emulated", b);
            }
        }
    }
    return {};
}

std::unique_ptr<vku::safe_VkDescriptorPoolCreateInfo> translate_pool(const VkDescriptorPoolCreateInfo& info) {
    const std::span<const VkDescriptorPoolSize> sizes(info.pPoolSizes, info.poolSizeCount);
    if (std::ranges::none_of(sizes, [](const VkDescriptorPoolSize& s) { return s.type == VK_DESCRIPTOR_TYPE_TENSOR_ARM; })) {
        return nullptr;
    }
    auto copy = std::make_unique<vku::safe_VkDescriptorPoolCreateInfo>(&info);
    for (uint32_t i = 0; i < copy->poolSizeCount; ++i) {
        auto& size = const_cast<VkDescriptorPoolSize&>(copy->pPoolSizes[i]);
        if (size.type != VK_DESCRIPTOR_TYPE_TENSOR_ARM) continue;
        size.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        size.descriptorCount *= 2;
    }
    return copy;
}

bool has_tensor_writes(std::span<const VkWriteDescriptorSet> writes) {
    return std::ranges::any_of(writes, [](const VkWriteDescriptorSet& w) { return w.descriptorType == VK_DESCRIPTOR_TYPE_TENSOR_ARM; });
}

bool TranslatedUpdates::translate_writes(std::span<const VkWriteDescriptorSet> in, const HandleMap<VkTensorViewARM, TensorView>& views,
                                         std::string& error) {
    writes.assign(in.begin(), in.end());
    for (size_t w = 0; w < in.size(); ++w) {
        if (in[w].descriptorType != VK_DESCRIPTOR_TYPE_TENSOR_ARM) continue;
        const auto* tensor = vku::FindStructInPNextChain<VkWriteDescriptorSetTensorARM>(in[w].pNext);
        if (tensor == nullptr || tensor->tensorViewCount != in[w].descriptorCount) {
            error = std::format("pDescriptorWrites[{}] writes tensors without a VkWriteDescriptorSetTensorARM of descriptorCount ({}) views",
                                w, in[w].descriptorCount);
            return false;
        }
        std::vector<VkDescriptorBufferInfo>& infos = buffer_infos_.emplace_back(2 * size_t{in[w].descriptorCount});
        for (uint32_t i = 0; i < in[w].descriptorCount; ++i) {
            const VkTensorViewARM handle = tensor->pTensorViews[i];
            const std::shared_ptr<TensorView> view = handle == VK_NULL_HANDLE ? nullptr : views.find(handle);
            if (handle != VK_NULL_HANDLE && view == nullptr) {
                error = std::format("pDescriptorWrites[{}] pTensorViews[{}] ({}) is not a tensor view of this device", w, i,
                                    describe_tensor_view(handle));
                return false;
            }
            write_tensor_buffer_infos(view.get(), &infos[2 * i]);
        }
        VkWriteDescriptorSet& out = writes[w];
        out.pNext = nullptr;
        out.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        out.dstArrayElement *= 2;
        out.descriptorCount *= 2;
        out.pBufferInfo = infos.data();
    }
    return true;
}

void TranslatedUpdates::translate_copies(std::span<const VkCopyDescriptorSet> in, const TensorDescriptorSets& sets) {
    copies.assign(in.begin(), in.end());
    for (VkCopyDescriptorSet& copy : copies) {
        const std::shared_ptr<const TensorSetLayout> source = sets.set(copy.srcSet);
        if (source == nullptr || !source->is_tensor(copy.srcBinding)) continue;
        copy.srcArrayElement *= 2;
        copy.dstArrayElement *= 2;
        copy.descriptorCount *= 2;
    }
}

std::unique_ptr<TranslatedTemplate> translate_template(const VkDescriptorUpdateTemplateCreateInfo& info) {
    const std::span<const VkDescriptorUpdateTemplateEntry> in(info.pDescriptorUpdateEntries, info.descriptorUpdateEntryCount);
    if (std::ranges::none_of(in, [](const auto& e) { return e.descriptorType == VK_DESCRIPTOR_TYPE_TENSOR_ARM; })) return nullptr;
    auto translated = std::make_unique<TranslatedTemplate>();
    auto tensors = std::make_shared<TensorTemplate>();
    for (const VkDescriptorUpdateTemplateEntry& entry : in) {
        if (entry.descriptorType != VK_DESCRIPTOR_TYPE_TENSOR_ARM) {
            tensors->application_extent = std::max(tensors->application_extent, template_entry_extent(entry));
        }
    }
    // The buffer infos start after the application's data, aligned for VkDescriptorBufferInfo.
    size_t blob = (tensors->application_extent + alignof(VkDescriptorBufferInfo) - 1) & ~(alignof(VkDescriptorBufferInfo) - 1);
    for (VkDescriptorUpdateTemplateEntry entry : in) {
        if (entry.descriptorType == VK_DESCRIPTOR_TYPE_TENSOR_ARM) {
            tensors->tensor_entries.push_back({entry.descriptorCount, entry.offset, entry.stride, blob});
            entry.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            entry.dstArrayElement *= 2;
            entry.descriptorCount *= 2;
            entry.offset = blob;
            entry.stride = sizeof(VkDescriptorBufferInfo);
            blob += entry.descriptorCount * sizeof(VkDescriptorBufferInfo);
        }
        translated->entries.push_back(entry);
    }
    tensors->blob_size = blob;
    translated->info = info;
    translated->info.pDescriptorUpdateEntries = translated->entries.data();
    translated->tensors = std::move(tensors);
    return translated;
}

size_t template_data_extent(const VkDescriptorUpdateTemplateCreateInfo& info) {
    size_t extent = 0;
    for (uint32_t i = 0; i < info.descriptorUpdateEntryCount; ++i) {
        extent = std::max(extent, template_entry_extent(info.pDescriptorUpdateEntries[i]));
    }
    return extent;
}

bool fill_template_blob(const TensorTemplate& tensors, const void* data, const HandleMap<VkTensorViewARM, TensorView>& views,
                        std::vector<std::byte>& blob, std::string& error) {
    blob.resize(tensors.blob_size);
    const auto* bytes = static_cast<const std::byte*>(data);
    if (tensors.application_extent != 0) std::memcpy(blob.data(), bytes, tensors.application_extent);
    for (size_t e = 0; e < tensors.tensor_entries.size(); ++e) {
        const TensorTemplate::TensorEntry& entry = tensors.tensor_entries[e];
        auto* infos = reinterpret_cast<VkDescriptorBufferInfo*>(blob.data() + entry.blob_offset);
        for (uint32_t i = 0; i < entry.count; ++i) {
            VkTensorViewARM handle;
            std::memcpy(&handle, bytes + entry.offset + i * entry.stride, sizeof(handle));
            const std::shared_ptr<TensorView> view = handle == VK_NULL_HANDLE ? nullptr : views.find(handle);
            if (handle != VK_NULL_HANDLE && view == nullptr) {
                error = std::format("element {} of the template's tensor entry {} ({}) is not a tensor view of this device", i, e,
                                    describe_tensor_view(handle));
                return false;
            }
            write_tensor_buffer_infos(view.get(), &infos[2 * i]);
        }
    }
    return true;
}

}  // namespace vkpolyfill
