#include "gemm_pipeline.h"

#include <chrono>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::bench {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class ShaderModule {
  public:
    ShaderModule(test::Context& context, std::span<const uint32_t> spirv) : context_(context) {
        VkShaderModuleCreateInfo info = vku::InitStructHelper();
        info.codeSize = spirv.size_bytes();
        info.pCode = spirv.data();
        test::check(context.vk.vkCreateShaderModule(context.device, &info, nullptr, &module), "vkCreateShaderModule");
    }
    ~ShaderModule() { context_.vk.vkDestroyShaderModule(context_.device, module, nullptr); }
    ShaderModule(const ShaderModule&) = delete;
    ShaderModule& operator=(const ShaderModule&) = delete;

    VkShaderModule module = VK_NULL_HANDLE;

  private:
    test::Context& context_;
};

}  // namespace

// The shader stage of a configuration: specialization constants and subgroup requirements.
class PipelineStage {
  public:
    PipelineStage(const BenchDevice& device, const KernelConfig& config) : values_(specialization(config, device.subgroup_size)) {
        for (uint32_t id = 0; id < values_.size(); ++id) entries_.push_back({id, id * 4u, 4});
        specialization_ = {static_cast<uint32_t>(entries_.size()), entries_.data(), values_.size() * 4, values_.data()};
        subgroup_.requiredSubgroupSize = device.subgroup_size;
        stage_.pNext = device.require_subgroup_size ? &subgroup_ : nullptr;
        stage_.flags = device.require_full_subgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
        stage_.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        stage_.pName = "main";
        stage_.pSpecializationInfo = &specialization_;
    }
    PipelineStage(const PipelineStage&) = delete;
    PipelineStage& operator=(const PipelineStage&) = delete;

    VkPipeline create_pipeline(test::Context& context, VkShaderModule module, VkPipelineLayout layout,
                               VkPipelineCreateFlags flags = 0) {
        stage_.module = module;
        VkComputePipelineCreateInfo info = vku::InitStructHelper();
        info.flags = flags;
        info.stage = stage_;
        info.layout = layout;
        VkPipeline pipeline;
        test::check(context.vk.vkCreateComputePipelines(context.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
                    "vkCreateComputePipelines");
        return pipeline;
    }

  private:
    std::vector<uint32_t> values_;
    std::vector<VkSpecializationMapEntry> entries_;
    VkSpecializationInfo specialization_{};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_ = vku::InitStructHelper();
    VkPipelineShaderStageCreateInfo stage_ = vku::InitStructHelper();
};

std::string kernel_unavailable(const BenchDevice& device, const KernelConfig& config) {
    if (config.kernel == Kernel::Coopmat2) {
        // The workgroup multiplies a BM x BK A by a BK x BN B.
        const Geometry g = geometry(config, device.subgroup_size);
        return device.flexible_unavailable({g.tile_m, g.tile_n, g.tile_k}, g.invocations);
    }
    if (config.kernel == Kernel::Coopmat) {
        const MatrixShape shape{config.get("tm"), config.get("tn"), config.get("tk")};
        return config.flexible ? device.flexible_unavailable(shape, 0) : device.coopmat_unavailable(shape);
    }
    const uint32_t size = device.subgroup_size;
    if (size < 8 || (size & (size - 1)) != 0) {
        return "the scalar shader needs a subgroup size that is a power of two of at least 8, not " + std::to_string(size);
    }
    return {};
}

GemmLayouts::GemmLayouts(test::Context& context) : context_(context) {
    VkDescriptorSetLayoutBinding bindings[3];
    for (uint32_t i = 0; i < 3; ++i) bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = 3;
    set_info.pBindings = bindings;
    test::check(context.vk.vkCreateDescriptorSetLayout(context.device, &set_info, nullptr, &set_layout),
                "vkCreateDescriptorSetLayout");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(GemmPush)};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    const VkResult result = context.vk.vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout);
    if (result != VK_SUCCESS) context.vk.vkDestroyDescriptorSetLayout(context.device, set_layout, nullptr);
    test::check(result, "vkCreatePipelineLayout");
}

GemmLayouts::~GemmLayouts() {
    context_.vk.vkDestroyPipelineLayout(context_.device, layout, nullptr);
    context_.vk.vkDestroyDescriptorSetLayout(context_.device, set_layout, nullptr);
}

GemmPipeline::GemmPipeline(BenchDevice& device, std::span<const uint32_t> spirv, const KernelConfig& config,
                           VkPipelineCreateFlags flags)
    : layouts(device.context()) {
    const ShaderModule module(device.context(), spirv);
    pipeline = PipelineStage(device, config).create_pipeline(device.context(), module.module, layouts.layout, flags);
}

GemmPipeline::~GemmPipeline() {
    test::Context& context = layouts.context();
    context.vk.vkDestroyPipeline(context.device, pipeline, nullptr);
}

CreationTimer::CreationTimer(BenchDevice& device, const KernelConfig& config)
    : context_(device.context()),
      spirv_(test::read_shader(shader_path(config.kernel))),
      layouts_(device.context()),
      stage_(std::make_unique<PipelineStage>(device, config)) {}

CreationTimer::~CreationTimer() = default;

void CreationTimer::create_once() {
    Clock::time_point start = Clock::now();
    const ShaderModule module(context_, spirv_);
    module_ms_.push_back(ms_since(start));
    start = Clock::now();
    const VkPipeline pipeline = stage_->create_pipeline(context_, module.module, layouts_.layout);
    pipeline_ms_.push_back(ms_since(start));
    context_.vk.vkDestroyPipeline(context_.device, pipeline, nullptr);
}

CreationTimes CreationTimer::times() const {
    return {summarize(module_ms_), summarize(pipeline_ms_), pipeline_ms_.empty() ? 0.0 : pipeline_ms_.front()};
}

}  // namespace vkpolyfill::bench
