// vkCreateShaderModule / vkDestroyShaderModule / vkSetDebugUtilsObjectNameEXT and the module identifier
// queries on devices that have DeviceShaders (device_shaders.h). A module using an emulated capability
// is kept by the layer (its words and hash) while the driver gets a placeholder; every other module
// reaches the driver untouched.
#include <format>

#include <vkpolyfill/lowering/lower.h>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/module_identifier.h"
#include "pipelines/placeholder_module.h"

namespace vkpolyfill::hooks {

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator, VkShaderModule* pShaderModule) {
    const DeviceData& data = device_data(device);
    if (!data.shaders || !data.shaders->needs_lowering(code_words(*pCreateInfo))) {
        return data.next.CreateShaderModule(device, pCreateInfo, pAllocator, pShaderModule);
    }
    std::shared_ptr<const CapturedModule> captured;
    try {
        captured = capture(code_words(*pCreateInfo));
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    VkShaderModuleCreateInfo placeholder = *pCreateInfo;
    placeholder.codeSize = placeholder_module().size_bytes();
    placeholder.pCode = placeholder_module().data();
    const VkResult result = data.next.CreateShaderModule(device, &placeholder, pAllocator, pShaderModule);
    if (result != VK_SUCCESS) return result;
    try {
        data.shaders->modules.add(*pShaderModule, std::move(captured));
        const Logger& logger = data.instance->logger;
        if (logger.enabled(LogLevel::Debug)) {
            logger.log(LogLevel::Debug, "vkpolyfill-module",
                       std::format("{}: kept for lowering at pipeline creation ({} words); the driver holds a placeholder",
                                   handle_text("VkShaderModule", reinterpret_cast<uint64_t>(*pShaderModule)),
                                   pCreateInfo->codeSize / sizeof(uint32_t)));
        }
    } catch (...) {
        data.next.DestroyShaderModule(device, *pShaderModule, pAllocator);
        *pShaderModule = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
    const DeviceData& data = device_data(device);
    if (data.shaders && shaderModule != VK_NULL_HANDLE) data.shaders->modules.remove(shaderModule);
    data.next.DestroyShaderModule(device, shaderModule, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* pNameInfo) {
    const DeviceData& data = device_data(device);
    if (data.shaders && pNameInfo->objectType == VK_OBJECT_TYPE_SHADER_MODULE) {
        try {
            data.shaders->modules.set_name(reinterpret_cast<VkShaderModule>(pNameInfo->objectHandle), pNameInfo->pObjectName);
        } catch (...) {
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    return data.next.SetDebugUtilsObjectNameEXT(device, pNameInfo);
}

VKAPI_ATTR void VKAPI_CALL GetShaderModuleIdentifierEXT(VkDevice device, VkShaderModule shaderModule,
                                                        VkShaderModuleIdentifierEXT* pIdentifier) {
    const DeviceData& data = device_data(device);
    const std::shared_ptr<const CapturedModule> captured = data.shaders ? data.shaders->modules.find(shaderModule) : nullptr;
    if (!captured) return data.next.GetShaderModuleIdentifierEXT(device, shaderModule, pIdentifier);
    write_module_identifier(captured->hash, data.shaders->target, *pIdentifier);
}

// The identifier vkCreateShaderModule's module would have: the layer's for code it would keep.
VKAPI_ATTR void VKAPI_CALL GetShaderModuleCreateInfoIdentifierEXT(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                                  VkShaderModuleIdentifierEXT* pIdentifier) {
    const DeviceData& data = device_data(device);
    if (!data.shaders || !data.shaders->needs_lowering(code_words(*pCreateInfo))) {
        return data.next.GetShaderModuleCreateInfoIdentifierEXT(device, pCreateInfo, pIdentifier);
    }
    write_module_identifier(hash_of(code_words(*pCreateInfo)), data.shaders->target, *pIdentifier);
}

}  // namespace vkpolyfill::hooks
