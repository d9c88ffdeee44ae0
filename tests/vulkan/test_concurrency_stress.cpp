// Concurrency stress: eight threads at once create and destroy shader modules, descriptor set layouts,
// descriptor sets, pipeline layouts and emulated cooperative-matrix pipelines, record command buffers
// and run them, on one device. Half of the threads ask for one and the same pipeline (the lowering
// cache is hit from several threads at once), the others for pipelines of their own (inserted at
// once); each run's output is checked, so a thread handed another thread's lowering (the wrong shape,
// the wrong value) fails, and a canary after the matrix proves nothing past it was written. Bounded by a count of
// iterations per thread and by time. The same for emulated tensors: threads create, bind, view, write
// into descriptor sets and destroy tensors at once (the layer's handle maps and its shape-record
// storage are shared). Run under ThreadSanitizer with `scripts/test.sh tsan`.
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <format>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
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

// Runs `work(thread, iteration)` on kThreads threads, kIterationsPerThread times each or until the time
// limit; returns what went wrong (empty strings) per thread and the iterations done in all.
template <typename Work>
std::pair<std::vector<std::string>, uint32_t> run_threads(Work work) {
    const auto deadline = std::chrono::steady_clock::now() + kTimeLimit;
    std::atomic<uint32_t> iterations{0};
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            try {
                for (uint32_t i = 0; i < kIterationsPerThread && failures[t].empty(); ++i) {
                    if (std::chrono::steady_clock::now() > deadline) break;
                    failures[t] = work(t, i);
                    ++iterations;
                }
            } catch (const std::exception& error) {
                failures[t] = std::format("thread {}: {}", t, error.what());
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    return {failures, iterations.load()};
}

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

    std::vector<std::unique_ptr<Worker>> workers;
    for (uint32_t t = 0; t < kThreads; ++t) workers.push_back(std::make_unique<Worker>(context, queue_lock, t, outputs[t]));
    const auto [failures, iterations] =
        run_threads([&](uint32_t t, uint32_t i) { return workers[t]->iterate(spirv, i); });
    for (const std::string& failure : failures) EXPECT_EQ(failure, "");
    // Every thread got through at least its first iterations, whatever the machine's speed.
    EXPECT_GE(iterations, kThreads * 2);
    RecordProperty("iterations", static_cast<int>(iterations));
}

// One thread's tensor life cycle: a tensor of a shape of its own, its memory, a view, a descriptor set
// with the view written twice (a two-element tensor binding), then everything destroyed.
std::string tensor_life_cycle(Context& c, uint32_t thread, uint32_t iteration) {
    const VolkDeviceTable& vk = c.vk;
    const std::vector<int64_t> dimensions{thread + 1, iteration + 16};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_SFLOAT, dimensions, {},
                                                                  VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    VkTensorARM tensor;
    check(vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), "vkCreateTensorARM");
    VkTensorMemoryRequirementsInfoARM requirements_info = vku::InitStructHelper();
    requirements_info.tensor = tensor;
    VkMemoryRequirements2 requirements = vku::InitStructHelper();
    vk.vkGetTensorMemoryRequirementsARM(c.device, &requirements_info, &requirements);
    const VkDeviceSize bytes = static_cast<VkDeviceSize>(dimensions[0] * dimensions[1]) * sizeof(float);
    std::string failure;
    if (requirements.memoryRequirements.size < bytes) {
        failure = std::format("thread {}: {} bytes required for a {} byte tensor", thread, requirements.memoryRequirements.size, bytes);
    }
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.memoryRequirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(std::countr_zero(requirements.memoryRequirements.memoryTypeBits));
    VkDeviceMemory memory;
    check(vk.vkAllocateMemory(c.device, &allocate, nullptr, &memory), "vkAllocateMemory");
    VkBindTensorMemoryInfoARM bind = vku::InitStructHelper();
    bind.tensor = tensor;
    bind.memory = memory;
    check(vk.vkBindTensorMemoryARM(c.device, 1, &bind), "vkBindTensorMemoryARM");
    VkTensorViewCreateInfoARM view_info = vku::InitStructHelper();
    view_info.tensor = tensor;
    view_info.format = VK_FORMAT_R32_SFLOAT;
    VkTensorViewARM view;
    check(vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &view), "vkCreateTensorViewARM");

    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_layout_info = vku::InitStructHelper();
    set_layout_info.bindingCount = 1;
    set_layout_info.pBindings = &binding;
    VkDescriptorSetLayout set_layout;
    check(vk.vkCreateDescriptorSetLayout(c.device, &set_layout_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2};
    VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    VkDescriptorPool pool;
    check(vk.vkCreateDescriptorPool(c.device, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo set_info = vku::InitStructHelper();
    set_info.descriptorPool = pool;
    set_info.descriptorSetCount = 1;
    set_info.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    check(vk.vkAllocateDescriptorSets(c.device, &set_info, &set), "vkAllocateDescriptorSets");
    const VkTensorViewARM views[] = {view, view};
    VkWriteDescriptorSetTensorARM tensor_write = vku::InitStructHelper();
    tensor_write.tensorViewCount = 2;
    tensor_write.pTensorViews = views;
    VkWriteDescriptorSet write = vku::InitStructHelper(&tensor_write);
    write.dstSet = set;
    write.descriptorCount = 2;
    write.descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
    vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);

    vk.vkDestroyDescriptorPool(c.device, pool, nullptr);
    vk.vkDestroyDescriptorSetLayout(c.device, set_layout, nullptr);
    vk.vkDestroyTensorViewARM(c.device, view, nullptr);
    vk.vkDestroyTensorARM(c.device, tensor, nullptr);
    vk.vkFreeMemory(c.device, memory, nullptr);
    return failure;
}

TEST(ConcurrencyStress, ThreadsCreateViewWriteAndDestroyTensorsAtOnce) {
    TensorDevice device;
    const auto [failures, iterations] =
        run_threads([&](uint32_t t, uint32_t i) { return tensor_life_cycle(device.context(), t, i); });
    for (const std::string& failure : failures) EXPECT_EQ(failure, "");
    EXPECT_GE(iterations, kThreads * 2);
    // The layer had nothing to complain about (a lost handle or a full shape-record store would say so).
    for (const DebugMessage& message : device.messages.all()) {
        EXPECT_NE(message.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) << message.text;
    }
}

}  // namespace
}  // namespace vkpolyfill::test
