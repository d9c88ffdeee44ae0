#include "arm_tensor_device.h"

#include <algorithm>
#include <cstring>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

uint32_t host_visible_type(VkPhysicalDevice physical_device, uint32_t bits) {
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical_device, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if ((bits & (1u << i)) && (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) return i;
    }
    throw std::runtime_error("no host-visible coherent memory type");
}

}  // namespace

uint32_t element_size(VkFormat format) {
    switch (format) {
        case VK_FORMAT_R8_UINT:
        case VK_FORMAT_R8_SINT:
        case VK_FORMAT_R8_BOOL_ARM:
        case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM:
        case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM: return 1;
        case VK_FORMAT_R16_UINT:
        case VK_FORMAT_R16_SINT:
        case VK_FORMAT_R16_SFLOAT:
        case VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM: return 2;
        case VK_FORMAT_R64_UINT:
        case VK_FORMAT_R64_SINT:
        case VK_FORMAT_R64_SFLOAT: return 8;
        default: return 4;
    }
}

size_t TestTensor::offset(const std::vector<uint64_t>& coordinates) const {
    size_t offset = 0;
    for (size_t d = 0; d < coordinates.size(); ++d) offset += coordinates[d] * strides[d];
    return offset;
}

VkTensorDescriptionARM tensor_description(VkFormat format, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& strides,
                                          VkTensorUsageFlagsARM usage) {
    VkTensorDescriptionARM description = vku::InitStructHelper();
    description.tiling = strides.empty() ? VK_TENSOR_TILING_OPTIMAL_ARM : VK_TENSOR_TILING_LINEAR_ARM;
    description.format = format;
    description.dimensionCount = static_cast<uint32_t>(dimensions.size());
    description.pDimensions = dimensions.data();
    description.pStrides = strides.empty() ? nullptr : strides.data();
    description.usage = usage;
    return description;
}

TensorDevice::TensorDevice(const TensorDeviceOptions& options) {
    VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer = vku::InitStructHelper();
    descriptor_buffer.descriptorBuffer = VK_TRUE;
    VkPhysicalDeviceDescriptorBufferTensorFeaturesARM tensor_descriptors = vku::InitStructHelper(&descriptor_buffer);
    tensor_descriptors.descriptorBufferTensorDescriptors = VK_TRUE;
    VkPhysicalDeviceMaintenance6Features maintenance6 = vku::InitStructHelper(options.descriptor_buffer ? &tensor_descriptors : nullptr);
    maintenance6.maintenance6 = VK_TRUE;
    VkPhysicalDeviceTensorFeaturesARM features = vku::InitStructHelper(
        options.maintenance6 ? static_cast<void*>(&maintenance6) : options.descriptor_buffer ? &tensor_descriptors : nullptr);
    features.tensors = VK_TRUE;
    features.tensorNonPacked = VK_TRUE;
    features.shaderTensorAccess = VK_TRUE;
    features.shaderStorageTensorArrayDynamicIndexing = VK_TRUE;
    features.shaderStorageTensorArrayNonUniformIndexing = VK_TRUE;
    features.descriptorBindingStorageTensorUpdateAfterBind = VK_TRUE;
    VkPhysicalDeviceVulkan12Features vulkan12 = vku::InitStructHelper(&features);
    vulkan12.descriptorBindingPartiallyBound = VK_TRUE;
    vulkan12.descriptorBindingVariableDescriptorCount = VK_TRUE;
    vulkan12.bufferDeviceAddress = options.descriptor_buffer;
    vulkan12.vulkanMemoryModel = VK_TRUE;  // for modules with the memory-model tensor operands
    vulkan12.vulkanMemoryModelDeviceScope = VK_TRUE;
    VkPhysicalDeviceVulkan13Features vulkan13 = vku::InitStructHelper(&vulkan12);
    vulkan13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceFeatures core{};
    core.fragmentStoresAndAtomics = VK_TRUE;  // fragment shaders writing tensors
    std::vector<const char*> extensions{VK_ARM_TENSORS_EXTENSION_NAME, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    if (options.descriptor_buffer) extensions.push_back(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
    if (options.maintenance6) extensions.push_back(VK_KHR_MAINTENANCE_6_EXTENSION_NAME);
    context_ = std::make_unique<Context>(ContextOptions{
        .instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
        .device_extensions = extensions,
        .device_features_next = &vulkan13,
        .device_features = core});
    messenger_ = std::make_unique<ScopedMessenger>(context_->instance, messages);
}

TensorDevice::~TensorDevice() {
    const VolkDeviceTable& vk = context_->vk;
    vk.vkDeviceWaitIdle(context_->device);
    for (VkTensorViewARM view : views_) vk.vkDestroyTensorViewARM(context_->device, view, nullptr);
    if (!views_.empty()) covers("vkDestroyTensorViewARM");
    if (!tensors_.empty()) covers("vkDestroyTensorARM");
    for (const TestTensor& t : tensors_) {
        vk.vkDestroyTensorARM(context_->device, t.tensor, nullptr);
        vk.vkFreeMemory(context_->device, t.memory, nullptr);
    }
    messenger_.reset();
}

TestTensor TensorDevice::create(VkFormat format, std::vector<int64_t> dimensions, std::vector<int64_t> strides,
                                VkTensorUsageFlagsARM usage) {
    const VolkDeviceTable& vk = context_->vk;
    const VkDevice device = context_->device;
    TestTensor t;
    const VkTensorDescriptionARM description = tensor_description(format, dimensions, strides, usage);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    check(vk.vkCreateTensorARM(device, &info, nullptr, &t.tensor), "vkCreateTensorARM");
    VkTensorMemoryRequirementsInfoARM requirements_info = vku::InitStructHelper();
    requirements_info.tensor = t.tensor;
    VkMemoryRequirements2 requirements = vku::InitStructHelper();
    vk.vkGetTensorMemoryRequirementsARM(device, &requirements_info, &requirements);
    t.size = requirements.memoryRequirements.size;
    // Canaries on both sides: the tensor is bound at an aligned offset past the first.
    const VkDeviceSize alignment = std::max<VkDeviceSize>(requirements.memoryRequirements.alignment, kCanaryBytes);
    const VkDeviceSize offset = (kCanaryBytes + alignment - 1) / alignment * alignment;
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = offset + t.size + kCanaryBytes;
    allocate.memoryTypeIndex = host_visible_type(context_->physical_device, requirements.memoryRequirements.memoryTypeBits);
    check(vk.vkAllocateMemory(device, &allocate, nullptr, &t.memory), "vkAllocateMemory");
    VkBindTensorMemoryInfoARM bind = vku::InitStructHelper();
    bind.tensor = t.tensor;
    bind.memory = t.memory;
    bind.memoryOffset = offset;
    check(vk.vkBindTensorMemoryARM(device, 1, &bind), "vkBindTensorMemoryARM");
    for (const char* command : {"vkCreateTensorARM", "vkGetTensorMemoryRequirementsARM", "vkBindTensorMemoryARM"}) covers(command);
    void* mapped = nullptr;
    check(vk.vkMapMemory(device, t.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    std::memset(mapped, static_cast<int>(kCanary), allocate.allocationSize);
    t.canary = static_cast<std::byte*>(mapped) + offset - kCanaryBytes;
    t.data = static_cast<std::byte*>(mapped) + offset;
    t.dimensions = dimensions;
    t.element_size = element_size(format);
    t.strides = strides;
    if (t.strides.empty()) {  // packed: the specification's rule
        t.strides.resize(dimensions.size());
        int64_t stride = t.element_size;
        for (size_t d = dimensions.size(); d-- > 0;) {
            t.strides[d] = stride;
            stride *= dimensions[d];
        }
    }
    tensors_.push_back(t);
    return t;
}

VkTensorViewARM TensorDevice::view(const TestTensor& tensor, VkFormat format) {
    VkTensorViewCreateInfoARM info = vku::InitStructHelper();
    info.tensor = tensor.tensor;
    info.format = format;
    VkTensorViewARM view = VK_NULL_HANDLE;
    check(context_->vk.vkCreateTensorViewARM(context_->device, &info, nullptr, &view), "vkCreateTensorViewARM");
    covers("vkCreateTensorViewARM");
    views_.push_back(view);
    return view;
}

bool TensorDevice::canaries_intact(const TestTensor& tensor) {
    const auto intact = [](const std::byte* begin) { return std::all_of(begin, begin + kCanaryBytes, [](std::byte b) { return b == kCanary; }); };
    return intact(tensor.canary) && intact(tensor.data + tensor.size);
}

void TensorDevice::run(const std::function<void(VkCommandBuffer)>& record) { context_->run(record); }

}  // namespace vkpolyfill::test

namespace vkpolyfill::test {

TensorComputePipeline::TensorComputePipeline(TensorDevice& device, const std::string& shader, const std::vector<std::vector<Binding>>& sets,
                                             uint32_t push_constant_bytes)
    : TensorComputePipeline(device, read_shader(shader), sets, push_constant_bytes) {}

TensorComputePipeline::TensorComputePipeline(TensorDevice& device, std::span<const uint32_t> code,
                                             const std::vector<std::vector<Binding>>& sets, uint32_t push_constant_bytes)
    : device_(device) {
    Context& c = device.context();
    std::vector<VkDescriptorPoolSize> sizes;
    for (const std::vector<Binding>& set : sets) {
        std::vector<VkDescriptorSetLayoutBinding> bindings;
        for (uint32_t b = 0; b < set.size(); ++b) {
            bindings.push_back({b, set[b].type, set[b].count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
            sizes.push_back({set[b].type, set[b].count});
        }
        VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper();
        info.bindingCount = static_cast<uint32_t>(bindings.size());
        info.pBindings = bindings.data();
        VkDescriptorSetLayout layout;
        check(c.vk.vkCreateDescriptorSetLayout(c.device, &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
        set_layouts_.push_back(layout);
    }
    VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.maxSets = static_cast<uint32_t>(sets.size());
    pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    check(c.vk.vkCreateDescriptorPool(c.device, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = static_cast<uint32_t>(set_layouts_.size());
    allocate.pSetLayouts = set_layouts_.data();
    sets_.resize(set_layouts_.size());
    check(c.vk.vkAllocateDescriptorSets(c.device, &allocate, sets_.data()), "vkAllocateDescriptorSets");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = static_cast<uint32_t>(set_layouts_.size());
    layout_info.pSetLayouts = set_layouts_.data();
    layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");
    pipeline_ = create_shader_pipeline(c, code, layout_, 0, module_);
}

VkPipelineLayout create_one_set_layout(Context& c, std::span<const VkDescriptorSetLayoutBinding> bindings,
                                       VkDescriptorSetLayoutCreateFlags flags, uint32_t push_constant_bytes, VkDescriptorSetLayout& set_layout) {
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.flags = flags;
    set_info.bindingCount = static_cast<uint32_t>(bindings.size());
    set_info.pBindings = bindings.data();
    check(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    return layout;
}

VkPipeline create_shader_pipeline(Context& c, std::span<const uint32_t> code, VkPipelineLayout layout, VkPipelineCreateFlags flags,
                                  VkShaderModule& module) {
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = code.size_bytes();
    module_info.pCode = code.data();
    check(c.vk.vkCreateShaderModule(c.device, &module_info, nullptr, &module), "vkCreateShaderModule");
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.flags = flags;
    info.stage = vku::InitStructHelper();
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(c.vk.vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
    return pipeline;
}

TensorComputePipeline::~TensorComputePipeline() {
    Context& c = device_.context();
    c.vk.vkDestroyPipeline(c.device, pipeline_, nullptr);
    c.vk.vkDestroyShaderModule(c.device, module_, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, layout_, nullptr);
    c.vk.vkDestroyDescriptorPool(c.device, pool_, nullptr);
    for (VkDescriptorSetLayout layout : set_layouts_) c.vk.vkDestroyDescriptorSetLayout(c.device, layout, nullptr);
}

void TensorComputePipeline::write_tensors(uint32_t set, uint32_t binding, const std::vector<VkTensorViewARM>& views) {
    Context& c = device_.context();
    VkWriteDescriptorSetTensorARM tensors = vku::InitStructHelper();
    tensors.tensorViewCount = static_cast<uint32_t>(views.size());
    tensors.pTensorViews = views.data();
    VkWriteDescriptorSet write = vku::InitStructHelper(&tensors);
    write.dstSet = sets_[set];
    write.dstBinding = binding;
    write.descriptorCount = tensors.tensorViewCount;
    write.descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
    c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
}

void TensorComputePipeline::write_buffer(uint32_t set, uint32_t binding, const Buffer& buffer) {
    Context& c = device_.context();
    const VkDescriptorBufferInfo info{buffer.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = vku::InitStructHelper();
    write.dstSet = sets_[set];
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &info;
    c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
}

void TensorComputePipeline::dispatch(uint32_t x, uint32_t y, uint32_t z, std::span<const std::byte> push_constants) {
    Context& c = device_.context();
    device_.run([&](VkCommandBuffer cb) {
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, static_cast<uint32_t>(sets_.size()), sets_.data(), 0,
                                     nullptr);
        if (!push_constants.empty()) {
            c.vk.vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(push_constants.size()),
                                    push_constants.data());
        }
        c.vk.vkCmdDispatch(cb, x, y, z);
    });
}

}  // namespace vkpolyfill::test
