// Descriptor commands on devices emulating tensors: tensor bindings, pool sizes, writes, copies,
// templates and push descriptors become the storage-buffer descriptors of lowering/arm_tensors.h.
// Calls without tensors pass straight down after a scan of their types (push descriptors at the
// compute bind point, by writes or templates, are also kept, for tensor copies to restore).
#include <optional>

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tensors/tensor_descriptor_writes.h"

namespace vkpolyfill::hooks {
namespace {

using ViewMap = HandleMap<VkTensorViewARM, TensorView>;

// The template data blob of the calling thread, reused so updates do not allocate.
std::vector<std::byte>& thread_blob() {
    thread_local std::vector<std::byte> blob;
    return blob;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         const VkAllocationCallbacks* pAllocator, VkDescriptorSetLayout* pSetLayout) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.CreateDescriptorSetLayout(device, pCreateInfo, pAllocator, pSetLayout);
    if (std::string problem = mutable_tensor_problem(*pCreateInfo); !problem.empty()) {
        data.tensors->report("vkCreateDescriptorSetLayout: " + problem);
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    try {
        const TranslatedSetLayout translated = translate_set_layout(*pCreateInfo);
        if (!translated.info) return data.next.CreateDescriptorSetLayout(device, pCreateInfo, pAllocator, pSetLayout);
        const VkResult result = data.next.CreateDescriptorSetLayout(device, translated.info->ptr(), pAllocator, pSetLayout);
        if (result == VK_SUCCESS) data.tensors->descriptors.record_layout(*pSetLayout, translated.tensors);
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout descriptorSetLayout,
                                                      const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.DestroyDescriptorSetLayout(device, descriptorSetLayout, pAllocator);
    if (descriptorSetLayout != VK_NULL_HANDLE) data.tensors->descriptors.forget_layout(descriptorSetLayout);
    data.next.DestroyDescriptorSetLayout(device, descriptorSetLayout, pAllocator);
}

namespace {

void layout_support(VkDevice device, const VkDescriptorSetLayoutCreateInfo* info, VkDescriptorSetLayoutSupport* support,
                    PFN_vkGetDescriptorSetLayoutSupport down) {
    const TranslatedSetLayout translated = translate_set_layout(*info);
    if (!translated.info) return down(device, info, support);
    down(device, translated.info->ptr(), support);
    auto* variable = vku::FindStructInPNextChain<VkDescriptorSetVariableDescriptorCountLayoutSupport>(support->pNext);
    if (variable && translated.tensors->variable_count_tensor) variable->maxVariableDescriptorCount /= 2;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSupport(VkDevice device, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         VkDescriptorSetLayoutSupport* pSupport) {
    layout_support(device, pCreateInfo, pSupport, device_data(device).next.GetDescriptorSetLayoutSupport);
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSupportKHR(VkDevice device, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                            VkDescriptorSetLayoutSupport* pSupport) {
    layout_support(device, pCreateInfo, pSupport, device_data(device).next.GetDescriptorSetLayoutSupportKHR);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkDescriptorPool* pDescriptorPool) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.CreateDescriptorPool(device, pCreateInfo, pAllocator, pDescriptorPool);
    try {
        const auto translated = translate_pool(*pCreateInfo);
        return data.next.CreateDescriptorPool(device, translated ? translated->ptr() : pCreateInfo, pAllocator, pDescriptorPool);
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool, const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.DestroyDescriptorPool(device, descriptorPool, pAllocator);
    if (descriptorPool != VK_NULL_HANDLE) data.tensors->descriptors.forget_pool(descriptorPool);
    data.next.DestroyDescriptorPool(device, descriptorPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool, VkDescriptorPoolResetFlags flags) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.ResetDescriptorPool(device, descriptorPool, flags);
    data.tensors->descriptors.forget_pool(descriptorPool);
    return data.next.ResetDescriptorPool(device, descriptorPool, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice device, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                      VkDescriptorSet* pDescriptorSets) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.AllocateDescriptorSets(device, pAllocateInfo, pDescriptorSets);
    TensorDescriptorSets& sets = data.tensors->descriptors;
    const std::span<const VkDescriptorSetLayout> layouts(pAllocateInfo->pSetLayouts, pAllocateInfo->descriptorSetCount);
    try {
        // Variable counts of tensor bindings count storage buffers, twice as many.
        std::optional<vku::safe_VkDescriptorSetAllocateInfo> copy;
        if (const auto* variable = vku::FindStructInPNextChain<VkDescriptorSetVariableDescriptorCountAllocateInfo>(pAllocateInfo->pNext)) {
            std::vector<uint32_t> counts(variable->pDescriptorCounts, variable->pDescriptorCounts + variable->descriptorSetCount);
            bool doubled = false;
            for (uint32_t i = 0; i < counts.size() && i < layouts.size(); ++i) {
                const std::shared_ptr<const TensorSetLayout> tensors = sets.layout(layouts[i]);
                if (!tensors || !tensors->variable_count_tensor) continue;
                counts[i] *= 2;
                doubled = true;
            }
            if (doubled) {
                VkDescriptorSetVariableDescriptorCountAllocateInfo translated = *variable;
                translated.pDescriptorCounts = counts.data();
                copy.emplace(pAllocateInfo);
                vku::RemoveFromPnext(*copy, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
                vku::AddToPnext(*copy, translated);  // a deep copy
            }
        }
        const VkResult result = data.next.AllocateDescriptorSets(device, copy ? copy->ptr() : pAllocateInfo, pDescriptorSets);
        if (result == VK_SUCCESS) sets.record_sets(pAllocateInfo->descriptorPool, layouts, {pDescriptorSets, layouts.size()});
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice device, VkDescriptorPool descriptorPool, uint32_t descriptorSetCount,
                                                  const VkDescriptorSet* pDescriptorSets) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.FreeDescriptorSets(device, descriptorPool, descriptorSetCount, pDescriptorSets);
    data.tensors->descriptors.forget_sets({pDescriptorSets, descriptorSetCount});
    return data.next.FreeDescriptorSets(device, descriptorPool, descriptorSetCount, pDescriptorSets);
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t descriptorWriteCount, const VkWriteDescriptorSet* pDescriptorWrites,
                                                uint32_t descriptorCopyCount, const VkCopyDescriptorSet* pDescriptorCopies) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.UpdateDescriptorSets(device, descriptorWriteCount, pDescriptorWrites, descriptorCopyCount, pDescriptorCopies);
    const std::span<const VkWriteDescriptorSet> writes(pDescriptorWrites, descriptorWriteCount);
    if (descriptorCopyCount == 0 && !has_tensor_writes(writes)) {
        return data.next.UpdateDescriptorSets(device, descriptorWriteCount, pDescriptorWrites, 0, nullptr);
    }
    try {
        TranslatedUpdates updates;
        std::string error;
        if (!updates.translate_writes(writes, data.tensors->views, error)) {
            data.tensors->report("vkUpdateDescriptorSets: " + error + "; nothing was written");
            return;
        }
        updates.translate_copies({pDescriptorCopies, descriptorCopyCount}, data.tensors->descriptors);
        data.next.UpdateDescriptorSets(device, descriptorWriteCount, updates.writes.data(), descriptorCopyCount, updates.copies.data());
    } catch (...) {
        data.tensors->report("vkUpdateDescriptorSets: out of host memory; nothing was written");
    }
}

namespace {

VkResult create_template(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* info, const VkAllocationCallbacks* allocator,
                         VkDescriptorUpdateTemplate* handle, PFN_vkCreateDescriptorUpdateTemplate down) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return down(device, info, allocator, handle);
    try {
        const std::unique_ptr<TranslatedTemplate> translated = translate_template(*info);
        const VkResult result = down(device, translated ? &translated->info : info, allocator, handle);
        if (result != VK_SUCCESS) return result;
        if (translated) data.tensors->descriptors.record_template(*handle, translated->tensors);
        if (info->templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS &&
            info->pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
            data.tensors->descriptors.record_compute_push_template(
                *handle, translated ? translated->tensors->blob_size : template_data_extent(*info));
        }
        return result;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

void destroy_template(VkDevice device, VkDescriptorUpdateTemplate handle, const VkAllocationCallbacks* allocator,
                      PFN_vkDestroyDescriptorUpdateTemplate down) {
    const DeviceData& data = device_data(device);
    if (data.tensors && handle != VK_NULL_HANDLE) {
        data.tensors->descriptors.forget_template(handle);
        data.tensors->descriptors.forget_compute_push_template(handle);
    }
    down(device, handle, allocator);
}

// The data the driver's template reads: the application's own, or the blob with its tensor entries.
const void* template_data(const DeviceData& data, VkDescriptorUpdateTemplate handle, const void* app_data, const char* command) {
    if (!data.tensors) return app_data;
    const std::shared_ptr<const TensorTemplate> tensors = data.tensors->descriptors.update_template(handle);
    if (!tensors) return app_data;
    std::string error;
    try {
        if (fill_template_blob(*tensors, app_data, data.tensors->views, thread_blob(), error)) return thread_blob().data();
    } catch (...) {
        error = "out of host memory";
    }
    data.tensors->report(std::string(command) + ": " + error + "; nothing was written");
    return nullptr;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkDescriptorUpdateTemplate* pDescriptorUpdateTemplate) {
    return create_template(device, pCreateInfo, pAllocator, pDescriptorUpdateTemplate, device_data(device).next.CreateDescriptorUpdateTemplate);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplateKHR(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                                 const VkAllocationCallbacks* pAllocator,
                                                                 VkDescriptorUpdateTemplate* pDescriptorUpdateTemplate) {
    return create_template(device, pCreateInfo, pAllocator, pDescriptorUpdateTemplate,
                           device_data(device).next.CreateDescriptorUpdateTemplateKHR);
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const VkAllocationCallbacks* pAllocator) {
    destroy_template(device, descriptorUpdateTemplate, pAllocator, device_data(device).next.DestroyDescriptorUpdateTemplate);
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplateKHR(VkDevice device, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                              const VkAllocationCallbacks* pAllocator) {
    destroy_template(device, descriptorUpdateTemplate, pAllocator, device_data(device).next.DestroyDescriptorUpdateTemplateKHR);
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet descriptorSet,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate, const void* pData) {
    const DeviceData& data = device_data(device);
    if (const void* blob = template_data(data, descriptorUpdateTemplate, pData, "vkUpdateDescriptorSetWithTemplate")) {
        data.next.UpdateDescriptorSetWithTemplate(device, descriptorSet, descriptorUpdateTemplate, blob);
    }
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplateKHR(VkDevice device, VkDescriptorSet descriptorSet,
                                                              VkDescriptorUpdateTemplate descriptorUpdateTemplate, const void* pData) {
    const DeviceData& data = device_data(device);
    if (const void* blob = template_data(data, descriptorUpdateTemplate, pData, "vkUpdateDescriptorSetWithTemplateKHR")) {
        data.next.UpdateDescriptorSetWithTemplateKHR(device, descriptorSet, descriptorUpdateTemplate, blob);
    }
}

namespace {

// Pushes at the compute bind point are kept for the state a compute tensor copy restores.
void push_descriptor_set(VkCommandBuffer command_buffer, VkPipelineBindPoint bind_point, VkPipelineLayout layout, uint32_t set,
                         uint32_t count, const VkWriteDescriptorSet* writes, PFN_vkCmdPushDescriptorSet down) {
    const DeviceData& data = device_data(command_buffer);
    if (!data.tensors) return down(command_buffer, bind_point, layout, set, count, writes);
    try {
        TranslatedUpdates updates;
        std::string error;
        if (!updates.translate_writes({writes, count}, data.tensors->views, error)) {
            data.tensors->report("vkCmdPushDescriptorSet: " + error + "; nothing was pushed");
            return;
        }
        if (bind_point == VK_PIPELINE_BIND_POINT_COMPUTE) data.tensors->command_buffers.at(command_buffer).push_set(layout, set, updates.writes);
        down(command_buffer, bind_point, layout, set, count, updates.writes.data());
    } catch (...) {
        data.tensors->report("vkCmdPushDescriptorSet: out of host memory; nothing was pushed");
    }
}

// A push through a compute template is kept, with the data the driver reads, for tensor copies to
// restore (a layout given only by a chained VkPipelineLayoutCreateInfo cannot be replayed and is not).
void keep_template_push(const DeviceData& data, VkCommandBuffer command_buffer, VkDescriptorUpdateTemplate update_template,
                        VkPipelineLayout layout, uint32_t set, const void* driver_data) {
    if (!data.tensors || layout == VK_NULL_HANDLE) return;
    const size_t size = data.tensors->descriptors.compute_push_template_size(update_template);
    if (size == 0) return;
    try {
        data.tensors->command_buffers.at(command_buffer)
            .push_template(update_template, layout, set, {static_cast<const std::byte*>(driver_data), size});
    } catch (...) {
        data.tensors->report("vkCmdPushDescriptorSetWithTemplate: out of host memory; a later tensor copy will not restore this push");
    }
}

void push_with_template(VkCommandBuffer command_buffer, VkDescriptorUpdateTemplate update_template, VkPipelineLayout layout, uint32_t set,
                        const void* app_data, PFN_vkCmdPushDescriptorSetWithTemplate down) {
    const DeviceData& data = device_data(command_buffer);
    if (const void* blob = template_data(data, update_template, app_data, "vkCmdPushDescriptorSetWithTemplate")) {
        keep_template_push(data, command_buffer, update_template, layout, set, blob);
        down(command_buffer, update_template, layout, set, blob);
    }
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSet(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
                                                uint32_t set, uint32_t descriptorWriteCount, const VkWriteDescriptorSet* pDescriptorWrites) {
    push_descriptor_set(commandBuffer, pipelineBindPoint, layout, set, descriptorWriteCount, pDescriptorWrites,
                        device_data(commandBuffer).next.CmdPushDescriptorSet);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                   VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                                                   const VkWriteDescriptorSet* pDescriptorWrites) {
    push_descriptor_set(commandBuffer, pipelineBindPoint, layout, set, descriptorWriteCount, pDescriptorWrites,
                        device_data(commandBuffer).next.CmdPushDescriptorSetKHR);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplate(VkCommandBuffer commandBuffer, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                            VkPipelineLayout layout, uint32_t set, const void* pData) {
    push_with_template(commandBuffer, descriptorUpdateTemplate, layout, set, pData,
                       device_data(commandBuffer).next.CmdPushDescriptorSetWithTemplate);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                               VkDescriptorUpdateTemplate descriptorUpdateTemplate, VkPipelineLayout layout,
                                                               uint32_t set, const void* pData) {
    push_with_template(commandBuffer, descriptorUpdateTemplate, layout, set, pData,
                       device_data(commandBuffer).next.CmdPushDescriptorSetWithTemplateKHR);
}

namespace {

void push_descriptor_set2(VkCommandBuffer command_buffer, const VkPushDescriptorSetInfo* info, PFN_vkCmdPushDescriptorSet2 down) {
    const DeviceData& data = device_data(command_buffer);
    if (!data.tensors) return down(command_buffer, info);
    try {
        TranslatedUpdates updates;
        std::string error;
        if (!updates.translate_writes({info->pDescriptorWrites, info->descriptorWriteCount}, data.tensors->views, error)) {
            data.tensors->report("vkCmdPushDescriptorSet2: " + error + "; nothing was pushed");
            return;
        }
        if ((info->stageFlags & VK_SHADER_STAGE_COMPUTE_BIT) && info->layout != VK_NULL_HANDLE) {
            data.tensors->command_buffers.at(command_buffer).push_set(info->layout, info->set, updates.writes);
        }
        VkPushDescriptorSetInfo translated = *info;
        translated.pDescriptorWrites = updates.writes.data();
        down(command_buffer, &translated);
    } catch (...) {
        data.tensors->report("vkCmdPushDescriptorSet2: out of host memory; nothing was pushed");
    }
}

void push_with_template2(VkCommandBuffer command_buffer, const VkPushDescriptorSetWithTemplateInfo* info,
                         PFN_vkCmdPushDescriptorSetWithTemplate2 down) {
    const DeviceData& data = device_data(command_buffer);
    if (const void* blob = template_data(data, info->descriptorUpdateTemplate, info->pData, "vkCmdPushDescriptorSetWithTemplate2")) {
        keep_template_push(data, command_buffer, info->descriptorUpdateTemplate, info->layout, info->set, blob);
        VkPushDescriptorSetWithTemplateInfo translated = *info;
        translated.pData = blob;
        down(command_buffer, &translated);
    }
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSet2(VkCommandBuffer commandBuffer, const VkPushDescriptorSetInfo* pPushDescriptorSetInfo) {
    push_descriptor_set2(commandBuffer, pPushDescriptorSetInfo, device_data(commandBuffer).next.CmdPushDescriptorSet2);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSet2KHR(VkCommandBuffer commandBuffer, const VkPushDescriptorSetInfo* pPushDescriptorSetInfo) {
    push_descriptor_set2(commandBuffer, pPushDescriptorSetInfo, device_data(commandBuffer).next.CmdPushDescriptorSet2KHR);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplate2(VkCommandBuffer commandBuffer,
                                                             const VkPushDescriptorSetWithTemplateInfo* pPushDescriptorSetWithTemplateInfo) {
    push_with_template2(commandBuffer, pPushDescriptorSetWithTemplateInfo, device_data(commandBuffer).next.CmdPushDescriptorSetWithTemplate2);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplate2KHR(VkCommandBuffer commandBuffer,
                                                                const VkPushDescriptorSetWithTemplateInfo* pPushDescriptorSetWithTemplateInfo) {
    push_with_template2(commandBuffer, pPushDescriptorSetWithTemplateInfo,
                        device_data(commandBuffer).next.CmdPushDescriptorSetWithTemplate2KHR);
}

}  // namespace vkpolyfill::hooks
