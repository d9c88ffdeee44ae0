#include "tensors/tensor_copy_pipelines.h"

#include <algorithm>
#include <bit>
#include <string>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/layer_shaders.h"

namespace vkpolyfill {
namespace {

constexpr uint32_t kSetsPerPool = 256;

}  // namespace

TensorCopyPipelines::~TensorCopyPipelines() {
    for (VkPipeline pipeline : pipelines_) {
        if (pipeline != VK_NULL_HANDLE) next_.DestroyPipeline(device_, pipeline, nullptr);
    }
    for (VkDescriptorPool pool : pools_) next_.DestroyDescriptorPool(device_, pool, nullptr);
    if (layout_ != VK_NULL_HANDLE) next_.DestroyPipelineLayout(device_, layout_, nullptr);
    if (set_layout_ != VK_NULL_HANDLE) next_.DestroyDescriptorSetLayout(device_, set_layout_, nullptr);
}

bool TensorCopyPipelines::make_layouts() {
    if (layout_ != VK_NULL_HANDLE) return true;
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    if (next_.CreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_) != VK_SUCCESS) return false;
    const VkDescriptorSetLayout sets[] = {set_layout_, set_layout_};  // source, destination
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(TensorCopyRegion)};
    VkPipelineLayoutCreateInfo info = vku::InitStructHelper();
    info.setLayoutCount = 2;
    info.pSetLayouts = sets;
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &range;
    return next_.CreatePipelineLayout(device_, &info, nullptr, &layout_) == VK_SUCCESS;
}

VkDescriptorSet TensorCopyPipelines::buffer_set(VkBuffer buffer, VkDeviceSize size) {
    std::lock_guard lock(mutex_);
    if (!make_layouts()) return VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    for (int attempt = 0; attempt < 2 && set == VK_NULL_HANDLE; ++attempt) {
        if (!pools_.empty()) {
            VkDescriptorSetAllocateInfo info = vku::InitStructHelper();
            info.descriptorPool = pools_.back();
            info.descriptorSetCount = 1;
            info.pSetLayouts = &set_layout_;
            if (next_.AllocateDescriptorSets(device_, &info, &set) == VK_SUCCESS) break;
            set = VK_NULL_HANDLE;
        }
        const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool};
        VkDescriptorPoolCreateInfo info = vku::InitStructHelper();
        info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        info.maxSets = kSetsPerPool;
        info.poolSizeCount = 1;
        info.pPoolSizes = &pool_size;
        VkDescriptorPool pool = VK_NULL_HANDLE;
        if (next_.CreateDescriptorPool(device_, &info, nullptr, &pool) != VK_SUCCESS) return VK_NULL_HANDLE;
        pools_.push_back(pool);
    }
    if (set == VK_NULL_HANDLE) return set;
    sets_.emplace_back(set, pools_.back());
    const VkDescriptorBufferInfo buffer_info{buffer, 0, size};
    VkWriteDescriptorSet write = vku::InitStructHelper();
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &buffer_info;
    next_.UpdateDescriptorSets(device_, 1, &write, 0, nullptr);
    return set;
}

void TensorCopyPipelines::release_set(VkDescriptorSet set) {
    if (set == VK_NULL_HANDLE) return;
    std::lock_guard lock(mutex_);
    const auto found = std::ranges::find(sets_, set, &std::pair<VkDescriptorSet, VkDescriptorPool>::first);
    if (found == sets_.end()) return;
    next_.FreeDescriptorSets(device_, found->second, 1, &set);
    sets_.erase(found);
}

VkPipeline TensorCopyPipelines::pipeline(uint32_t element_size) {
    const uint32_t index = std::countr_zero(element_size);
    std::lock_guard lock(mutex_);
    if (index >= pipelines_.size() || !make_layouts()) return VK_NULL_HANDLE;
    if (pipelines_[index] != VK_NULL_HANDLE) return pipelines_[index];
    const std::span<const uint32_t> code = layer_shader("tensor_copy_" + std::to_string(element_size * 8));
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = code.size_bytes();
    module_info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (code.empty() || next_.CreateShaderModule(device_, &module_info, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = vku::InitStructHelper();
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (next_.CreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS) pipeline = VK_NULL_HANDLE;
    next_.DestroyShaderModule(device_, module, nullptr);
    pipelines_[index] = pipeline;
    return pipeline;
}

}  // namespace vkpolyfill
