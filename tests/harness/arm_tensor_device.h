// A device with the emulated VK_ARM_tensors enabled, for the tensor tests: tensors in host-visible
// memory the tests fill and read directly, views, and one-shot command recording.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <memory>
#include <vector>

#include "debug_messages.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {

struct TestTensor {
    VkTensorARM tensor = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::byte* data = nullptr;   // the tensor's first byte
    std::byte* canary = nullptr;  // kCanaryBytes before `data` and after the tensor's memory size
    VkDeviceSize size = 0;        // the tensor's memory requirement
    std::vector<int64_t> dimensions;
    std::vector<int64_t> strides;  // bytes
    uint32_t element_size = 0;

    // Byte offset of the element at `coordinates`.
    size_t offset(const std::vector<uint64_t>& coordinates) const;
};

inline constexpr size_t kCanaryBytes = 256;
inline constexpr std::byte kCanary{0xcd};

struct TensorDeviceOptions {
    // VK_EXT_descriptor_buffer with descriptorBufferTensorDescriptors (and buffer device addresses).
    bool descriptor_buffer = false;
    // VK_KHR_maintenance6, for the "2" forms of binds and pushes.
    bool maintenance6 = false;
};

class TensorDevice {
  public:
    // All six tensor features, debug-utils messages collected in `messages`.
    explicit TensorDevice(const TensorDeviceOptions& options = {});
    ~TensorDevice();
    TensorDevice(const TensorDevice&) = delete;
    TensorDevice& operator=(const TensorDevice&) = delete;

    Context& context() { return *context_; }
    DebugMessages messages;

    // Packed when `strides` is empty. Bound to host-visible memory with canaries on both sides.
    TestTensor create(VkFormat format, std::vector<int64_t> dimensions, std::vector<int64_t> strides = {},
                      VkTensorUsageFlagsARM usage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                                                    VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM);
    // A view of the tensor's format (its own as the tests create them).
    VkTensorViewARM view(const TestTensor& tensor, VkFormat format);
    // Records with `record` into a fresh command buffer, submits it and waits.
    void run(const std::function<void(VkCommandBuffer)>& record);

    // Whether the canaries around `tensor` are intact.
    static bool canaries_intact(const TestTensor& tensor);

  private:
    std::unique_ptr<Context> context_;
    std::unique_ptr<ScopedMessenger> messenger_;
    std::vector<TestTensor> tensors_;
    std::vector<VkTensorViewARM> views_;
};

// Bytes per element of the one-component formats the tests use.
uint32_t element_size(VkFormat format);

// The description points into `dimensions` and `strides` (empty: optimal tiling), which must outlive it;
// a temporary list of dimensions would dangle, so that form does not compile.
VkTensorDescriptionARM tensor_description(VkFormat format, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& strides,
                                          VkTensorUsageFlagsARM usage);
VkTensorDescriptionARM tensor_description(VkFormat format, std::vector<int64_t>&& dimensions, const std::vector<int64_t>& strides,
                                          VkTensorUsageFlagsARM usage) = delete;

}  // namespace vkpolyfill::test

namespace vkpolyfill::test {

// A pipeline layout of one compute set of `bindings` (created with `flags`, returned in `set_layout`)
// and `push_constant_bytes` of compute push constants, for the caller to destroy.
VkPipelineLayout create_one_set_layout(Context& context, std::span<const VkDescriptorSetLayoutBinding> bindings,
                                       VkDescriptorSetLayoutCreateFlags flags, uint32_t push_constant_bytes, VkDescriptorSetLayout& set_layout);

// The compute pipeline of SPIR-V `code` (read_shader() of a test shader, or assembled) with `layout`;
// its module goes to `module`, for the caller to destroy with the pipeline.
VkPipeline create_shader_pipeline(Context& context, std::span<const uint32_t> code, VkPipelineLayout layout, VkPipelineCreateFlags flags,
                                  VkShaderModule& module);

// A compute pipeline of a test shader whose sets hold tensor and storage-buffer bindings, with its
// own descriptor sets (the application's path: vkUpdateDescriptorSets, then binds).
class TensorComputePipeline {
  public:
    struct Binding {
        VkDescriptorType type;
        uint32_t count = 1;
    };
    // sets[s][b]: binding b of set s.
    TensorComputePipeline(TensorDevice& device, const std::string& shader, const std::vector<std::vector<Binding>>& sets,
                          uint32_t push_constant_bytes = 0);
    // The same for SPIR-V words (a module GLSL cannot write).
    TensorComputePipeline(TensorDevice& device, std::span<const uint32_t> code, const std::vector<std::vector<Binding>>& sets,
                          uint32_t push_constant_bytes = 0);
    ~TensorComputePipeline();
    TensorComputePipeline(const TensorComputePipeline&) = delete;
    TensorComputePipeline& operator=(const TensorComputePipeline&) = delete;

    void write_tensors(uint32_t set, uint32_t binding, const std::vector<VkTensorViewARM>& views);
    void write_buffer(uint32_t set, uint32_t binding, const Buffer& buffer);
    void dispatch(uint32_t x, uint32_t y = 1, uint32_t z = 1, std::span<const std::byte> push_constants = {});

  private:
    TensorDevice& device_;
    std::vector<VkDescriptorSetLayout> set_layouts_;
    std::vector<VkDescriptorSet> sets_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkShaderModule module_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace vkpolyfill::test
