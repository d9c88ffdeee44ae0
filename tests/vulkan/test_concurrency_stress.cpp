// Concurrency stress: eight threads at once create and destroy shader modules, descriptor set layouts,
// descriptor sets, pipeline layouts and emulated cooperative-matrix pipelines, record command buffers
// and run them, on one device. Half of the threads ask for one and the same pipeline (the lowering
// cache is hit from several threads at once), the others for pipelines of their own (inserted at
// once); each run's output is checked, so a thread handed another thread's lowering (the wrong shape,
// the wrong value) fails, and a canary after the matrix proves nothing past it was written. Bounded by a count of
// iterations per thread and by time. Run under ThreadSanitizer with `scripts/test.sh tsan`.
#include <atomic>
#include <chrono>
#include <cstring>
#include <format>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "scoped_env.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kThreads = 8;
constexpr uint32_t kIterationsPerThread = 25;
constexpr auto kTimeLimit = std::chrono::seconds(60);
constexpr uint32_t kColumns = 16;
constexpr uint32_t kMaxRows = 16;
constexpr uint32_t kCanaryFloats = 64;
constexpr float kCanary = -12345.0f;

struct CoopmatDeviceFeatures {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&coopmat);
    CoopmatDeviceFeatures() {
        coopmat.cooperativeMatrix = VK_TRUE;
        features12.vulkanMemoryModel = VK_TRUE;
    }
};

ContextOptions coopmat_context(CoopmatDeviceFeatures& features) {
    ContextOptions options;
    options.device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME};
    options.device_features_next = &features.features12;
    return options;
}

// One worker's Vulkan objects that live for the whole run; everything else is made per iteration.
class Worker {
  public:
    Worker(Context& context, std::mutex& queue_lock, uint32_t index, Buffer output)
        : context_(context), vk_(context.vk), queue_lock_(queue_lock), index_(index), output_(output) {
        VkCommandPoolCreateInfo pool = vku::InitStructHelper();
        pool.queueFamilyIndex = context.queue_family;
        check(vk_.vkCreateCommandPool(context.device, &pool, nullptr, &command_pool_), "vkCreateCommandPool");
        const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
        VkDescriptorPoolCreateInfo descriptors = vku::InitStructHelper();
        descriptors.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        descriptors.maxSets = 1;
        descriptors.poolSizeCount = 1;
        descriptors.pPoolSizes = &size;
        check(vk_.vkCreateDescriptorPool(context.device, &descriptors, nullptr, &descriptor_pool_), "vkCreateDescriptorPool");
        const VkFenceCreateInfo fence = vku::InitStructHelper();
        check(vk_.vkCreateFence(context.device, &fence, nullptr, &fence_), "vkCreateFence");
    }
    ~Worker() {
        vk_.vkDestroyFence(context_.device, fence_, nullptr);
        vk_.vkDestroyDescriptorPool(context_.device, descriptor_pool_, nullptr);
        vk_.vkDestroyCommandPool(context_.device, command_pool_, nullptr);
    }

    // One iteration: a whole pipeline's life, from module to checked output. Returns what went wrong.
    std::string iterate(std::span<const uint32_t> spirv, uint32_t iteration) {
        // Even threads all ask for the same pipeline (one cached lowering, hit from four threads at
        // once); odd threads alternate 8 and 16 rows with a value of their own (a lowering each).
        const bool shared = index_ % 2 == 0;
        const uint32_t rows = (shared || iteration % 2 == 0) ? 16 : 8;
        const float value = shared ? 0.5f : static_cast<float>(index_ * 1000 + iteration + 1);
        fill_output();
        Objects objects(vk_, context_.device, descriptor_pool_);
        create_objects(objects, spirv, rows, value);
        run(objects);
        return check_output(rows, value);
    }

  private:
    struct Objects {
        const VolkDeviceTable& vk;
        VkDevice device;
        VkDescriptorPool pool;
        VkShaderModule module = VK_NULL_HANDLE;
        VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        VkPipeline pipeline = VK_NULL_HANDLE;
        VkDescriptorSet set = VK_NULL_HANDLE;
        ~Objects() {
            if (set) vk.vkFreeDescriptorSets(device, pool, 1, &set);
            vk.vkDestroyPipeline(device, pipeline, nullptr);
            vk.vkDestroyPipelineLayout(device, layout, nullptr);
            vk.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
            vk.vkDestroyShaderModule(device, module, nullptr);
        }
    };

    void fill_output() {
        const std::span<float> floats = output_.as<float>();
        std::fill(floats.begin(), floats.end(), kCanary);
    }

    void create_objects(Objects& o, std::span<const uint32_t> spirv, uint32_t rows, float value) {
        const VkDevice device = context_.device;
        VkShaderModuleCreateInfo module = vku::InitStructHelper();
        module.codeSize = spirv.size_bytes();
        module.pCode = spirv.data();
        check(vk_.vkCreateShaderModule(device, &module, nullptr, &o.module), "vkCreateShaderModule");

        const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
        VkDescriptorSetLayoutCreateInfo set_layout = vku::InitStructHelper();
        set_layout.bindingCount = 1;
        set_layout.pBindings = &binding;
        check(vk_.vkCreateDescriptorSetLayout(device, &set_layout, nullptr, &o.set_layout), "vkCreateDescriptorSetLayout");
        VkPipelineLayoutCreateInfo layout = vku::InitStructHelper();
        layout.setLayoutCount = 1;
        layout.pSetLayouts = &o.set_layout;
        check(vk_.vkCreatePipelineLayout(device, &layout, nullptr, &o.layout), "vkCreatePipelineLayout");

        const struct {
            uint32_t rows;
            float value;
        } data{rows, value};
        const VkSpecializationMapEntry entries[] = {{0, 0, sizeof(uint32_t)}, {1, sizeof(uint32_t), sizeof(float)}};
        const VkSpecializationInfo specialization{2, entries, sizeof(data), &data};
        VkComputePipelineCreateInfo pipeline = vku::InitStructHelper();
        pipeline.stage = vku::InitStructHelper();
        pipeline.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        pipeline.stage.module = o.module;
        pipeline.stage.pName = "main";
        pipeline.stage.pSpecializationInfo = &specialization;
        pipeline.layout = o.layout;
        check(vk_.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline, nullptr, &o.pipeline), "vkCreateComputePipelines");

        VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
        allocate.descriptorPool = descriptor_pool_;
        allocate.descriptorSetCount = 1;
        allocate.pSetLayouts = &o.set_layout;
        check(vk_.vkAllocateDescriptorSets(device, &allocate, &o.set), "vkAllocateDescriptorSets");
        const VkDescriptorBufferInfo buffer{output_.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet write = vku::InitStructHelper();
        write.dstSet = o.set;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = &buffer;
        vk_.vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    }

    void run(const Objects& o) {
        VkCommandBufferAllocateInfo allocate = vku::InitStructHelper();
        allocate.commandPool = command_pool_;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = 1;
        VkCommandBuffer commands;
        check(vk_.vkAllocateCommandBuffers(context_.device, &allocate, &commands), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo begin = vku::InitStructHelper();
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vk_.vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
        vk_.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
        vk_.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &o.set, 0, nullptr);
        vk_.vkCmdDispatch(commands, 1, 1, 1);
        check(vk_.vkEndCommandBuffer(commands), "vkEndCommandBuffer");
        VkSubmitInfo submit = vku::InitStructHelper();
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        {
            // A queue is externally synchronized: the application's job, not the layer's.
            const std::lock_guard lock(queue_lock_);
            check(vk_.vkQueueSubmit(context_.queue, 1, &submit, fence_), "vkQueueSubmit");
        }
        check(vk_.vkWaitForFences(context_.device, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        check(vk_.vkResetFences(context_.device, 1, &fence_), "vkResetFences");
        vk_.vkFreeCommandBuffers(context_.device, command_pool_, 1, &commands);
    }

    std::string check_output(uint32_t rows, float value) const {
        const std::span<const float> floats = output_.as<const float>();
        for (size_t i = 0; i < floats.size(); ++i) {
            const float expected = i < rows * kColumns ? value : kCanary;
            if (floats[i] != expected) {
                return std::format("thread {}, {} rows: element {} is {}, expected {}", index_, rows, i, floats[i], expected);
            }
        }
        return {};
    }

    Context& context_;
    const VolkDeviceTable& vk_;
    std::mutex& queue_lock_;
    uint32_t index_;
    Buffer output_;
    VkCommandPool command_pool_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

TEST(ConcurrencyStress, ThreadsSharingTheLoweringCacheEachRunTheirOwnPipeline) {
    // On the native driver the layer emulates only when told to; the point is the layer's own paths.
    const ScopedEnv force("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION",
                          driver_name() == "native" ? VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME : nullptr);
    CoopmatDeviceFeatures features;
    Context context(coopmat_context(features));
    const std::vector<uint32_t> spirv = read_shader("tests/stress/coopmat_fill.comp");
    std::mutex queue_lock;
    std::vector<Buffer> outputs;
    for (uint32_t t = 0; t < kThreads; ++t) {
        outputs.push_back(context.create_buffer((kMaxRows * kColumns + kCanaryFloats) * sizeof(float)));
    }

    const auto deadline = std::chrono::steady_clock::now() + kTimeLimit;
    std::atomic<uint32_t> iterations{0};
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            try {
                Worker worker(context, queue_lock, t, outputs[t]);
                for (uint32_t i = 0; i < kIterationsPerThread && failures[t].empty(); ++i) {
                    if (std::chrono::steady_clock::now() > deadline) break;
                    failures[t] = worker.iterate(spirv, i);
                    ++iterations;
                }
            } catch (const std::exception& error) {
                failures[t] = std::format("thread {}: {}", t, error.what());
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (const std::string& failure : failures) EXPECT_EQ(failure, "");
    // Every thread got through at least its first iterations, whatever the machine's speed.
    EXPECT_GE(iterations.load(), kThreads * 2);
    RecordProperty("iterations", static_cast<int>(iterations.load()));
}

}  // namespace
}  // namespace vkpolyfill::test
