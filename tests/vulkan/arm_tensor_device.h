// A device with the emulated VK_ARM_tensors enabled, for the tensor tests: tensors in host-visible
// memory the tests fill and read directly, views, and one-shot command recording.
#pragma once

#include <cstddef>
#include <functional>
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

class TensorDevice {
  public:
    // All six tensor features, debug-utils messages collected in `messages`.
    TensorDevice();
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
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<TestTensor> tensors_;
    std::vector<VkTensorViewARM> views_;
};

// Bytes per element of the one-component formats the tests use.
uint32_t element_size(VkFormat format);

VkTensorDescriptionARM tensor_description(VkFormat format, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& strides,
                                          VkTensorUsageFlagsARM usage);

}  // namespace vkpolyfill::test
