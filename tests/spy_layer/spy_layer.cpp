// A test-only layer placed below vkpolyfill: it records what reaches the driver, so tests compare
// that with what the application passed (an independent view of the layer's output).
//
// With VKPOLYFILL_SPY_DIR set it writes, in call order:
//   NNNN-module.spv       the words of every vkCreateShaderModule
//   NNNN-stage.spv        the words of every stage-inline VkShaderModuleCreateInfo in a pipeline
//   NNNN-shader.spv       the words of every vkCreateShadersEXT SPIR-V shader
//   NNNN-device.txt       the extensions enabled at vkCreateDevice, one per line
//   NNNN-chain.txt        the sType of every struct chained to that VkDeviceCreateInfo, one per line
//   NNNN-draw.txt         "<vertex or index count> <instance count>" of every vkCmdDraw and vkCmdDrawIndexed
//   NNNN-swapchain.txt    the imageUsage of every vkCreateSwapchainKHR, in hexadecimal
// With VKPOLYFILL_SPY_FAIL_COMPUTE_PIPELINES set it plays a driver whose compiler fails: every
// vkCreateComputePipelines returns VK_ERROR_UNKNOWN with null handles, without calling down.
// With VKPOLYFILL_SPY_MODULE_IDENTIFIERS set it plays a driver with VK_EXT_shader_module_identifier
// (spy_module_identifiers.h), with VKPOLYFILL_SPY_PIPELINE_BINARIES one with VK_KHR_pipeline_binary
// (spy_pipeline_binaries.h); a test sets one of them.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>

#include <vulkan/vk_layer.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "spy_module_identifiers.h"
#include "spy_modules.h"
#include "spy_pipeline_binaries.h"
#include "spy_played_extensions.h"

#define SPY_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::mutex g_mutex;
struct InstanceLink {
    VkInstance instance;
    PFN_vkGetInstanceProcAddr next;
};
std::unordered_map<void*, InstanceLink> g_instances;  // by dispatch key (shared with physical devices)
std::unordered_map<void*, PFN_vkGetDeviceProcAddr> g_device_next;
std::unordered_map<void*, VkDevice> g_devices;  // by dispatch key (shared with command buffers)
std::atomic<int> g_sequence = 0;

void* key(void* handle) { return *static_cast<void**>(handle); }

InstanceLink instance_link(void* handle) {
    std::lock_guard lock(g_mutex);
    return g_instances.at(key(handle));
}

PFN_vkGetDeviceProcAddr device_next(VkDevice device) {
    std::lock_guard lock(g_mutex);
    return g_device_next.at(key(device));
}

FILE* open_record(const char* suffix) {
    const char* dir = std::getenv("VKPOLYFILL_SPY_DIR");
    if (dir == nullptr) return nullptr;
    char name[64];
    std::snprintf(name, sizeof(name), "/%04d-%s", g_sequence++, suffix);
    return std::fopen((std::string(dir) + name).c_str(), "wb");
}

void record_words(const char* suffix, const uint32_t* words, size_t size) {
    if (FILE* f = open_record(suffix)) {
        std::fwrite(words, 1, size, f);
        std::fclose(f);
    }
}

void record_stages(const VkPipelineShaderStageCreateInfo* stages, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        if (auto* inline_module = vku::FindStructInPNextChain<VkShaderModuleCreateInfo>(stages[i].pNext)) {
            record_words("stage.spv", inline_module->pCode, inline_module->codeSize);
        }
    }
}

template <typename Info, typename Link>
Link* find_link(const Info* info, VkStructureType type) {
    for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
        auto* link = reinterpret_cast<Link*>(const_cast<VkBaseInStructure*>(s));
        if (s->sType == type && link->function == VK_LAYER_LINK_INFO) return link;
    }
    return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
    auto* link = find_link<VkInstanceCreateInfo, VkLayerInstanceCreateInfo>(info, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
    VkResult result = create(info, allocator, instance);
    if (result == VK_SUCCESS) {
        std::lock_guard lock(g_mutex);
        g_instances[key(*instance)] = {*instance, next};
    }
    return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical_device, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
    auto* link = find_link<VkDeviceCreateInfo, VkLayerDeviceCreateInfo>(info, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    auto create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(instance_link(physical_device).instance, "vkCreateDevice"));
    if (FILE* f = open_record("device.txt")) {
        for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) std::fprintf(f, "%s\n", info->ppEnabledExtensionNames[i]);
        std::fclose(f);
    }
    if (FILE* f = open_record("chain.txt")) {
        for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) std::fprintf(f, "%d\n", s->sType);
        std::fclose(f);
    }
    VkDeviceCreateInfo driver_info = *info;
    const std::vector<const char*> extensions = spy::without_played(*info);
    if (extensions.size() != info->enabledExtensionCount) {
        driver_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
        driver_info.ppEnabledExtensionNames = extensions.data();
    }
    VkResult result = create(physical_device, &driver_info, allocator, device);
    if (result == VK_SUCCESS) {
        std::lock_guard lock(g_mutex);
        g_device_next[key(*device)] = next_gdpa;
        g_devices[key(*device)] = *device;
    }
    return result;
}

template <typename PFN>
PFN next_device_function(VkDevice device, const char* name) {
    return reinterpret_cast<PFN>(device_next(device)(device, name));
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator, VkShaderModule* module) {
    record_words("module.spv", info->pCode, info->codeSize);
    const VkResult result = next_device_function<PFN_vkCreateShaderModule>(device, "vkCreateShaderModule")(device, info, allocator, module);
    if (result == VK_SUCCESS && (spy::plays(spy::kModuleIdentifiers) || spy::plays(spy::kPipelineBinaries))) {
        spy::note_module(*module, *info);
    }
    return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    for (uint32_t i = 0; i < count; ++i) record_stages(&infos[i].stage, 1);
    if (std::getenv("VKPOLYFILL_SPY_FAIL_COMPUTE_PIPELINES") != nullptr) {
        std::fill_n(pipelines, count, VK_NULL_HANDLE);
        return VK_ERROR_UNKNOWN;
    }
    const auto next = next_device_function<PFN_vkCreateComputePipelines>(device, "vkCreateComputePipelines");
    if (spy::plays(spy::kPipelineBinaries)) {
        return spy::create_compute_pipelines_with_binaries(next, device, cache, count, infos, allocator, pipelines);
    }
    if (spy::plays(spy::kModuleIdentifiers)) return spy::create_compute_pipelines(next, device, cache, count, infos, allocator, pipelines);
    return next(device, cache, count, infos, allocator, pipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                       const VkGraphicsPipelineCreateInfo* infos,
                                                       const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    for (uint32_t i = 0; i < count; ++i) record_stages(infos[i].pStages, infos[i].stageCount);
    return next_device_function<PFN_vkCreateGraphicsPipelines>(device, "vkCreateGraphicsPipelines")(device, cache, count, infos,
                                                                                                     allocator, pipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShadersEXT(VkDevice device, uint32_t count, const VkShaderCreateInfoEXT* infos,
                                                const VkAllocationCallbacks* allocator, VkShaderEXT* shaders) {
    for (uint32_t i = 0; i < count; ++i) {
        if (infos[i].codeType == VK_SHADER_CODE_TYPE_SPIRV_EXT) {
            record_words("shader.spv", static_cast<const uint32_t*>(infos[i].pCode), infos[i].codeSize);
        }
    }
    return next_device_function<PFN_vkCreateShadersEXT>(device, "vkCreateShadersEXT")(device, count, infos, allocator, shaders);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* info,
                                                  const VkAllocationCallbacks* allocator, VkSwapchainKHR* swapchain) {
    if (FILE* f = open_record("swapchain.txt")) {
        std::fprintf(f, "%x\n", info->imageUsage);
        std::fclose(f);
    }
    return next_device_function<PFN_vkCreateSwapchainKHR>(device, "vkCreateSwapchainKHR")(device, info, allocator, swapchain);
}

void record_draw(uint32_t count, uint32_t instances) {
    if (FILE* f = open_record("draw.txt")) {
        std::fprintf(f, "%u %u\n", count, instances);
        std::fclose(f);
    }
}

// Command buffers reach the layer below through their device's dispatch key.
template <typename Function>
Function next_command_function(VkCommandBuffer command_buffer, const char* name) {
    VkDevice device;
    {
        std::lock_guard lock(g_mutex);
        device = g_devices.at(key(command_buffer));
    }
    return reinterpret_cast<Function>(device_next(device)(device, name));
}

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer command_buffer, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                                   uint32_t first_instance) {
    record_draw(vertex_count, instance_count);
    next_command_function<PFN_vkCmdDraw>(command_buffer, "vkCmdDraw")(command_buffer, vertex_count, instance_count, first_vertex,
                                                                      first_instance);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer command_buffer, uint32_t index_count, uint32_t instance_count,
                                          uint32_t first_index, int32_t vertex_offset, uint32_t first_instance) {
    record_draw(index_count, instance_count);
    next_command_function<PFN_vkCmdDrawIndexed>(command_buffer, "vkCmdDrawIndexed")(command_buffer, index_count, instance_count,
                                                                                    first_index, vertex_offset, first_instance);
}

struct Hook {
    const char* name;
    PFN_vkVoidFunction function;
};
#define SPY_HOOK(name) Hook{"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(name)}
const Hook kDeviceHooks[] = {SPY_HOOK(CreateShaderModule), SPY_HOOK(CreateComputePipelines), SPY_HOOK(CreateGraphicsPipelines),
                             SPY_HOOK(CreateShadersEXT), SPY_HOOK(CreateSwapchainKHR), SPY_HOOK(CmdDraw),
                             SPY_HOOK(CmdDrawIndexed)};

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physical_device, const char* layer_name,
                                                                  uint32_t* count, VkExtensionProperties* properties) {
    const InstanceLink link = instance_link(physical_device);
    const auto next = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
        link.next(link.instance, "vkEnumerateDeviceExtensionProperties"));
    if (layer_name != nullptr) return next(physical_device, layer_name, count, properties);
    return spy::list_with_played(next, physical_device, count, properties);
}

#define SPY_PLAYED(name) Hook{"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(spy::name)}
const Hook kModuleIdentifierHooks[] = {SPY_PLAYED(GetShaderModuleIdentifierEXT), SPY_PLAYED(GetShaderModuleCreateInfoIdentifierEXT)};
const Hook kPipelineBinaryHooks[] = {SPY_PLAYED(GetPipelineKeyKHR), SPY_PLAYED(CreatePipelineBinariesKHR),
                                     SPY_PLAYED(DestroyPipelineBinaryKHR), SPY_PLAYED(GetPipelineBinaryDataKHR),
                                     SPY_PLAYED(ReleaseCapturedPipelineDataKHR)};

PFN_vkVoidFunction find_hook(std::span<const Hook> hooks, const char* name) {
    for (const Hook& hook : hooks) {
        if (std::strcmp(hook.name, name) == 0) return hook.function;
    }
    return nullptr;
}

PFN_vkVoidFunction find_device_hook(const char* name) {
    if (PFN_vkVoidFunction hook = find_hook(kDeviceHooks, name)) return hook;
    if (spy::plays(spy::kModuleIdentifiers)) {
        if (PFN_vkVoidFunction hook = find_hook(kModuleIdentifierHooks, name)) return hook;
    }
    if (spy::plays(spy::kPipelineBinaries)) return find_hook(kPipelineBinaryHooks, name);
    return nullptr;
}

}  // namespace

SPY_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) {
    if (PFN_vkVoidFunction hook = find_device_hook(name)) return hook;
    return device_next(device)(device, name);
}

SPY_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) {
    if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(CreateInstance);
    if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(CreateDevice);
    if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(vkGetInstanceProcAddr);
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(vkGetDeviceProcAddr);
    if (std::strcmp(name, "vkEnumerateDeviceExtensionProperties") == 0) {
        return reinterpret_cast<PFN_vkVoidFunction>(EnumerateDeviceExtensionProperties);
    }
    if (PFN_vkVoidFunction hook = find_device_hook(name)) return hook;
    if (instance == VK_NULL_HANDLE) return nullptr;
    return instance_link(instance).next(instance, name);
}

SPY_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
    if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
    version->pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    version->pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    version->pfnGetPhysicalDeviceProcAddr = nullptr;
    return VK_SUCCESS;
}
