#include "core/physical_device_facts.h"

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

// Chains `node` in front of `*head` when `present`: a query may only carry structs of extensions the
// driver has.
template <typename T>
void chain_if(bool present, T& node, void*& head) {
    if (!present) return;
    node = vku::InitStruct<T>(head);
    head = &node;
}

void read_extensions(VkPhysicalDevice physical_device, const VkuInstanceDispatchTable& next, PhysicalDeviceFacts& facts) {
    uint32_t count = 0;
    if (next.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) return;
    facts.extensions.resize(count);
    if (next.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, facts.extensions.data()) != VK_SUCCESS) {
        count = 0;
    }
    facts.extensions.resize(count);
}

void read_cooperative_matrix_configurations(VkPhysicalDevice physical_device, const VkuInstanceDispatchTable& next,
                                            PhysicalDeviceFacts& facts) {
    const auto query = next.GetPhysicalDeviceCooperativeMatrixPropertiesKHR;
    uint32_t count = 0;
    if (!facts.khr_cooperative_matrix.cooperativeMatrix || !query || query(physical_device, &count, nullptr) != VK_SUCCESS) return;
    facts.khr_cooperative_matrix_configurations.assign(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
    if (query(physical_device, &count, facts.khr_cooperative_matrix_configurations.data()) != VK_SUCCESS) count = 0;
    facts.khr_cooperative_matrix_configurations.resize(count);
}

}  // namespace

uint32_t PhysicalDeviceFacts::native_spec_version(std::string_view extension) const {
    for (const VkExtensionProperties& e : extensions) {
        if (extension == e.extensionName) return e.specVersion;
    }
    return 0;
}

PhysicalDeviceFacts read_physical_device_facts(VkPhysicalDevice physical_device, const VkuInstanceDispatchTable& next) {
    PhysicalDeviceFacts facts;
    next.GetPhysicalDeviceProperties(physical_device, &facts.properties);
    next.GetPhysicalDeviceFeatures(physical_device, &facts.features);
    read_extensions(physical_device, next, facts);

    // Without the version-2 queries (a 1.0 instance without VK_KHR_get_physical_device_properties2)
    // the application cannot query the extensions' features either: the layer then adds nothing.
    PFN_vkGetPhysicalDeviceFeatures2 features2 =
        next.GetPhysicalDeviceFeatures2 ? next.GetPhysicalDeviceFeatures2 : next.GetPhysicalDeviceFeatures2KHR;
    PFN_vkGetPhysicalDeviceProperties2 properties2 =
        next.GetPhysicalDeviceProperties2 ? next.GetPhysicalDeviceProperties2 : next.GetPhysicalDeviceProperties2KHR;
    facts.has_properties2 = features2 && properties2 && facts.properties.apiVersion >= VK_API_VERSION_1_1;
    if (!facts.has_properties2) return facts;

    const uint32_t api = facts.properties.apiVersion;
    void* head = nullptr;
    chain_if(api >= VK_API_VERSION_1_1, facts.vulkan11, head);
    chain_if(api >= VK_API_VERSION_1_2, facts.vulkan12, head);
    chain_if(api >= VK_API_VERSION_1_3, facts.vulkan13, head);
    chain_if(facts.native_spec_version(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME) != 0, facts.khr_cooperative_matrix, head);
    chain_if(facts.native_spec_version(VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME) != 0, facts.nv_cooperative_matrix2, head);
    chain_if(facts.native_spec_version(VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME) != 0, facts.shader_tile_image, head);
    chain_if(facts.native_spec_version(VK_ARM_TENSORS_EXTENSION_NAME) != 0, facts.arm_tensors, head);
    chain_if(facts.native_spec_version(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME) != 0, facts.shader_bfloat16, head);
    chain_if(api >= VK_API_VERSION_1_4 || facts.native_spec_version(VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME) != 0,
             facts.local_read, head);
    chain_if(facts.native_spec_version(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME) != 0,
             facts.rasterization_order, head);
    chain_if(facts.native_spec_version(VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME) != 0, facts.fragment_shader_interlock, head);
    const bool descriptor_buffer = facts.native_spec_version(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME) != 0;
    chain_if(descriptor_buffer, facts.descriptor_buffer, head);
    VkPhysicalDeviceFeatures2 features = vku::InitStruct<VkPhysicalDeviceFeatures2>(head);
    features2(physical_device, &features);

    head = nullptr;
    chain_if(true, facts.subgroup, head);
    chain_if(api >= VK_API_VERSION_1_3 || facts.native_spec_version(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME) != 0,
             facts.subgroup_size_control, head);
    chain_if(api >= VK_API_VERSION_1_2 || facts.native_spec_version(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME) != 0,
             facts.driver, head);
    chain_if(api >= VK_API_VERSION_1_2, facts.vulkan12_properties, head);
    chain_if(api >= VK_API_VERSION_1_4, facts.vulkan14_properties, head);
    chain_if(descriptor_buffer, facts.descriptor_buffer_properties, head);
    VkPhysicalDeviceProperties2 properties = vku::InitStruct<VkPhysicalDeviceProperties2>(head);
    properties2(physical_device, &properties);

    read_cooperative_matrix_configurations(physical_device, next, facts);

    // The chains pointed into this object's own members; a copy must not keep those pointers.
    for (VkBaseOutStructure* s : {reinterpret_cast<VkBaseOutStructure*>(&facts.vulkan11),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.vulkan12),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.vulkan13),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.khr_cooperative_matrix),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.nv_cooperative_matrix2),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.shader_tile_image),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.arm_tensors),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.shader_bfloat16),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.local_read),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.vulkan12_properties),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.vulkan14_properties),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.rasterization_order),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.fragment_shader_interlock),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.descriptor_buffer),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.descriptor_buffer_properties),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.subgroup),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.subgroup_size_control),
                                  reinterpret_cast<VkBaseOutStructure*>(&facts.driver)}) {
        s->pNext = nullptr;
    }
    return facts;
}

}  // namespace vkpolyfill
