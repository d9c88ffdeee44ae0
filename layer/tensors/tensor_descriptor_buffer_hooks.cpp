// Tensor descriptors in descriptor buffers (VK_EXT_descriptor_buffer with
// descriptorBufferTensorDescriptors): a tensor descriptor is the contract's two storage-buffer
// descriptors (lowering/arm_tensors.h) side by side, the tensor's data then its view's shape record,
// each made by the driver from a device address. The set layout's tensor binding is already a
// storage-buffer binding of twice the count, so the driver's layout sizes and binding offsets are
// the tensor layout's, element i at 2i storage-buffer descriptors from the binding's offset. Capture
// and replay of tensor descriptors is not emulated: tensors and views asking for it are refused at
// creation, so the opaque-capture commands only ever answer with the rule broken.
#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "tensors/capability_arm_tensors.h"
#include "core/device_data.h"
#include "core/hooks.h"

namespace vkpolyfill::hooks {
namespace {

constexpr VkDeviceSize kShapeRecordBytes = sizeof(lowering::TensorShapeRecord);

// Empty when the tensor descriptor can be written, else the rule broken.
std::string check_get_tensor(const TensorDevice& tensors, size_t data_size, const VkDescriptorGetTensorInfoARM* tensor,
                             const TensorView* view) {
    if (!tensors.features.descriptor_buffer) {
        return "VK_DESCRIPTOR_TYPE_TENSOR_ARM needs the descriptorBufferTensorDescriptors feature, which is not enabled";
    }
    if (tensor == nullptr) {
        return "VK_DESCRIPTOR_TYPE_TENSOR_ARM without a VkDescriptorGetTensorInfoARM in pDescriptorInfo->pNext "
               "(VUID-VkDescriptorGetInfoEXT-type-09701)";
    }
    const size_t size = tensor_descriptor_size(tensors.facts);
    if (data_size != size) {
        return std::format("dataSize ({}) must be tensorDescriptorSize ({}) (VUID-vkGetDescriptorEXT-dataSize-08125)", data_size, size);
    }
    if (tensor->tensorView == VK_NULL_HANDLE) {
        return tensors.features.null_descriptor ? std::string{}
                                                : "VkDescriptorGetTensorInfoARM::tensorView is VK_NULL_HANDLE but nullDescriptor is not "
                                                  "enabled (VUID-VkDescriptorGetTensorInfoARM-nullDescriptor-09899)";
    }
    if (view == nullptr) {
        return "VkDescriptorGetTensorInfoARM::tensorView (" + describe_tensor_view(tensor->tensorView) + ") is not a tensor view of this device";
    }
    return {};
}

// The opaque-capture commands: no tensor or view of the emulation has capture data, so each call
// breaks a rule, the feature one (VUID number `feature_rule`) first.
VkResult refuse_capture(VkDevice device, const char* command, const char* feature_rule, const std::string& not_created) {
    const DeviceData& data = device_data(device);
    if (!data.tensors) return VK_ERROR_EXTENSION_NOT_PRESENT;
    const TensorDevice& tensors = *data.tensors;
    const bool enabled = tensors.features.capture_replay && tensors.features.descriptor_buffer;
    tensors.report(std::format("{}: {}", command,
                               enabled ? not_created
                                       : std::format("the descriptorBufferCaptureReplay and descriptorBufferTensorDescriptors features must "
                                                     "be enabled (VUID-{}-descriptorBufferCaptureReplay-{})",
                                                     command, feature_rule)));
    return VK_ERROR_VALIDATION_FAILED_EXT;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetDescriptorEXT(VkDevice device, const VkDescriptorGetInfoEXT* pDescriptorInfo, size_t dataSize,
                                            void* pDescriptor) {
    const DeviceData& data = device_data(device);
    if (!data.tensors || pDescriptorInfo->type != VK_DESCRIPTOR_TYPE_TENSOR_ARM) {
        return data.next.GetDescriptorEXT(device, pDescriptorInfo, dataSize, pDescriptor);
    }
    const TensorDevice& tensors = *data.tensors;
    const auto* tensor = vku::FindStructInPNextChain<VkDescriptorGetTensorInfoARM>(pDescriptorInfo->pNext);
    const std::shared_ptr<TensorView> view =
        tensor && tensor->tensorView != VK_NULL_HANDLE ? tensors.views.find(tensor->tensorView) : nullptr;
    if (std::string problem = check_get_tensor(tensors, dataSize, tensor, view.get()); !problem.empty()) {
        tensors.report("vkGetDescriptorEXT: " + problem + "; nothing was written");
        return;
    }
    // Each half is a storage-buffer descriptor (a null one for a null view).
    VkDescriptorAddressInfoEXT halves[2] = {vku::InitStructHelper(), vku::InitStructHelper()};
    if (view) {
        halves[0].address = view->tensor->address;
        halves[0].range = view->tensor->layout.size;
        halves[1].address = view->shape.address;
        halves[1].range = kShapeRecordBytes;
    }
    const size_t half = dataSize / 2;
    for (int i = 0; i < 2; ++i) {
        VkDescriptorGetInfoEXT info = vku::InitStructHelper();
        info.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        info.data.pStorageBuffer = view ? &halves[i] : nullptr;
        data.next.GetDescriptorEXT(device, &info, half, static_cast<std::byte*>(pDescriptor) + i * half);
    }
}

VKAPI_ATTR VkResult VKAPI_CALL GetTensorOpaqueCaptureDescriptorDataARM(VkDevice device, const VkTensorCaptureDescriptorDataInfoARM* pInfo,
                                                                       void*) {
    return refuse_capture(device, "vkGetTensorOpaqueCaptureDescriptorDataARM", "09702",
                          describe_tensor(pInfo->tensor) + " was not created with VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM "
                                                           "(VUID-VkTensorCaptureDescriptorDataInfoARM-tensor-09705)");
}

VKAPI_ATTR VkResult VKAPI_CALL GetTensorViewOpaqueCaptureDescriptorDataARM(VkDevice device,
                                                                           const VkTensorViewCaptureDescriptorDataInfoARM* pInfo, void*) {
    return refuse_capture(device, "vkGetTensorViewOpaqueCaptureDescriptorDataARM", "09706",
                          describe_tensor_view(pInfo->tensorView) +
                              " was not created with VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM "
                              "(VUID-VkTensorViewCaptureDescriptorDataInfoARM-tensorView-09709)");
}

}  // namespace vkpolyfill::hooks
