#include "vulkan_context.h"

#include "enabled_features.h"
#include "spy_records.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <spirv/unified1/spirv.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vk_enum_string_helper.h>

namespace vkpolyfill::test {

const std::string& driver_name() {
    static const std::string name = [] {
        const char* value = std::getenv("VKPOLYFILL_TEST_DRIVER");
        return std::string(value ? value : "");
    }();
    return name;
}

bool validation_requested() {
    const char* value = std::getenv("VKPOLYFILL_TEST_VALIDATION");
    return value != nullptr && std::string_view(value) == "1";
}

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + string_VkResult(result));
}

bool lists_device_extension(VkPhysicalDevice physical_device, std::string_view extension) {
    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(count);
    check(vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()),
          "vkEnumerateDeviceExtensionProperties");
    for (const VkExtensionProperties& e : extensions) {
        if (extension == e.extensionName) return true;
    }
    return false;
}

bool declares_spec_id(std::span<const uint32_t> spirv, uint32_t spec_id) {
    constexpr size_t kHeaderWords = 5;
    for (size_t at = kHeaderWords; at < spirv.size();) {
        const uint32_t count = spirv[at] >> 16;
        if (count == 0 || at + count > spirv.size()) return false;
        if ((spirv[at] & 0xFFFFu) == spv::OpDecorate && count == 4 && spirv[at + 2] == spv::DecorationSpecId &&
            spirv[at + 3] == spec_id) {
            return true;
        }
        at += count;
    }
    return false;
}

Specialization::Specialization(std::span<const uint32_t> spirv, const VkSpecializationInfo* given, uint32_t subgroup_size) {
    if (given) {
        entries_.assign(given->pMapEntries, given->pMapEntries + given->mapEntryCount);
        const auto* bytes = static_cast<const std::byte*>(given->pData);
        data_.assign(bytes, bytes + given->dataSize);
    }
    const bool gives_it = std::any_of(entries_.begin(), entries_.end(), [](const auto& e) { return e.constantID == kSubgroupWorkgroupConstant; });
    if (!gives_it && declares_spec_id(spirv, kSubgroupWorkgroupConstant)) {
        entries_.push_back({kSubgroupWorkgroupConstant, static_cast<uint32_t>(data_.size()), sizeof subgroup_size});
        const auto* bytes = reinterpret_cast<const std::byte*>(&subgroup_size);
        data_.insert(data_.end(), bytes, bytes + sizeof subgroup_size);
    }
    info = {static_cast<uint32_t>(entries_.size()), entries_.data(), data_.size(), data_.data()};
}

namespace {

uint32_t find_compute_queue_family(VkPhysicalDevice physical_device) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i) {
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
    }
    throw std::runtime_error("no compute queue");
}

}  // namespace

uint32_t find_host_visible_memory(VkPhysicalDevice physical_device, uint32_t type_bits) {
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(physical_device, &properties);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
        if ((type_bits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
    throw std::runtime_error("no host-visible coherent memory type");
}

Context::Context(const ContextOptions& options) {
    check(volkInitialize(), "volkInitialize (is the Vulkan loader installed?)");
    std::vector<const char*> layers;
    if (options.layer) layers.push_back(kLayerName);
    if (options.spy) layers.push_back(kSpyLayerName);
    if (validation_requested()) layers.push_back(kValidationLayerName);

    VkApplicationInfo app = vku::InitStructHelper();
    app.pApplicationName = "vkpolyfill-tests";
    app.apiVersion = options.api_version;
    VkInstanceCreateInfo instance_info = vku::InitStructHelper();
    instance_info.pNext = options.instance_next;
    instance_info.pApplicationInfo = &app;
    instance_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    instance_info.ppEnabledLayerNames = layers.data();
    instance_info.enabledExtensionCount = static_cast<uint32_t>(options.instance_extensions.size());
    instance_info.ppEnabledExtensionNames = options.instance_extensions.data();
    check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
    volkLoadInstance(instance);

    uint32_t count = 1;
    VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical_device);
    if (enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) check(enumerated, "vkEnumeratePhysicalDevices");
    if (count == 0) throw std::runtime_error("no physical device");
    queue_family = find_compute_queue_family(physical_device);
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    subgroup_size = subgroup.subgroupSize;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = vku::InitStructHelper();
    queue_info.queueFamilyIndex = queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper();
    features.pNext = options.device_features_next;
    features.features = options.device_features;
    VkDeviceCreateInfo device_info = vku::InitStructHelper();
    device_info.pNext = &features;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = static_cast<uint32_t>(options.device_extensions.size());
    device_info.ppEnabledExtensionNames = options.device_extensions.data();
    tag_enabled_features(features.pNext);
    check(vkCreateDevice(physical_device, &device_info, nullptr, &device), "vkCreateDevice");
    volkLoadDeviceTable(&vk, device);
    vk.vkGetDeviceQueue(device, queue_family, 0, &queue);

    VkCommandPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = queue_family;
    check(vk.vkCreateCommandPool(device, &pool_info, nullptr, &command_pool_), "vkCreateCommandPool");
    const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 256};
    VkDescriptorPoolCreateInfo descriptor_pool_info = vku::InitStructHelper();
    descriptor_pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    descriptor_pool_info.maxSets = 64;
    descriptor_pool_info.poolSizeCount = 1;
    descriptor_pool_info.pPoolSizes = &pool_size;
    check(vk.vkCreateDescriptorPool(device, &descriptor_pool_info, nullptr, &descriptor_pool_), "vkCreateDescriptorPool");
}

Context::~Context() {
    if (device != VK_NULL_HANDLE) {
        vk.vkDeviceWaitIdle(device);
        for (const ComputePipeline& p : pipelines_) {
            vk.vkDestroyPipeline(device, p.pipeline, nullptr);
            vk.vkDestroyPipelineLayout(device, p.layout, nullptr);
            vk.vkDestroyDescriptorSetLayout(device, p.set_layout, nullptr);
            vk.vkDestroyShaderModule(device, p.module, nullptr);
        }
        for (const Buffer& b : buffers_) {
            vk.vkDestroyBuffer(device, b.buffer, nullptr);
            vk.vkFreeMemory(device, b.memory, nullptr);
        }
        vk.vkDestroyDescriptorPool(device, descriptor_pool_, nullptr);
        vk.vkDestroyCommandPool(device, command_pool_, nullptr);
        vk.vkDestroyDevice(device, nullptr);
    }
    if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

Buffer Context::create_buffer(VkDeviceSize size, VkBufferUsageFlags extra_usage) {
    Buffer b;
    b.size = size;
    VkBufferCreateInfo info = vku::InitStructHelper();
    info.size = size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | extra_usage;
    check(vk.vkCreateBuffer(device, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    vk.vkGetBufferMemoryRequirements(device, b.buffer, &requirements);
    VkMemoryAllocateFlagsInfo flags = vku::InitStructHelper();
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate = vku::InitStructHelper((extra_usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : nullptr);
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = find_host_visible_memory(physical_device, requirements.memoryTypeBits);
    check(vk.vkAllocateMemory(device, &allocate, nullptr, &b.memory), "vkAllocateMemory");
    check(vk.vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vk.vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    std::memset(b.mapped, 0, size);
    buffers_.push_back(b);
    return b;
}

VkDeviceAddress Context::address(const Buffer& buffer) const {
    VkBufferDeviceAddressInfo info = vku::InitStructHelper();
    info.buffer = buffer.buffer;
    return vk.vkGetBufferDeviceAddress(device, &info);
}

ComputePipeline Context::create_compute_pipeline(std::span<const uint32_t> spirv, uint32_t storage_buffers,
                                                 uint32_t push_constant_bytes, const VkSpecializationInfo* specialization,
                                                 VkPipelineCreateFlags flags) {
    ComputePipeline p;
    p.storage_buffers = storage_buffers;
    p.module = create_module(spirv);

    std::vector<VkDescriptorSetLayoutBinding> bindings(storage_buffers);
    for (uint32_t i = 0; i < storage_buffers; ++i) {
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = storage_buffers;
    set_info.pBindings = bindings.data();
    check(vk.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &p.set_layout), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &p.set_layout;
    layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    check(vk.vkCreatePipelineLayout(device, &layout_info, nullptr, &p.layout), "vkCreatePipelineLayout");

    const Specialization constants(spirv, specialization, subgroup_size);
    VkComputePipelineCreateInfo pipeline_info = vku::InitStructHelper();
    pipeline_info.flags = flags;
    pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                           p.module, "main", &constants.info};
    pipeline_info.layout = p.layout;
    check(vk.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &p.pipeline),
          "vkCreateComputePipelines");
    pipelines_.push_back(p);
    return p;
}

void Context::run(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBufferAllocateInfo allocate = vku::InitStructHelper();
    allocate.commandPool = command_pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer cb;
    check(vk.vkAllocateCommandBuffers(device, &allocate, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = vku::InitStructHelper();
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vk.vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    record(cb);
    VkMemoryBarrier barrier = vku::InitStructHelper();
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    VkSubmitInfo submit = vku::InitStructHelper();
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    check(vk.vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vk.vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    vk.vkFreeCommandBuffers(device, command_pool_, 1, &cb);
}

VkShaderModule Context::create_module(std::span<const uint32_t> spirv) {
    VkShaderModuleCreateInfo info = vku::InitStructHelper();
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module;
    check(vk.vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
    return module;
}

VkDescriptorSet Context::storage_buffer_set(VkDescriptorSetLayout layout, std::span<const Buffer* const> buffers) {
    VkDescriptorSetAllocateInfo set_alloc = vku::InitStructHelper();
    set_alloc.descriptorPool = descriptor_pool_;
    set_alloc.descriptorSetCount = 1;
    set_alloc.pSetLayouts = &layout;
    VkDescriptorSet set;
    check(vk.vkAllocateDescriptorSets(device, &set_alloc, &set), "vkAllocateDescriptorSets");
    std::vector<VkDescriptorBufferInfo> infos;
    std::vector<VkWriteDescriptorSet> writes;
    infos.reserve(buffers.size());
    for (uint32_t i = 0; i < buffers.size(); ++i) {
        infos.push_back({buffers[i]->buffer, 0, VK_WHOLE_SIZE});
        VkWriteDescriptorSet write = vku::InitStructHelper();
        write.dstSet = set;
        write.dstBinding = i;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = &infos.back();
        writes.push_back(write);
    }
    vk.vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    return set;
}

void Context::dispatch(const ComputePipeline& pipeline, std::span<const Buffer* const> buffers,
                       std::span<const std::byte> push_constants, uint32_t groups_x, uint32_t groups_y, uint32_t groups_z) {
    const VkDescriptorSet set = storage_buffer_set(pipeline.set_layout, buffers);
    run([&](VkCommandBuffer cb) {
        vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
        if (!push_constants.empty()) {
            vk.vkCmdPushConstants(cb, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(push_constants.size()),
                                  push_constants.data());
        }
        vk.vkCmdDispatch(cb, groups_x, groups_y, groups_z);
    });
    check(vk.vkFreeDescriptorSets(device, descriptor_pool_, 1, &set), "vkFreeDescriptorSets");
}

std::vector<uint32_t> read_shader(const std::string& path) {
    return read_words(std::string(VKPOLYFILL_SHADER_DIR) + "/" + path + ".spv");
}

VkShaderCreateInfoEXT spirv_shader_info(VkShaderStageFlagBits stage, const std::vector<uint32_t>& code) {
    VkShaderCreateInfoEXT info = vku::InitStructHelper();
    info.stage = stage;
    info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
    info.codeSize = code.size() * sizeof(uint32_t);
    info.pCode = code.data();
    info.pName = "main";
    return info;
}

}  // namespace vkpolyfill::test
