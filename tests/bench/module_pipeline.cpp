#include "module_pipeline.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "module_interface.h"

namespace vkpolyfill::bench {

ModulePipeline::ModulePipeline(test::Context& c, std::span<const uint32_t> spirv,
                               std::span<const std::pair<uint32_t, uint32_t>> constants, VkPipelineCreateFlags flags)
    : context_(c) {
    const test::ModuleInterface interface = test::reflect_interface(spirv);
    // Sets 0 up to the last the module uses, those it skips empty.
    const uint32_t set_count = interface.sets.empty() ? 0 : interface.sets.rbegin()->first + 1;
    for (uint32_t set = 0; set < set_count; ++set) {
        std::vector<VkDescriptorSetLayoutBinding> bindings;
        if (const auto used = interface.sets.find(set); used != interface.sets.end()) {
            for (const auto& [binding, layout_binding] : used->second) bindings.push_back(layout_binding);
        }
        VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper();
        info.bindingCount = static_cast<uint32_t>(bindings.size());
        info.pBindings = bindings.data();
        VkDescriptorSetLayout layout;
        test::check(c.vk.vkCreateDescriptorSetLayout(c.device, &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
        set_layouts_.push_back(layout);
    }
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(c.physical_device, &properties);
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, properties.limits.maxPushConstantsSize};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = set_count;
    layout_info.pSetLayouts = set_layouts_.data();
    layout_info.pushConstantRangeCount = interface.push_constants ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    test::check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");
    module_ = c.create_module(spirv);

    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    for (const auto& [id, value] : constants) {
        entries.push_back({id, static_cast<uint32_t>(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
        values.push_back(value);
    }
    const VkSpecializationInfo given{static_cast<uint32_t>(entries.size()), entries.data(), values.size() * sizeof(uint32_t), values.data()};
    const test::Specialization specialization(spirv, &given, c.subgroup_size);
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.flags = flags;
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module_, "main",
                  &specialization.info};
    info.layout = layout_;
    test::check(c.vk.vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
}

ModulePipeline::~ModulePipeline() {
    const test::Context& c = context_;
    c.vk.vkDestroyPipeline(c.device, pipeline, nullptr);
    c.vk.vkDestroyShaderModule(c.device, module_, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, layout_, nullptr);
    for (VkDescriptorSetLayout l : set_layouts_) c.vk.vkDestroyDescriptorSetLayout(c.device, l, nullptr);
}

}  // namespace vkpolyfill::bench
