#include "gemm_run.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::bench {

// The objects one pipeline's runs need, destroyed together.
struct GemmSubmission {
    explicit GemmSubmission(test::Context& c) : context(c) {}
    ~GemmSubmission() {
        const VolkDeviceTable& vk = context.vk;
        vk.vkDestroyFence(context.device, fence, nullptr);
        vk.vkDestroyQueryPool(context.device, queries, nullptr);
        vk.vkDestroyCommandPool(context.device, command_pool, nullptr);
        vk.vkDestroyDescriptorPool(context.device, descriptor_pool, nullptr);
    }
    GemmSubmission(const GemmSubmission&) = delete;
    GemmSubmission& operator=(const GemmSubmission&) = delete;

    test::Context& context;
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkCommandPool command_pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
};

namespace {

VkDescriptorSet write_descriptor_set(GemmSubmission& s, const GemmPipeline& pipeline, const GemmBuffers& buffers) {
    const VolkDeviceTable& vk = s.context.vk;
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    test::check(vk.vkCreateDescriptorPool(s.context.device, &pool_info, nullptr, &s.descriptor_pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
    allocate.descriptorPool = s.descriptor_pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &pipeline.layouts.set_layout;
    VkDescriptorSet set;
    test::check(vk.vkAllocateDescriptorSets(s.context.device, &allocate, &set), "vkAllocateDescriptorSets");
    const test::Buffer* bound[] = {&buffers.a, &buffers.b, &buffers.c};
    VkDescriptorBufferInfo infos[3];
    VkWriteDescriptorSet writes[3];
    for (uint32_t i = 0; i < 3; ++i) {
        infos[i] = {bound[i]->buffer, 0, VK_WHOLE_SIZE};
        writes[i] = vku::InitStructHelper();
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vk.vkUpdateDescriptorSets(s.context.device, 3, writes, 0, nullptr);
    return set;
}

// One command buffer, recorded once: timestamps around the dispatch, then C made visible to the host.
void record(GemmSubmission& s, const GemmPipeline& pipeline, VkDescriptorSet set, const GemmShape& shape, const Geometry& g) {
    const VolkDeviceTable& vk = s.context.vk;
    VkCommandPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.queueFamilyIndex = s.context.queue_family;
    test::check(vk.vkCreateCommandPool(s.context.device, &pool_info, nullptr, &s.command_pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo allocate = vku::InitStructHelper();
    allocate.commandPool = s.command_pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    test::check(vk.vkAllocateCommandBuffers(s.context.device, &allocate, &s.commands), "vkAllocateCommandBuffers");

    VkCommandBufferBeginInfo begin = vku::InitStructHelper();
    test::check(vk.vkBeginCommandBuffer(s.commands, &begin), "vkBeginCommandBuffer");
    if (s.queries != VK_NULL_HANDLE) {
        vk.vkCmdResetQueryPool(s.commands, s.queries, 0, 2);
        vk.vkCmdWriteTimestamp(s.commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 0);
    }
    vk.vkCmdBindPipeline(s.commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vk.vkCmdBindDescriptorSets(s.commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layouts.layout, 0, 1, &set, 0, nullptr);
    const GemmPush push{shape.m, shape.n, shape.k};
    vk.vkCmdPushConstants(s.commands, pipeline.layouts.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vk.vkCmdDispatch(s.commands, shape.n / g.tile_n, shape.m / g.tile_m, 1);
    if (s.queries != VK_NULL_HANDLE) {
        vk.vkCmdWriteTimestamp(s.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
    }
    VkMemoryBarrier barrier = vku::InitStructHelper();
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(s.commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                            nullptr, 0, nullptr);
    test::check(vk.vkEndCommandBuffer(s.commands), "vkEndCommandBuffer");
}

struct Sample {
    double wall_ms;
    double cpu_ms;
    double gpu_ms;  // NaN without timestamps
};

Sample submit_and_wait(GemmSubmission& s, const BenchDevice& device) {
    const VolkDeviceTable& vk = s.context.vk;
    VkSubmitInfo submit = vku::InitStructHelper();
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &s.commands;
    test::check(vk.vkResetFences(s.context.device, 1, &s.fence), "vkResetFences");
    const Stopwatch watch;
    test::check(vk.vkQueueSubmit(s.context.queue, 1, &submit, s.fence), "vkQueueSubmit");
    test::check(vk.vkWaitForFences(s.context.device, 1, &s.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    Sample sample{watch.wall_ms(), watch.cpu_ms(), std::numeric_limits<double>::quiet_NaN()};
    if (s.queries != VK_NULL_HANDLE) {
        uint64_t stamps[2];
        test::check(vk.vkGetQueryPoolResults(s.context.device, s.queries, 0, 2, sizeof stamps, stamps, sizeof stamps[0],
                                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                    "vkGetQueryPoolResults");
        sample.gpu_ms = static_cast<double>((stamps[1] - stamps[0]) & device.timestamp_mask) * device.timestamp_period_ns * 1e-6;
    }
    return sample;
}

}  // namespace

GemmBuffers::GemmBuffers(test::Context& context, const GemmInputs& in)
    : inputs(in),
      a(context.create_buffer(in.a.size() * sizeof(uint16_t))),
      b(context.create_buffer(in.b.size() * sizeof(uint16_t))),
      c(context.create_buffer(size_t{in.shape.m} * in.shape.n * sizeof(float))) {
    std::memcpy(a.mapped, in.a.data(), a.size);
    std::memcpy(b.mapped, in.b.data(), b.size);
}

GemmRun::GemmRun(BenchDevice& device, std::span<const uint32_t> spirv, const KernelConfig& config, const GemmBuffers& buffers,
                 const Geometry& geometry)
    : device_(device), pipeline_(device, spirv, config), submission_(std::make_unique<GemmSubmission>(device.context())) {
    test::Context& context = device.context();
    GemmSubmission& s = *submission_;
    if (device.timestamp_period_ns > 0) {
        VkQueryPoolCreateInfo query_info = vku::InitStructHelper();
        query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query_info.queryCount = 2;
        test::check(context.vk.vkCreateQueryPool(context.device, &query_info, nullptr, &s.queries), "vkCreateQueryPool");
    }
    VkFenceCreateInfo fence_info = vku::InitStructHelper();
    test::check(context.vk.vkCreateFence(context.device, &fence_info, nullptr, &s.fence), "vkCreateFence");
    record(s, pipeline_, write_descriptor_set(s, pipeline_, buffers), buffers.inputs.shape, geometry);

    std::span<float> c = buffers.c.as<float>();
    std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());  // unwritten elements fail
    first_.first_ms = submit_and_wait(s, device).wall_ms;
    first_.verification = verify(buffers.inputs, c);
}

GemmRun::~GemmRun() = default;

void GemmRun::time_once() {
    const Sample sample = submit_and_wait(*submission_, device_);
    wall_ms_.push_back(sample.wall_ms);
    cpu_ms_.push_back(sample.cpu_ms);
    if (submission_->queries != VK_NULL_HANDLE) gpu_ms_.push_back(sample.gpu_ms);
}

RunResult GemmRun::result() const {
    RunResult result = first_;
    result.gpu_ms = summarize(gpu_ms_);
    result.wall_ms = summarize(wall_ms_);
    result.cpu_ms = summarize(cpu_ms_);
    return result;
}

}  // namespace vkpolyfill::bench
