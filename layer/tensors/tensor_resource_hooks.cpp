// vkCreateTensorARM and the other commands on tensor and tensor-view objects: a tensor is a VkBuffer
// laid out by its description, a view is its tensor plus a shape record in the layer's store.
#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tensors/tensor_formats.h"
#include "tensors/tensor_usage.h"

namespace vkpolyfill::hooks {
namespace {

// `device_address`: the buffer's address goes into tensor descriptors in descriptor buffers.
VkBufferCreateInfo buffer_info(const VkTensorCreateInfoARM& info, const TensorLayout& layout, bool device_address,
                               VkExternalMemoryBufferCreateInfo& external) {
    VkBufferCreateInfo buffer = vku::InitStructHelper();
    buffer.size = layout.size;
    buffer.usage = tensor_buffer_usage(info.pDescription->usage) | (device_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
    buffer.flags = (info.flags & VK_TENSOR_CREATE_PROTECTED_BIT_ARM) ? VK_BUFFER_CREATE_PROTECTED_BIT : 0;
    buffer.sharingMode = info.sharingMode;
    buffer.queueFamilyIndexCount = info.queueFamilyIndexCount;
    buffer.pQueueFamilyIndices = info.pQueueFamilyIndices;
    if (const auto* tensor_external = vku::FindStructInPNextChain<VkExternalMemoryTensorCreateInfoARM>(info.pNext)) {
        external = vku::InitStructHelper();
        external.handleTypes = tensor_external->handleTypes;
        buffer.pNext = &external;
    }
    return buffer;
}

// Strides in elements of the view's format, as the lowered code indexes the data.
lowering::TensorShapeRecord shape_record(const TensorLayout& layout, uint32_t view_element_size) {
    lowering::TensorShapeRecord record{};
    record.rank = layout.rank;
    for (uint32_t d = 0; d < layout.rank; ++d) {
        record.dimensions[d] = static_cast<uint32_t>(layout.dimensions[d]);
        record.strides[d] = static_cast<uint32_t>(layout.strides[d] / view_element_size);
    }
    return record;
}

std::string check_view(const VkTensorViewCreateInfoARM& info, const Tensor& tensor, const TensorDeviceFeatures& features) {
    if (info.flags & VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM) {
        return features.capture_replay ? "flags asks for descriptor capture and replay, which emulated tensor views do not have"
                                       : "flags has VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM but "
                                         "descriptorBufferCaptureReplay is not enabled (VUID-VkTensorViewCreateInfoARM-flags-09745)";
    }
    if (!(tensor.usage & VK_TENSOR_USAGE_SHADER_BIT_ARM)) {
        return std::format("the tensor of a view ({}) must have VK_TENSOR_USAGE_SHADER_BIT_ARM; its usage is 0x{:x}",
                           describe_tensor(info.tensor), tensor.usage);
    }
    if (!tensor.bound) return std::format("the tensor of a view ({}) must be bound to memory", describe_tensor(info.tensor));
    if (info.format == tensor.layout.format) return {};
    if (!(tensor.flags & VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM)) {
        return std::format("VkTensorViewCreateInfoARM::format ({}) must be the tensor's format ({}) unless the tensor was "
                           "created with VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM",
                           static_cast<int>(info.format), static_cast<int>(tensor.layout.format));
    }
    if (tensor_element_size(info.format) != tensor.layout.element_size) {
        return std::format("VkTensorViewCreateInfoARM::format ({}) must have the element size of the tensor's format ({} bytes)",
                           static_cast<int>(info.format), tensor.layout.element_size);
    }
    return {};
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateTensorARM(VkDevice device, const VkTensorCreateInfoARM* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkTensorARM* pTensor) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return VK_ERROR_EXTENSION_NOT_PRESENT;
    TensorDevice& tensors = *data.tensors;
    *pTensor = VK_NULL_HANDLE;
    if (std::string problem = check_tensor_create_info(*pCreateInfo, tensors.facts, tensors.features); !problem.empty()) {
        tensors.report("vkCreateTensorARM: " + problem);
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    try {
        auto tensor = std::make_shared<Tensor>();
        tensor->layout = tensor_layout(*pCreateInfo->pDescription);
        tensor->usage = pCreateInfo->pDescription->usage;
        tensor->flags = pCreateInfo->flags;
        VkExternalMemoryBufferCreateInfo external;
        const VkBufferCreateInfo info = buffer_info(*pCreateInfo, tensor->layout, tensors.features.descriptor_buffer, external);
        if (VkResult result = data.next.CreateBuffer(device, &info, pAllocator, &tensor->buffer); result != VK_SUCCESS) return result;
        *pTensor = tensors.tensors.insert(std::move(tensor));
        return VK_SUCCESS;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR void VKAPI_CALL DestroyTensorARM(VkDevice device, VkTensorARM tensor, const VkAllocationCallbacks* pAllocator) {
    if (tensor == VK_NULL_HANDLE) return;
    const DeviceData& data = device_data(device);
    if (!data.tensors) return;
    const std::shared_ptr<Tensor> record = data.tensors->tensors.pop(tensor);
    if (record == nullptr) {
        data.tensors->report("vkDestroyTensorARM: " + describe_tensor(tensor) + " is not a tensor of this device");
        return;
    }
    data.tensors->copy_pipelines.release_set(record->copy_set);
    data.next.DestroyBuffer(device, record->buffer, pAllocator);
}

VKAPI_ATTR void VKAPI_CALL GetTensorMemoryRequirementsARM(VkDevice device, const VkTensorMemoryRequirementsInfoARM* pInfo,
                                                          VkMemoryRequirements2* pMemoryRequirements) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return;
    const std::shared_ptr<Tensor> tensor = data.tensors->tensors.find(pInfo->tensor);
    if (tensor == nullptr) {
        data.tensors->report("vkGetTensorMemoryRequirementsARM: " + describe_tensor(pInfo->tensor) + " is not a tensor of this device");
        pMemoryRequirements->memoryRequirements = {};
        return;
    }
    VkBufferMemoryRequirementsInfo2 info = vku::InitStructHelper();
    info.buffer = tensor->buffer;
    data.next.GetBufferMemoryRequirements2(device, &info, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceTensorMemoryRequirementsARM(VkDevice device, const VkDeviceTensorMemoryRequirementsARM* pInfo,
                                                                VkMemoryRequirements2* pMemoryRequirements) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return;
    TensorDevice& tensors = *data.tensors;
    pMemoryRequirements->memoryRequirements = {};
    if (std::string problem = check_tensor_create_info(*pInfo->pCreateInfo, tensors.facts, tensors.features); !problem.empty()) {
        tensors.report("vkGetDeviceTensorMemoryRequirementsARM: " + problem);
        return;
    }
    VkExternalMemoryBufferCreateInfo external;
    const VkBufferCreateInfo buffer =
        buffer_info(*pInfo->pCreateInfo, tensor_layout(*pInfo->pCreateInfo->pDescription), tensors.features.descriptor_buffer, external);
    VkDeviceBufferMemoryRequirements info = vku::InitStructHelper();
    info.pCreateInfo = &buffer;
    PFN_vkGetDeviceBufferMemoryRequirements query =
        data.next.GetDeviceBufferMemoryRequirements ? data.next.GetDeviceBufferMemoryRequirements : data.next.GetDeviceBufferMemoryRequirementsKHR;
    query(device, &info, pMemoryRequirements);
}

VKAPI_ATTR VkResult VKAPI_CALL BindTensorMemoryARM(VkDevice device, uint32_t bindInfoCount, const VkBindTensorMemoryInfoARM* pBindInfos) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return VK_ERROR_EXTENSION_NOT_PRESENT;
    TensorDevice& tensors = *data.tensors;
    try {
        std::vector<std::shared_ptr<Tensor>> records(bindInfoCount);
        std::vector<VkBindBufferMemoryInfo> binds(bindInfoCount);
        for (uint32_t i = 0; i < bindInfoCount; ++i) {
            records[i] = tensors.tensors.find(pBindInfos[i].tensor);
            if (records[i] == nullptr || records[i]->bound) {
                tensors.report(std::format("vkBindTensorMemoryARM: pBindInfos[{}].tensor ({}) must be a tensor of this device not yet "
                                           "bound to memory",
                                           i, describe_tensor(pBindInfos[i].tensor)));
                return VK_ERROR_VALIDATION_FAILED_EXT;
            }
            binds[i] = vku::InitStructHelper();
            binds[i].buffer = records[i]->buffer;
            binds[i].memory = pBindInfos[i].memory;
            binds[i].memoryOffset = pBindInfos[i].memoryOffset;
        }
        if (VkResult result = data.next.BindBufferMemory2(device, bindInfoCount, binds.data()); result != VK_SUCCESS) return result;
        for (const std::shared_ptr<Tensor>& tensor : records) {
            tensor->copy_set = tensors.copy_pipelines.buffer_set(tensor->buffer, tensor->layout.size);
            if (tensors.features.descriptor_buffer) {
                VkBufferDeviceAddressInfo address = vku::InitStructHelper();
                address.buffer = tensor->buffer;
                tensor->address = data.next.GetBufferDeviceAddress(device, &address);
            }
            tensor->bound = true;
        }
        return VK_SUCCESS;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

// Memory dedicated to a tensor is memory dedicated to its buffer. Where tensors' buffers have device
// addresses (descriptor buffers), any memory may be bound to a tensor, so every allocation can give
// addresses (VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT), which the application never asked for.
VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo* pAllocateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkDeviceMemory* pMemory) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.AllocateMemory(device, pAllocateInfo, pAllocator, pMemory);
    const auto* dedicated = vku::FindStructInPNextChain<VkMemoryDedicatedAllocateInfoTensorARM>(pAllocateInfo->pNext);
    const bool addresses = data.tensors->features.descriptor_buffer;
    if (dedicated == nullptr && !addresses) return data.next.AllocateMemory(device, pAllocateInfo, pAllocator, pMemory);
    const std::shared_ptr<Tensor> tensor = dedicated ? data.tensors->tensors.find(dedicated->tensor) : nullptr;
    if (dedicated && tensor == nullptr) {
        data.tensors->report("vkAllocateMemory: VkMemoryDedicatedAllocateInfoTensorARM::tensor (" + describe_tensor(dedicated->tensor) +
                             ") is not a tensor of this device");
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    try {
        vku::safe_VkMemoryAllocateInfo copy(pAllocateInfo);
        if (tensor) {
            vku::RemoveFromPnext(copy, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM);
            VkMemoryDedicatedAllocateInfo buffer = vku::InitStructHelper();
            buffer.buffer = tensor->buffer;
            vku::AddToPnext(copy, buffer);
        }
        if (addresses) {
            if (auto* flags = vku::FindStructInPNextChain<VkMemoryAllocateFlagsInfo>(const_cast<void*>(copy.pNext))) {
                flags->flags |= VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
            } else {
                VkMemoryAllocateFlagsInfo added = vku::InitStructHelper();
                added.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
                vku::AddToPnext(copy, added);
            }
        }
        return data.next.AllocateMemory(device, copy.ptr(), pAllocator, pMemory);
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateTensorViewARM(VkDevice device, const VkTensorViewCreateInfoARM* pCreateInfo,
                                                   const VkAllocationCallbacks*, VkTensorViewARM* pView) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return VK_ERROR_EXTENSION_NOT_PRESENT;
    TensorDevice& tensors = *data.tensors;
    *pView = VK_NULL_HANDLE;
    std::shared_ptr<const Tensor> tensor = tensors.tensors.find(pCreateInfo->tensor);
    std::string problem = tensor ? check_view(*pCreateInfo, *tensor, tensors.features)
                                 : "VkTensorViewCreateInfoARM::tensor (" + describe_tensor(pCreateInfo->tensor) + ") is not a tensor of this device";
    if (!problem.empty()) {
        tensors.report("vkCreateTensorViewARM: " + problem);
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    try {
        auto view = std::make_shared<TensorView>();
        view->format = pCreateInfo->format;
        if (VkResult result = tensors.shapes.allocate(shape_record(tensor->layout, tensor_element_size(view->format)), view->shape);
            result != VK_SUCCESS) {
            return result;
        }
        view->tensor = std::move(tensor);
        *pView = tensors.views.insert(std::move(view));
        return VK_SUCCESS;
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

VKAPI_ATTR void VKAPI_CALL DestroyTensorViewARM(VkDevice device, VkTensorViewARM tensorView, const VkAllocationCallbacks*) {
    if (tensorView == VK_NULL_HANDLE) return;
    const DeviceData& data = device_data(device);
    if (!data.tensors) return;
    const std::shared_ptr<TensorView> view = data.tensors->views.pop(tensorView);
    if (view == nullptr) {
        data.tensors->report("vkDestroyTensorViewARM: " + describe_tensor_view(tensorView) + " is not a tensor view of this device");
        return;
    }
    data.tensors->shapes.release(view->shape);
}

// A tensor's name and tags go to its buffer, so whatever the driver or a layer below says about the
// buffer carries the application's name; a view has nothing below it to name.
VKAPI_ATTR VkResult VKAPI_CALL TensorSetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* pNameInfo) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.shaders ? SetDebugUtilsObjectNameEXT(device, pNameInfo) : data.next.SetDebugUtilsObjectNameEXT(device, pNameInfo);
    if (pNameInfo->objectType == VK_OBJECT_TYPE_TENSOR_VIEW_ARM) return VK_SUCCESS;
    if (pNameInfo->objectType == VK_OBJECT_TYPE_TENSOR_ARM) {
        const std::shared_ptr<Tensor> tensor = data.tensors->tensors.find(reinterpret_cast<VkTensorARM>(pNameInfo->objectHandle));
        if (tensor == nullptr) return VK_SUCCESS;
        VkDebugUtilsObjectNameInfoEXT buffer = *pNameInfo;
        buffer.objectType = VK_OBJECT_TYPE_BUFFER;
        buffer.objectHandle = reinterpret_cast<uint64_t>(tensor->buffer);
        return data.next.SetDebugUtilsObjectNameEXT(device, &buffer);
    }
    return data.shaders ? SetDebugUtilsObjectNameEXT(device, pNameInfo) : data.next.SetDebugUtilsObjectNameEXT(device, pNameInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL TensorSetDebugUtilsObjectTagEXT(VkDevice device, const VkDebugUtilsObjectTagInfoEXT* pTagInfo) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return data.next.SetDebugUtilsObjectTagEXT(device, pTagInfo);
    if (pTagInfo->objectType == VK_OBJECT_TYPE_TENSOR_VIEW_ARM) return VK_SUCCESS;
    if (pTagInfo->objectType == VK_OBJECT_TYPE_TENSOR_ARM) {
        const std::shared_ptr<Tensor> tensor = data.tensors->tensors.find(reinterpret_cast<VkTensorARM>(pTagInfo->objectHandle));
        if (tensor == nullptr) return VK_SUCCESS;
        VkDebugUtilsObjectTagInfoEXT buffer = *pTagInfo;
        buffer.objectType = VK_OBJECT_TYPE_BUFFER;
        buffer.objectHandle = reinterpret_cast<uint64_t>(tensor->buffer);
        return data.next.SetDebugUtilsObjectTagEXT(device, &buffer);
    }
    return data.next.SetDebugUtilsObjectTagEXT(device, pTagInfo);
}

}  // namespace vkpolyfill::hooks
