// The loader interface: negotiation, the three proc-addr functions and the layer's own
// enumerations. Name lookups map to the hooks in hooks.h; anything else goes to the next layer.
#include <cstring>
#include <span>

#include <vulkan/vk_layer.h>

#include "core/device_data.h"
#include "core/output_params.h"
#include "core/hooks.h"
#include "core/instance_data.h"
#include "core/layer_extensions.h"
#include "layer_info.h"
#include "tile_image/tile_image_device.h"

#define VKPOLYFILL_EXPORT extern "C" __attribute__((visibility("default")))

namespace vkpolyfill {
namespace {

using Hook = EntryPoint;
#define VKPOLYFILL_HOOK(alias, function) Hook{"vk" #alias, reinterpret_cast<PFN_vkVoidFunction>(hooks::function)}

// Functions on a VkPhysicalDevice: reachable through vkGetInstanceProcAddr and, for the loader's
// unknown-function support, through vk_layerGetPhysicalDeviceProcAddr.
const Hook kPhysicalDeviceHooks[] = {
    VKPOLYFILL_HOOK(EnumerateDeviceExtensionProperties, EnumerateDeviceExtensionProperties),
    VKPOLYFILL_HOOK(GetPhysicalDeviceFeatures2, GetPhysicalDeviceFeatures2),
    VKPOLYFILL_HOOK(GetPhysicalDeviceFeatures2KHR, GetPhysicalDeviceFeatures2KHR),
    VKPOLYFILL_HOOK(GetPhysicalDeviceProperties, GetPhysicalDeviceProperties),
    VKPOLYFILL_HOOK(GetPhysicalDeviceProperties2, GetPhysicalDeviceProperties2),
    VKPOLYFILL_HOOK(GetPhysicalDeviceProperties2KHR, GetPhysicalDeviceProperties2KHR),
    VKPOLYFILL_HOOK(GetPhysicalDeviceToolProperties, GetPhysicalDeviceToolProperties),
    VKPOLYFILL_HOOK(GetPhysicalDeviceToolPropertiesEXT, GetPhysicalDeviceToolProperties),
    VKPOLYFILL_HOOK(CreateDevice, CreateDevice),
};

const Hook kInstanceHooks[] = {
    VKPOLYFILL_HOOK(CreateInstance, CreateInstance),
    VKPOLYFILL_HOOK(DestroyInstance, DestroyInstance),
    VKPOLYFILL_HOOK(CreateDebugUtilsMessengerEXT, CreateDebugUtilsMessengerEXT),
    VKPOLYFILL_HOOK(DestroyDebugUtilsMessengerEXT, DestroyDebugUtilsMessengerEXT),
};

const Hook kDeviceHooks[] = {
    VKPOLYFILL_HOOK(DestroyDevice, DestroyDevice),
};

// Shader interception, where the device may lower something: where the application enabled an
// emulated capability, and wherever a SPIR-V-only set is registered (today every device). Elsewhere,
// and for every other command, the device's own entry points.
const Hook kShaderHooks[] = {
    VKPOLYFILL_HOOK(CreateShaderModule, CreateShaderModule),
    VKPOLYFILL_HOOK(DestroyShaderModule, DestroyShaderModule),
    VKPOLYFILL_HOOK(SetDebugUtilsObjectNameEXT, SetDebugUtilsObjectNameEXT),
    VKPOLYFILL_HOOK(GetShaderModuleIdentifierEXT, GetShaderModuleIdentifierEXT),
    VKPOLYFILL_HOOK(GetShaderModuleCreateInfoIdentifierEXT, GetShaderModuleCreateInfoIdentifierEXT),
    VKPOLYFILL_HOOK(CreateComputePipelines, CreateComputePipelines),
    VKPOLYFILL_HOOK(CreateGraphicsPipelines, CreateGraphicsPipelines),
    VKPOLYFILL_HOOK(CreateRayTracingPipelinesKHR, CreateRayTracingPipelinesKHR),
    VKPOLYFILL_HOOK(GetPipelineKeyKHR, GetPipelineKeyKHR),
    VKPOLYFILL_HOOK(CreatePipelineBinariesKHR, CreatePipelineBinariesKHR),
    VKPOLYFILL_HOOK(CreateShadersEXT, CreateShadersEXT),
};
// The tile-image emulation: the device's own entry points unless the application enabled the emulated
// VK_EXT_shader_tile_image, so other devices pay nothing for it.
const Hook kTileImageHooks[] = {
    VKPOLYFILL_HOOK(CreateImage, CreateImage),
    VKPOLYFILL_HOOK(CreateSwapchainKHR, CreateSwapchainKHR),
    VKPOLYFILL_HOOK(GetSwapchainImagesKHR, GetSwapchainImagesKHR),
    VKPOLYFILL_HOOK(DestroySwapchainKHR, DestroySwapchainKHR),
    VKPOLYFILL_HOOK(CreateImageView, CreateImageView),
    VKPOLYFILL_HOOK(DestroyImageView, DestroyImageView),
    VKPOLYFILL_HOOK(CreatePipelineLayout, CreatePipelineLayout),
    VKPOLYFILL_HOOK(DestroyPipelineLayout, DestroyPipelineLayout),
    VKPOLYFILL_HOOK(DestroyPipeline, DestroyPipeline),
    VKPOLYFILL_HOOK(DestroyShaderEXT, DestroyShaderEXT),
    VKPOLYFILL_HOOK(GetShaderBinaryDataEXT, GetShaderBinaryDataEXT),
    VKPOLYFILL_HOOK(CmdBindShadersEXT, CmdBindShadersEXT),
    VKPOLYFILL_HOOK(CmdSetRasterizationSamplesEXT, CmdSetRasterizationSamplesEXT),
    VKPOLYFILL_HOOK(AllocateCommandBuffers, AllocateCommandBuffers),
    VKPOLYFILL_HOOK(BeginCommandBuffer, BeginCommandBuffer),
    VKPOLYFILL_HOOK(EndCommandBuffer, EndCommandBuffer),
    VKPOLYFILL_HOOK(FreeCommandBuffers, FreeCommandBuffers),
    VKPOLYFILL_HOOK(CmdBeginRendering, CmdBeginRendering),
    VKPOLYFILL_HOOK(CmdBeginRenderingKHR, CmdBeginRenderingKHR),
    VKPOLYFILL_HOOK(CmdEndRendering, CmdEndRendering),
    VKPOLYFILL_HOOK(CmdEndRenderingKHR, CmdEndRenderingKHR),
    VKPOLYFILL_HOOK(CmdBindPipeline, CmdBindPipeline),
    VKPOLYFILL_HOOK(CmdBindDescriptorSets, CmdBindDescriptorSets),
    VKPOLYFILL_HOOK(CmdPipelineBarrier, CmdPipelineBarrier),
    VKPOLYFILL_HOOK(CmdPipelineBarrier2, CmdPipelineBarrier2),
    VKPOLYFILL_HOOK(CmdPipelineBarrier2KHR, CmdPipelineBarrier2KHR),
    VKPOLYFILL_HOOK(CmdSetRenderingAttachmentLocations, CmdSetRenderingAttachmentLocations),
    VKPOLYFILL_HOOK(CmdSetRenderingAttachmentLocationsKHR, CmdSetRenderingAttachmentLocationsKHR),
};
// The draws, and the state split draws need, only where a draw may split or sit between an interlock's
// barriers (TileImageOrder::intercepts_draws):
// on lavapipe, whose rasterization order and primitive-order shading serve every read, recording a
// draw costs what it costs without the layer.
const Hook kDrawSplittingHooks[] = {
    VKPOLYFILL_HOOK(CmdDraw, CmdDraw),
    VKPOLYFILL_HOOK(CmdDrawIndexed, CmdDrawIndexed),
    VKPOLYFILL_HOOK(CmdDrawIndirect, CmdDrawIndirect),
    VKPOLYFILL_HOOK(CmdDrawIndexedIndirect, CmdDrawIndexedIndirect),
    VKPOLYFILL_HOOK(CmdDrawIndirectCount, CmdDrawIndirectCount),
    VKPOLYFILL_HOOK(CmdDrawIndirectCountKHR, CmdDrawIndirectCount),
    VKPOLYFILL_HOOK(CmdDrawIndexedIndirectCount, CmdDrawIndexedIndirectCount),
    VKPOLYFILL_HOOK(CmdDrawIndexedIndirectCountKHR, CmdDrawIndexedIndirectCount),
    VKPOLYFILL_HOOK(CmdDrawMultiEXT, CmdDrawMultiEXT),
    VKPOLYFILL_HOOK(CmdDrawMultiIndexedEXT, CmdDrawMultiIndexedEXT),
    VKPOLYFILL_HOOK(CmdDrawMeshTasksEXT, CmdDrawMeshTasksEXT),
    VKPOLYFILL_HOOK(CmdDrawMeshTasksIndirectEXT, CmdDrawMeshTasksIndirectEXT),
    VKPOLYFILL_HOOK(CmdSetPrimitiveTopology, CmdSetPrimitiveTopology),
    VKPOLYFILL_HOOK(CmdSetPrimitiveTopologyEXT, CmdSetPrimitiveTopologyEXT),
    VKPOLYFILL_HOOK(CmdBindIndexBuffer, CmdBindIndexBuffer),
    VKPOLYFILL_HOOK(CmdBindIndexBuffer2, CmdBindIndexBuffer2),
    VKPOLYFILL_HOOK(CmdBindIndexBuffer2KHR, CmdBindIndexBuffer2KHR),
};
// The tensor emulation, where the application enabled the emulated VK_ARM_tensors. Its own commands,
// which the driver lacks:
const Hook kTensorCommands[] = {
    VKPOLYFILL_HOOK(CreateTensorARM, CreateTensorARM),
    VKPOLYFILL_HOOK(DestroyTensorARM, DestroyTensorARM),
    VKPOLYFILL_HOOK(CreateTensorViewARM, CreateTensorViewARM),
    VKPOLYFILL_HOOK(DestroyTensorViewARM, DestroyTensorViewARM),
    VKPOLYFILL_HOOK(GetTensorMemoryRequirementsARM, GetTensorMemoryRequirementsARM),
    VKPOLYFILL_HOOK(GetDeviceTensorMemoryRequirementsARM, GetDeviceTensorMemoryRequirementsARM),
    VKPOLYFILL_HOOK(BindTensorMemoryARM, BindTensorMemoryARM),
    VKPOLYFILL_HOOK(CmdCopyTensorARM, CmdCopyTensorARM),
    VKPOLYFILL_HOOK(GetTensorOpaqueCaptureDescriptorDataARM, GetTensorOpaqueCaptureDescriptorDataARM),
    VKPOLYFILL_HOOK(GetTensorViewOpaqueCaptureDescriptorDataARM, GetTensorViewOpaqueCaptureDescriptorDataARM),
};
// and the device's commands it wraps (descriptors, barriers, what tensor copies restore).
const Hook kTensorHooks[] = {
    VKPOLYFILL_HOOK(AllocateMemory, AllocateMemory),
    VKPOLYFILL_HOOK(SetDebugUtilsObjectNameEXT, TensorSetDebugUtilsObjectNameEXT),
    VKPOLYFILL_HOOK(SetDebugUtilsObjectTagEXT, TensorSetDebugUtilsObjectTagEXT),
    VKPOLYFILL_HOOK(CreateDescriptorSetLayout, CreateDescriptorSetLayout),
    VKPOLYFILL_HOOK(DestroyDescriptorSetLayout, DestroyDescriptorSetLayout),
    VKPOLYFILL_HOOK(GetDescriptorSetLayoutSupport, GetDescriptorSetLayoutSupport),
    VKPOLYFILL_HOOK(GetDescriptorSetLayoutSupportKHR, GetDescriptorSetLayoutSupportKHR),
    VKPOLYFILL_HOOK(CreateDescriptorPool, CreateDescriptorPool),
    VKPOLYFILL_HOOK(DestroyDescriptorPool, DestroyDescriptorPool),
    VKPOLYFILL_HOOK(ResetDescriptorPool, ResetDescriptorPool),
    VKPOLYFILL_HOOK(AllocateDescriptorSets, AllocateDescriptorSets),
    VKPOLYFILL_HOOK(FreeDescriptorSets, FreeDescriptorSets),
    VKPOLYFILL_HOOK(UpdateDescriptorSets, UpdateDescriptorSets),
    VKPOLYFILL_HOOK(CreateDescriptorUpdateTemplate, CreateDescriptorUpdateTemplate),
    VKPOLYFILL_HOOK(CreateDescriptorUpdateTemplateKHR, CreateDescriptorUpdateTemplateKHR),
    VKPOLYFILL_HOOK(DestroyDescriptorUpdateTemplate, DestroyDescriptorUpdateTemplate),
    VKPOLYFILL_HOOK(DestroyDescriptorUpdateTemplateKHR, DestroyDescriptorUpdateTemplateKHR),
    VKPOLYFILL_HOOK(UpdateDescriptorSetWithTemplate, UpdateDescriptorSetWithTemplate),
    VKPOLYFILL_HOOK(UpdateDescriptorSetWithTemplateKHR, UpdateDescriptorSetWithTemplateKHR),
    VKPOLYFILL_HOOK(CmdPushDescriptorSet, CmdPushDescriptorSet),
    VKPOLYFILL_HOOK(CmdPushDescriptorSetKHR, CmdPushDescriptorSetKHR),
    VKPOLYFILL_HOOK(CmdPushDescriptorSetWithTemplate, CmdPushDescriptorSetWithTemplate),
    VKPOLYFILL_HOOK(CmdPushDescriptorSetWithTemplateKHR, CmdPushDescriptorSetWithTemplateKHR),
    VKPOLYFILL_HOOK(CmdPushDescriptorSet2, CmdPushDescriptorSet2),
    VKPOLYFILL_HOOK(CmdPushDescriptorSet2KHR, CmdPushDescriptorSet2KHR),
    VKPOLYFILL_HOOK(CmdPushDescriptorSetWithTemplate2, CmdPushDescriptorSetWithTemplate2),
    VKPOLYFILL_HOOK(CmdPushDescriptorSetWithTemplate2KHR, CmdPushDescriptorSetWithTemplate2KHR),
    VKPOLYFILL_HOOK(CmdPipelineBarrier2, TensorCmdPipelineBarrier2),
    VKPOLYFILL_HOOK(CmdPipelineBarrier2KHR, TensorCmdPipelineBarrier2KHR),
    VKPOLYFILL_HOOK(CmdBindPipeline, TensorCmdBindPipeline),
    VKPOLYFILL_HOOK(CmdBindDescriptorSets, TensorCmdBindDescriptorSets),
    VKPOLYFILL_HOOK(CmdPushConstants, CmdPushConstants),
    VKPOLYFILL_HOOK(CmdBindDescriptorSets2, CmdBindDescriptorSets2),
    VKPOLYFILL_HOOK(CmdBindDescriptorSets2KHR, CmdBindDescriptorSets2KHR),
    VKPOLYFILL_HOOK(CmdPushConstants2, CmdPushConstants2),
    VKPOLYFILL_HOOK(CmdPushConstants2KHR, CmdPushConstants2KHR),
    VKPOLYFILL_HOOK(GetDescriptorEXT, GetDescriptorEXT),
    VKPOLYFILL_HOOK(CmdSetDescriptorBufferOffsetsEXT, CmdSetDescriptorBufferOffsetsEXT),
    VKPOLYFILL_HOOK(CmdSetDescriptorBufferOffsets2EXT, CmdSetDescriptorBufferOffsets2EXT),
    VKPOLYFILL_HOOK(BeginCommandBuffer, TensorBeginCommandBuffer),
    VKPOLYFILL_HOOK(FreeCommandBuffers, TensorFreeCommandBuffers),
};
#undef VKPOLYFILL_HOOK

PFN_vkVoidFunction find_hook(std::span<const Hook> hooks, const char* name) {
    for (const Hook& hook : hooks) {
        if (std::strcmp(hook.name, name) == 0) return hook.function;
    }
    return nullptr;
}

// The layer's own physical-device commands and those of the capabilities it implements.
PFN_vkVoidFunction find_physical_device_hook(const char* name) {
    if (PFN_vkVoidFunction hook = find_hook(kPhysicalDeviceHooks, name)) return hook;
    for (const Capability& capability : implemented_capabilities()) {
        if (PFN_vkVoidFunction hook = find_hook(capability.physical_device_functions, name)) return hook;
    }
    return nullptr;
}

const VkLayerProperties kLayerProperties = [] {
    VkLayerProperties properties{};
    write_string(properties.layerName, kLayerName);
    write_string(properties.description, kLayerDescription);
    properties.specVersion = kLayerApiVersion;
    properties.implementationVersion = kLayerImplementationVersion;
    return properties;
}();

// The proc-addr functions the loader and the lookups use. They are not the exported symbols: in an
// application linked to libvulkan, the loader's own vkGetInstanceProcAddr would interpose on an
// exported name, and the layer would hand the loader its own trampoline.
PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char* pName);

PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance instance, const char* pName) {
    if (std::strcmp(pName, "vkGetInstanceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(get_instance_proc_addr);
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(get_device_proc_addr);
    for (std::span<const Hook> hooks : {std::span<const Hook>(kInstanceHooks), std::span<const Hook>(kDeviceHooks),
                                        std::span<const Hook>(kTensorCommands), std::span<const Hook>(kTensorHooks),
                                        std::span<const Hook>(kShaderHooks), std::span<const Hook>(kTileImageHooks),
                                        std::span<const Hook>(kDrawSplittingHooks)}) {
        if (PFN_vkVoidFunction hook = find_hook(hooks, pName)) return hook;
    }
    if (PFN_vkVoidFunction hook = find_physical_device_hook(pName)) return hook;
    if (instance == VK_NULL_HANDLE) return nullptr;
    return instance_data(instance).next.GetInstanceProcAddr(instance, pName);
}

PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char* pName) {
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(get_device_proc_addr);
    if (PFN_vkVoidFunction hook = find_hook(kDeviceHooks, pName)) return hook;
    const DeviceData& data = device_data(device);
    if (data.tensors) {
        if (PFN_vkVoidFunction hook = find_hook(kTensorCommands, pName)) return hook;
    }
    const PFN_vkVoidFunction next = data.next.GetDeviceProcAddr(device, pName);
    // A command the driver lacks stays absent: the hooks only wrap what is there.
    if (next == nullptr) return next;
    if (data.tensors) {
        if (PFN_vkVoidFunction hook = find_hook(kTensorHooks, pName)) return hook;
    }
    if (data.tile_image) {
        if (PFN_vkVoidFunction hook = find_hook(kTileImageHooks, pName)) return hook;
        if (data.tile_image->order.intercepts_draws()) {
            if (PFN_vkVoidFunction hook = find_hook(kDrawSplittingHooks, pName)) return hook;
        }
    }
    if (!data.shaders) return next;
    if (PFN_vkVoidFunction hook = find_hook(kShaderHooks, pName)) return hook;
    return next;
}

PFN_vkVoidFunction VKAPI_CALL get_physical_device_proc_addr(VkInstance instance, const char* pName) {
    if (PFN_vkVoidFunction hook = find_physical_device_hook(pName)) return hook;
    PFN_GetPhysicalDeviceProcAddr next = instance_data(instance).next_get_physical_device_proc_addr;
    return next ? next(instance, pName) : nullptr;
}

}  // namespace
}  // namespace vkpolyfill

using namespace vkpolyfill;

VKPOLYFILL_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
    return get_instance_proc_addr(instance, pName);
}

VKPOLYFILL_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* pName) {
    return get_device_proc_addr(device, pName);
}

VKPOLYFILL_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_layerGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                           const char* pName) {
    return get_physical_device_proc_addr(instance, pName);
}

VKPOLYFILL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
    if (pVersionStruct == nullptr || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT ||
        pVersionStruct->loaderLayerInterfaceVersion < 2) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    pVersionStruct->loaderLayerInterfaceVersion = 2;
    pVersionStruct->pfnGetInstanceProcAddr = get_instance_proc_addr;
    pVersionStruct->pfnGetDeviceProcAddr = get_device_proc_addr;
    pVersionStruct->pfnGetPhysicalDeviceProcAddr = get_physical_device_proc_addr;
    return VK_SUCCESS;
}

VKPOLYFILL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateInstanceLayerProperties(uint32_t* pPropertyCount,
                                                                                   VkLayerProperties* pProperties) {
    return write_enumeration(std::span(&kLayerProperties, 1), pPropertyCount, pProperties);
}

VKPOLYFILL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pPropertyCount,
                                                                                 VkLayerProperties* pProperties) {
    return write_enumeration(std::span(&kLayerProperties, 1), pPropertyCount, pProperties);
}

VKPOLYFILL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateInstanceExtensionProperties(const char* pLayerName,
                                                                                       uint32_t* pPropertyCount,
                                                                                       VkExtensionProperties* pProperties) {
    if (pLayerName == nullptr || std::strcmp(pLayerName, kLayerName) != 0) return VK_ERROR_LAYER_NOT_PRESENT;
    return write_enumeration(std::span(kLayerInstanceExtensions), pPropertyCount, pProperties);
}

VKPOLYFILL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                                     const char* pLayerName,
                                                                                     uint32_t* pPropertyCount,
                                                                                     VkExtensionProperties* pProperties) {
    return hooks::EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
}
