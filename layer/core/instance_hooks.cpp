// vkCreateInstance / vkDestroyInstance and the debug-utils messenger bookkeeping.
#include <cstring>

#include "core/extension_list.h"
#include "core/hooks.h"
#include "core/instance_data.h"
#include "layer_info.h"
#include "core/layer_link.h"

namespace vkpolyfill::hooks {
namespace {

// Messengers chained to the create info hear messages sent while vkCreateInstance runs.
int count_chained_messengers(const VkInstanceCreateInfo* create_info) {
    int count = 0;
    for (auto* s = static_cast<const VkBaseInStructure*>(create_info->pNext); s; s = s->pNext) {
        count += s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    }
    return count;
}

// force_emulation entries must name an extension this build emulates (or be "all").
void check_force_emulation(const Settings& settings, std::vector<std::string>& problems) {
    for (const std::string& name : settings.force_emulation) {
        bool known = name == "all";
        for (const Capability& capability : implemented_capabilities()) known |= name == capability.extension;
        if (!known) problems.push_back("force_emulation names " + name + ", which this build does not emulate; ignored");
    }
}

std::string join(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ",") + item;
    return text.empty() ? "none" : text;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo, const VkAllocationCallbacks* pAllocator,
                                              VkInstance* pInstance) {
    auto* link = find_layer_link<VkLayerInstanceCreateInfo>(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_GetPhysicalDeviceProcAddr next_gpdpa = link->u.pLayerInfo->pfnNextGetPhysicalDeviceProcAddr;
    auto next_create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
    if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

    std::vector<std::string> problems;
    Settings settings = read_settings(pCreateInfo, problems);
    check_force_emulation(settings, problems);

    // The next layer finds its own link in the same chain.
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    const VkResult result = next_create(pCreateInfo, pAllocator, pInstance);
    if (result != VK_SUCCESS) return result;

    auto data = std::make_shared<InstanceData>(*pInstance, std::move(settings));
    vkuInitInstanceDispatchTable(*pInstance, &data->next, next_gipa);
    data->next_get_physical_device_proc_addr = next_gpdpa;
    data->api_version = pCreateInfo->pApplicationInfo ? pCreateInfo->pApplicationInfo->apiVersion : VK_API_VERSION_1_0;
    if (enables_extension(pCreateInfo, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) && data->next.SubmitDebugUtilsMessageEXT) {
        data->logger.attach_debug_utils(*pInstance, data->next.SubmitDebugUtilsMessageEXT);
    }
    const int chained = count_chained_messengers(pCreateInfo);
    for (int i = 0; i < chained; ++i) data->logger.messenger_created();
    for (const std::string& problem : problems) data->logger.log(LogLevel::Warning, "vkpolyfill-settings", problem);
    data->logger.log(LogLevel::Debug, "vkpolyfill-instance",
                     std::string(kLayerName) + " " + kLayerVersionString + " active: log_level=" +
                         to_string(data->settings.log_level) + " validate_output=" +
                         (data->settings.validate_output ? "true" : "false") +
                         " force_emulation=" + join(data->settings.force_emulation) +
                         " uniform_loads=" + to_string(data->settings.uniform_loads) +
                         " matrix_layout=" + to_string(data->settings.matrix_layout) +
                         " distributed_a=" + to_string(data->settings.distributed_a) +
                         " matrix_units=" + to_string(data->settings.matrix_units) +
                         " tensor_loops=" + to_string(data->settings.tensor_loops) +
                         " tile_image_indexing=" + to_string(data->settings.tile_image_indexing) +
                         " tile_image_ordering=" + to_string(data->settings.tile_image_ordering));
    for (int i = 0; i < chained; ++i) data->logger.messenger_destroyed();
    instances().insert(dispatch_key(*pInstance), std::move(data));
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
    if (instance == VK_NULL_HANDLE) return;
    std::shared_ptr<InstanceData> data = instances().pop(dispatch_key(instance));
    data->next.DestroyInstance(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
    InstanceData& data = instance_data(instance);
    const VkResult result = data.next.CreateDebugUtilsMessengerEXT(instance, pCreateInfo, pAllocator, pMessenger);
    if (result == VK_SUCCESS) data.logger.messenger_created();
    return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
    InstanceData& data = instance_data(instance);
    data.next.DestroyDebugUtilsMessengerEXT(instance, messenger, pAllocator);
    if (messenger != VK_NULL_HANDLE) data.logger.messenger_destroyed();
}

}  // namespace vkpolyfill::hooks
