// Everything the tensor emulation keeps per device (DeviceData::tensors, only where the application
// enabled the emulated VK_ARM_tensors): the tensors and views, their shape records, the descriptor
// bookkeeping, the copy pipelines and the command-buffer states. Destroyed before its VkDevice.
#pragma once

#include <vulkan/utility/vk_dispatch_table.h>

#include "core/log.h"
#include "core/physical_device_facts.h"
#include "tensors/tensor_command_buffers.h"
#include "tensors/tensor_copy_pipelines.h"
#include "tensors/tensor_descriptor_sets.h"
#include "tensors/tensor_objects.h"
#include "tensors/tensor_shape_store.h"

namespace vkpolyfill {

struct TensorDevice {
    TensorDevice(VkDevice device, const VkuDeviceDispatchTable& next, const PhysicalDeviceFacts& facts,
                 const VkPhysicalDeviceMemoryProperties& memory, const TensorDeviceFeatures& features, const Logger& logger);

    VkDevice device;
    const VkuDeviceDispatchTable& next;
    const PhysicalDeviceFacts& facts;  // the device record's, which outlives this
    TensorDeviceFeatures features;
    const Logger& logger;

    HandleMap<VkTensorARM, Tensor> tensors;
    HandleMap<VkTensorViewARM, TensorView> views;
    TensorShapeStore shapes;
    TensorDescriptorSets descriptors;
    TensorCopyPipelines copy_pipelines;
    TensorCommandBuffers command_buffers;

    // An error about `object` (a tensor or view, by its handle description) to the log and debug-utils.
    void report(const std::string& text) const { logger.log(LogLevel::Error, "vkpolyfill-tensor", text); }
};

// What the application enabled that tensor checks depend on, read from its vkCreateDevice info.
TensorDeviceFeatures tensor_device_features(const VkDeviceCreateInfo& create_info, const PhysicalDeviceFacts& facts,
                                            uint32_t queue_family_count);

}  // namespace vkpolyfill
