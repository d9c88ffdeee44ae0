#include "tensors/tensor_physical_device_hooks.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/instance_data.h"
#include "tensors/tensor_formats.h"
#include "tensors/tensor_usage.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_ARM_TENSORS_EXTENSION_NAME;

// Formats VK_ARM_tensors itself adds: the driver has never heard of them.
bool tensor_only_format(VkFormat format) {
    return format == VK_FORMAT_R8_BOOL_ARM || format == VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM ||
           format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM || format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
}

void format_properties2(VkPhysicalDevice physical_device, VkFormat format, VkFormatProperties2* properties,
                        PFN_vkGetPhysicalDeviceFormatProperties2 VkuInstanceDispatchTable::*query) {
    InstanceData& instance = instance_data(physical_device);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physical_device);
    const bool emulated = record->provision_of(kExtension) == Provision::Emulated;
    if (!emulated || !tensor_only_format(format)) {
        (instance.next.*query)(physical_device, format, properties);
    } else {
        properties->formatProperties = {};
        if (auto* properties3 = vku::FindStructInPNextChain<VkFormatProperties3>(properties->pNext)) {
            properties3->linearTilingFeatures = properties3->optimalTilingFeatures = properties3->bufferFeatures = 0;
        }
    }
    if (!emulated) return;
    if (auto* tensor = vku::FindStructInPNextChain<VkTensorFormatPropertiesARM>(properties->pNext)) {
        tensor->optimalTilingTensorFeatures = tensor->linearTilingTensorFeatures = tensor_format_features(record->facts, format);
    }
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                                              VkFormatProperties2* pFormatProperties) {
    format_properties2(physicalDevice, format, pFormatProperties, &VkuInstanceDispatchTable::GetPhysicalDeviceFormatProperties2);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2KHR(VkPhysicalDevice physicalDevice, VkFormat format,
                                                                 VkFormatProperties2* pFormatProperties) {
    format_properties2(physicalDevice, format, pFormatProperties, &VkuInstanceDispatchTable::GetPhysicalDeviceFormatProperties2KHR);
}

// A tensor's memory is its buffer's: it can be exported and imported as that buffer's can.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalTensorPropertiesARM(VkPhysicalDevice physicalDevice,
                                                                        const VkPhysicalDeviceExternalTensorInfoARM* pExternalTensorInfo,
                                                                        VkExternalTensorPropertiesARM* pExternalTensorProperties) {
    InstanceData& instance = instance_data(physicalDevice);
    const std::shared_ptr<const PhysicalDeviceRecord> record = instance.physical_device(physicalDevice);
    if (record->provision_of(kExtension) == Provision::Native) {
        instance.next.GetPhysicalDeviceExternalTensorPropertiesARM(physicalDevice, pExternalTensorInfo, pExternalTensorProperties);
        return;
    }
    pExternalTensorProperties->externalMemoryProperties = {};
    if (record->provision_of(kExtension) != Provision::Emulated) return;
    VkPhysicalDeviceExternalBufferInfo buffer = vku::InitStructHelper();
    buffer.usage = tensor_buffer_usage(pExternalTensorInfo->pDescription->usage);
    buffer.handleType = pExternalTensorInfo->handleType;
    VkExternalBufferProperties properties = vku::InitStructHelper();
    instance.next.GetPhysicalDeviceExternalBufferProperties(physicalDevice, &buffer, &properties);
    pExternalTensorProperties->externalMemoryProperties = properties.externalMemoryProperties;
}

const EntryPoint kFunctions[] = {
    {"vkGetPhysicalDeviceFormatProperties2", reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceFormatProperties2)},
    {"vkGetPhysicalDeviceFormatProperties2KHR", reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceFormatProperties2KHR)},
    {"vkGetPhysicalDeviceExternalTensorPropertiesARM",
     reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceExternalTensorPropertiesARM)},
};

}  // namespace

std::span<const EntryPoint> tensor_physical_device_functions() { return kFunctions; }

}  // namespace vkpolyfill
