#include "tile_image_renderer.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include <vulkan/utility/vk_format_utils.h>
#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::test::tile_image {
namespace {

struct Vertex {
    float position[4];
    float color[4];
    uint32_t patch;
};

float to_ndc(uint32_t pixel, uint32_t size) { return 2.0f * static_cast<float>(pixel) / static_cast<float>(size) - 1.0f; }

// Each patch's triangles clockwise in the framebuffer (y down), whatever the topology: a strip's odd
// triangle (v1, v3, v2) and a fan's (v1, v2, v0), (v2, v3, v0) included.
std::vector<Vertex> vertices(const std::vector<Patch>& patches, uint32_t size, VkPrimitiveTopology topology) {
    std::vector<Vertex> out;
    for (const Patch& p : patches) {
        const float x0 = to_ndc(p.x0, size), x1 = to_ndc(p.x1, size), y0 = to_ndc(p.y0, size), y1 = to_ndc(p.y1, size);
        const float z = p.depth();
        const float list[6][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}};
        const float strip[4][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
        const float fan[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        const float(*corners)[2] = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ? strip
                                   : topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN  ? fan
                                                                                     : list;
        for (uint32_t i = 0; i < vertices_per_patch(topology); ++i) {
            out.push_back({{corners[i][0], corners[i][1], z, 1.0f}, {p.color[0], p.color[1], p.color[2], p.color[3]}, p.index});
        }
    }
    return out;
}

// One instance per patch (SceneSpec::instanced): its rectangle (x0, y0, x1, y1) in normalized device
// coordinates where a vertex has its position.
std::vector<Vertex> instances(const std::vector<Patch>& patches, uint32_t size) {
    std::vector<Vertex> out;
    for (const Patch& p : patches) {
        out.push_back({{to_ndc(p.x0, size), to_ndc(p.y0, size), to_ndc(p.x1, size), to_ndc(p.y1, size)},
                       {p.color[0], p.color[1], p.color[2], p.color[3]},
                       p.index});
    }
    return out;
}

const char* vertex_shader(const SceneSpec& spec) {
    return spec.instanced ? "tests/tile_image/patch_instanced.vert" : "tests/tile_image/patch.vert";
}

VkVertexInputRate input_rate(const SceneSpec& spec) { return spec.instanced ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX; }

VkCullModeFlags cull_mode(VkPrimitiveTopology topology) {
    return topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT;
}

// The patch vertex shader's inputs: location i is kAttributes[i].
struct Attribute {
    VkFormat format;
    uint32_t offset;
};
constexpr Attribute kAttributes[] = {
    {VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, position)},
    {VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)},
    {VK_FORMAT_R32_UINT, offsetof(Vertex, patch)},
};
// Every patch increments the stencil; depth and stencil tests always pass.
constexpr VkStencilOpState kStencil{VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                                    0xff, 0xff, 0};
// Source-over, when the spec blends.
constexpr VkColorBlendEquationEXT kBlend{VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                                         VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD};

// The spec's constants 0.. as 32-bit specialization constants.
struct SpecializationConstants {
    explicit SpecializationConstants(const std::vector<uint32_t>& values) {
        for (uint32_t i = 0; i < values.size(); ++i) entries.push_back({i, i * 4u, 4});
        info = {static_cast<uint32_t>(entries.size()), entries.data(), values.size() * 4, values.data()};
    }
    std::vector<VkSpecializationMapEntry> entries;
    VkSpecializationInfo info;
};

std::string readback_shader(VkFormat format, bool multisampled) {
    const char* kind = vkuFormatIsUINT(format) ? "uint" : vkuFormatIsSINT(format) ? "sint" : "float";
    return std::string("tests/tile_image/readback_") + kind + (multisampled ? "_ms" : "") + ".comp";
}

VkImageMemoryBarrier2 image_barrier(VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                                    VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                    VkAccessFlags2 dst_access) {
    VkImageMemoryBarrier2 barrier = vku::InitStructHelper();
    barrier.srcStageMask = src_stage;
    barrier.srcAccessMask = src_access;
    barrier.dstStageMask = dst_stage;
    barrier.dstAccessMask = dst_access;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {aspect, 0, 1, 0, 1};
    return barrier;
}

void barrier(const VolkDeviceTable& vk, VkCommandBuffer command_buffer, std::span<const VkImageMemoryBarrier2> images,
             std::span<const VkMemoryBarrier2> memory = {}, VkDependencyFlags flags = 0) {
    VkDependencyInfo info = vku::InitStructHelper();
    info.dependencyFlags = flags;
    info.memoryBarrierCount = static_cast<uint32_t>(memory.size());
    info.pMemoryBarriers = memory.data();
    info.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
    info.pImageMemoryBarriers = images.data();
    vk.vkCmdPipelineBarrier2(command_buffer, &info);
}

}  // namespace

uint32_t vertices_per_patch(VkPrimitiveTopology topology) { return topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST ? 6 : 4; }

struct SceneRenderer::Image {
    VkImage image;
    VkImageView view;
};

SceneRenderer::SceneRenderer(Context& context) : context_(context) {
    const VolkDeviceTable& vk = context_.vk;
    VkCommandPoolCreateInfo pool = vku::InitStructHelper();
    pool.queueFamilyIndex = context_.queue_family;
    check(vk.vkCreateCommandPool(context_.device, &pool, nullptr, &pool_), "vkCreateCommandPool");
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 16}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16}};
    VkDescriptorPoolCreateInfo descriptor_pool = vku::InitStructHelper();
    descriptor_pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    descriptor_pool.maxSets = 16;
    descriptor_pool.poolSizeCount = 2;
    descriptor_pool.pPoolSizes = sizes;
    check(vk.vkCreateDescriptorPool(context_.device, &descriptor_pool, nullptr, &descriptor_pool_), "vkCreateDescriptorPool");
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
    };
    VkDescriptorSetLayoutCreateInfo set = vku::InitStructHelper();
    set.bindingCount = 2;
    set.pBindings = bindings;
    check(vk.vkCreateDescriptorSetLayout(context_.device, &set, nullptr, &readback_set_layout_), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange readback_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo readback = vku::InitStructHelper();
    readback.setLayoutCount = 1;
    readback.pSetLayouts = &readback_set_layout_;
    readback.pushConstantRangeCount = 1;
    readback.pPushConstantRanges = &readback_range;
    check(vk.vkCreatePipelineLayout(context_.device, &readback, nullptr, &readback_layout_), "vkCreatePipelineLayout");
    const VkPushConstantRange graphics_range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    VkPipelineLayoutCreateInfo graphics = vku::InitStructHelper();
    graphics.pushConstantRangeCount = 1;
    graphics.pPushConstantRanges = &graphics_range;
    check(vk.vkCreatePipelineLayout(context_.device, &graphics, nullptr, &graphics_layout_), "vkCreatePipelineLayout");
    VkDescriptorSetLayoutCreateInfo empty = vku::InitStructHelper();
    check(vk.vkCreateDescriptorSetLayout(context_.device, &empty, nullptr, &empty_set_layout_), "vkCreateDescriptorSetLayout");
}

SceneRenderer::~SceneRenderer() {
    const VolkDeviceTable& vk = context_.vk;
    vk.vkDeviceWaitIdle(context_.device);
    destroy_transients();
    vk.vkDestroyPipelineLayout(context_.device, graphics_layout_, nullptr);
    vk.vkDestroyDescriptorSetLayout(context_.device, empty_set_layout_, nullptr);
    vk.vkDestroyPipelineLayout(context_.device, readback_layout_, nullptr);
    vk.vkDestroyDescriptorSetLayout(context_.device, readback_set_layout_, nullptr);
    vk.vkDestroyDescriptorPool(context_.device, descriptor_pool_, nullptr);
    vk.vkDestroyCommandPool(context_.device, pool_, nullptr);
}

void SceneRenderer::destroy_transients() {
    const VolkDeviceTable& vk = context_.vk;
    for (VkPipeline p : pipelines_) vk.vkDestroyPipeline(context_.device, p, nullptr);
    for (VkPipelineLayout l : pipeline_layouts_) vk.vkDestroyPipelineLayout(context_.device, l, nullptr);
    pipeline_layouts_.clear();
    for (VkShaderEXT shader : shaders_) vk.vkDestroyShaderEXT(context_.device, shader, nullptr);
    shaders_.clear();
    for (VkShaderModule m : modules_) vk.vkDestroyShaderModule(context_.device, m, nullptr);
    for (VkImageView v : views_) vk.vkDestroyImageView(context_.device, v, nullptr);
    for (VkImage i : images_) vk.vkDestroyImage(context_.device, i, nullptr);
    for (VkBuffer b : buffers_) vk.vkDestroyBuffer(context_.device, b, nullptr);
    for (VkDeviceMemory m : memories_) vk.vkFreeMemory(context_.device, m, nullptr);
    pipelines_.clear();
    modules_.clear();
    views_.clear();
    images_.clear();
    buffers_.clear();
    memories_.clear();
    vk.vkResetDescriptorPool(context_.device, descriptor_pool_, 0);
}

VkBuffer SceneRenderer::host_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void* contents) {
    const VolkDeviceTable& vk = context_.vk;
    VkBufferCreateInfo info = vku::InitStructHelper();
    info.size = size;
    info.usage = usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vk.vkCreateBuffer(context_.device, &info, nullptr, &buffer), "vkCreateBuffer");
    buffers_.push_back(buffer);
    VkMemoryRequirements requirements;
    vk.vkGetBufferMemoryRequirements(context_.device, buffer, &requirements);
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex =
        memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(vk.vkAllocateMemory(context_.device, &allocate, nullptr, &memory), "vkAllocateMemory");
    memories_.push_back(memory);
    check(vk.vkBindBufferMemory(context_.device, buffer, memory, 0), "vkBindBufferMemory");
    void* mapped = nullptr;
    check(vk.vkMapMemory(context_.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    std::memcpy(mapped, contents, size);
    return buffer;
}

uint32_t SceneRenderer::memory_type(uint32_t bits, VkMemoryPropertyFlags flags) const {
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(context_.physical_device, &properties);
    for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
        if ((bits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & flags) == flags) return i;
    }
    throw std::runtime_error("no suitable memory type");
}

VkShaderModule SceneRenderer::module(const std::string& path) {
    const std::vector<uint32_t> words = read_shader(path);
    VkShaderModuleCreateInfo info = vku::InitStructHelper();
    info.codeSize = words.size() * sizeof(uint32_t);
    info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(context_.vk.vkCreateShaderModule(context_.device, &info, nullptr, &module), "vkCreateShaderModule");
    modules_.push_back(module);
    return module;
}

SceneRenderer::Image SceneRenderer::create_image(VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                                                 VkImageAspectFlags aspect, uint32_t size) {
    const VolkDeviceTable& vk = context_.vk;
    VkImageCreateInfo info = vku::InitStructHelper();
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {size, size, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    Image image{};
    check(vk.vkCreateImage(context_.device, &info, nullptr, &image.image), "vkCreateImage");
    images_.push_back(image.image);
    VkMemoryRequirements requirements;
    vk.vkGetImageMemoryRequirements(context_.device, image.image, &requirements);
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = memory_type(requirements.memoryTypeBits, 0);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(vk.vkAllocateMemory(context_.device, &allocate, nullptr, &memory), "vkAllocateMemory");
    memories_.push_back(memory);
    check(vk.vkBindImageMemory(context_.device, image.image, memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo view = vku::InitStructHelper();
    view.image = image.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {aspect, 0, 1, 0, 1};
    check(vk.vkCreateImageView(context_.device, &view, nullptr, &image.view), "vkCreateImageView");
    views_.push_back(image.view);
    return image;
}

VkPipelineLayout SceneRenderer::graphics_layout(const SceneSpec& spec) {
    if (spec.descriptor_sets == 0) return graphics_layout_;
    const std::vector<VkDescriptorSetLayout> sets(spec.descriptor_sets, empty_set_layout_);
    const VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};  // as graphics_layout_'s: push constants stay compatible
    VkPipelineLayoutCreateInfo info = vku::InitStructHelper();
    info.setLayoutCount = spec.descriptor_sets;
    info.pSetLayouts = sets.data();
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(context_.vk.vkCreatePipelineLayout(context_.device, &info, nullptr, &layout), "vkCreatePipelineLayout");
    pipeline_layouts_.push_back(layout);
    return layout;
}

VkPipeline SceneRenderer::create_pipeline(const SceneSpec& spec, VkPipelineCreateFlags flags) {
    return graphics_pipeline(spec, module(vertex_shader(spec)), module(spec.fragment_shader), flags);
}

VkPipeline SceneRenderer::graphics_pipeline(const SceneSpec& spec, VkShaderModule vertex, VkShaderModule fragment,
                                            VkPipelineCreateFlags flags) {
    const SpecializationConstants constants(spec.constants);
    const VkSpecializationInfo& specialization = constants.info;
    const VkPipelineShaderStageCreateInfo stages[] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vertex, "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fragment, "main",
         &specialization},
    };
    const VkVertexInputBindingDescription binding{0, sizeof(Vertex), input_rate(spec)};
    VkVertexInputAttributeDescription attributes[3];
    for (uint32_t i = 0; i < 3; ++i) attributes[i] = {i, 0, kAttributes[i].format, kAttributes[i].offset};
    VkPipelineVertexInputStateCreateInfo vertex_input = vku::InitStructHelper();
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &binding;
    vertex_input.vertexAttributeDescriptionCount = 3;
    vertex_input.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo assembly = vku::InitStructHelper();
    assembly.topology = spec.topology;
    VkPipelineViewportStateCreateInfo viewport = vku::InitStructHelper();
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rasterization = vku::InitStructHelper();
    rasterization.cullMode = cull_mode(spec.topology);
    rasterization.frontFace = VK_FRONT_FACE_CLOCKWISE;
    rasterization.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample = vku::InitStructHelper();
    multisample.rasterizationSamples = spec.samples;
    VkPipelineDepthStencilStateCreateInfo depth_stencil = vku::InitStructHelper();
    depth_stencil.depthTestEnable = VK_TRUE;
    depth_stencil.depthWriteEnable = VK_TRUE;
    depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    depth_stencil.stencilTestEnable = VK_TRUE;
    depth_stencil.front = kStencil;
    depth_stencil.back = depth_stencil.front;
    VkPipelineColorBlendAttachmentState blend{};
    blend.blendEnable = spec.blend;
    blend.srcColorBlendFactor = kBlend.srcColorBlendFactor;
    blend.dstColorBlendFactor = kBlend.dstColorBlendFactor;
    blend.colorBlendOp = kBlend.colorBlendOp;
    blend.srcAlphaBlendFactor = kBlend.srcAlphaBlendFactor;
    blend.dstAlphaBlendFactor = kBlend.dstAlphaBlendFactor;
    blend.alphaBlendOp = kBlend.alphaBlendOp;
    blend.colorWriteMask = 0xf;
    const std::vector<VkPipelineColorBlendAttachmentState> blends(spec.colors.size(), blend);
    VkPipelineColorBlendStateCreateInfo color_blend = vku::InitStructHelper();
    color_blend.attachmentCount = static_cast<uint32_t>(blends.size());
    color_blend.pAttachments = blends.data();
    const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic = vku::InitStructHelper();
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;
    VkPipelineRenderingCreateInfo rendering = vku::InitStructHelper();
    rendering.colorAttachmentCount = static_cast<uint32_t>(spec.colors.size());
    rendering.pColorAttachmentFormats = spec.colors.data();
    rendering.depthAttachmentFormat = spec.depth_stencil;
    rendering.stencilAttachmentFormat = spec.depth_stencil;
    VkRenderingAttachmentLocationInfo locations = vku::InitStructHelper();
    locations.colorAttachmentCount = static_cast<uint32_t>(spec.locations.size());
    locations.pColorAttachmentLocations = spec.locations.data();
    if (!spec.locations.empty()) rendering.pNext = &locations;

    VkGraphicsPipelineCreateInfo info = vku::InitStructHelper(&rendering);
    info.flags = flags;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &rasterization;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth_stencil;
    info.pColorBlendState = &color_blend;
    info.pDynamicState = &dynamic;
    info.layout = graphics_layout(spec);
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(context_.vk.vkCreateGraphicsPipelines(context_.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
    pipelines_.push_back(pipeline);
    return pipeline;
}

void SceneRenderer::create_shader_objects(const SceneSpec& spec) {
    const std::vector<uint32_t> vertex = read_shader(vertex_shader(spec));
    const std::vector<uint32_t> fragment = read_shader(spec.fragment_shader);
    const SpecializationConstants constants(spec.constants);
    const VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};  // as graphics_layout_ has
    VkShaderCreateInfoEXT infos[2] = {spirv_shader_info(VK_SHADER_STAGE_VERTEX_BIT, vertex),
                                      spirv_shader_info(VK_SHADER_STAGE_FRAGMENT_BIT, fragment)};
    const std::vector<VkDescriptorSetLayout> sets(spec.descriptor_sets, empty_set_layout_);
    for (VkShaderCreateInfoEXT& info : infos) {
        info.pushConstantRangeCount = 1;
        info.pPushConstantRanges = &push;
        info.setLayoutCount = spec.descriptor_sets;
        info.pSetLayouts = sets.data();
    }
    infos[0].nextStage = VK_SHADER_STAGE_FRAGMENT_BIT;
    infos[1].pSpecializationInfo = &constants.info;
    shaders_.assign(2, VK_NULL_HANDLE);
    check(context_.vk.vkCreateShadersEXT(context_.device, 2, infos, nullptr, shaders_.data()), "vkCreateShadersEXT");
}

void SceneRenderer::bind_shader_objects(VkCommandBuffer cb, const SceneSpec& spec) const {
    const VolkDeviceTable& vk = context_.vk;
    const VkShaderStageFlagBits stages[] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                                            VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT,
                                            VK_SHADER_STAGE_FRAGMENT_BIT};
    const VkShaderEXT shaders[] = {shaders_[0], VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, shaders_[1]};
    vk.vkCmdBindShadersEXT(cb, 5, stages, shaders);
    VkVertexInputBindingDescription2EXT binding = vku::InitStructHelper();
    binding.stride = sizeof(Vertex);
    binding.inputRate = input_rate(spec);
    binding.divisor = 1;
    VkVertexInputAttributeDescription2EXT attributes[3];
    for (uint32_t i = 0; i < 3; ++i) {
        attributes[i] = vku::InitStructHelper();
        attributes[i].location = i;
        attributes[i].format = kAttributes[i].format;
        attributes[i].offset = kAttributes[i].offset;
    }
    vk.vkCmdSetVertexInputEXT(cb, 1, &binding, 3, attributes);
    vk.vkCmdSetPrimitiveTopology(cb, spec.topology);
    vk.vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
    vk.vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
    vk.vkCmdSetPolygonModeEXT(cb, VK_POLYGON_MODE_FILL);
    vk.vkCmdSetCullMode(cb, cull_mode(spec.topology));
    vk.vkCmdSetFrontFace(cb, VK_FRONT_FACE_CLOCKWISE);
    vk.vkCmdSetDepthBiasEnable(cb, VK_FALSE);
    vk.vkCmdSetRasterizationSamplesEXT(cb, spec.samples);
    const VkSampleMask mask = ~0u;
    vk.vkCmdSetSampleMaskEXT(cb, spec.samples, &mask);
    vk.vkCmdSetAlphaToCoverageEnableEXT(cb, VK_FALSE);
    vk.vkCmdSetDepthTestEnable(cb, VK_TRUE);
    vk.vkCmdSetDepthWriteEnable(cb, VK_TRUE);
    vk.vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_ALWAYS);
    vk.vkCmdSetDepthBoundsTestEnable(cb, VK_FALSE);
    vk.vkCmdSetStencilTestEnable(cb, VK_TRUE);
    vk.vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK, kStencil.failOp, kStencil.passOp, kStencil.depthFailOp,
                         kStencil.compareOp);
    vk.vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, kStencil.compareMask);
    vk.vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, kStencil.writeMask);
    vk.vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, kStencil.reference);
    const uint32_t colors = static_cast<uint32_t>(spec.colors.size());
    if (colors == 0) return;
    const std::vector<VkBool32> blend(colors, spec.blend);
    const std::vector<VkColorBlendEquationEXT> equations(colors, kBlend);
    const std::vector<VkColorComponentFlags> write_masks(colors, 0xf);
    vk.vkCmdSetLogicOpEnableEXT(cb, VK_FALSE);
    vk.vkCmdSetColorBlendEnableEXT(cb, 0, colors, blend.data());
    vk.vkCmdSetColorBlendEquationEXT(cb, 0, colors, equations.data());
    vk.vkCmdSetColorWriteMaskEXT(cb, 0, colors, write_masks.data());
}

void SceneRenderer::read_back(VkCommandBuffer command_buffer, const Image& image, VkFormat format, uint32_t samples, uint32_t size,
                              VkBuffer buffer) {
    const VolkDeviceTable& vk = context_.vk;
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                  module(readback_shader(format, samples > 1)), "main", nullptr};
    info.layout = readback_layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vk.vkCreateComputePipelines(context_.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
    pipelines_.push_back(pipeline);
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
    allocate.descriptorPool = descriptor_pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &readback_set_layout_;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vk.vkAllocateDescriptorSets(context_.device, &allocate, &set), "vkAllocateDescriptorSets");
    const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkDescriptorBufferInfo buffer_info{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2] = {vku::InitStructHelper(), vku::InitStructHelper()};
    writes[0].dstSet = set;
    writes[0].dstBinding = 0;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    writes[0].pImageInfo = &image_info;
    writes[1].dstSet = set;
    writes[1].dstBinding = 1;
    writes[1].descriptorCount = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[1].pBufferInfo = &buffer_info;
    vk.vkUpdateDescriptorSets(context_.device, 2, writes, 0, nullptr);
    vk.vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vk.vkCmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, readback_layout_, 0, 1, &set, 0, nullptr);
    const uint32_t constants[] = {size, samples};
    vk.vkCmdPushConstants(command_buffer, readback_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
    vk.vkCmdDispatch(command_buffer, size, size, 1);
}

VkCommandBuffer SceneRenderer::allocate_commands(VkCommandBufferLevel level) {
    VkCommandBufferAllocateInfo allocate = vku::InitStructHelper();
    allocate.commandPool = pool_;
    allocate.level = level;
    allocate.commandBufferCount = 1;
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    check(context_.vk.vkAllocateCommandBuffers(context_.device, &allocate, &command_buffer), "vkAllocateCommandBuffers");
    return command_buffer;
}

VkCommandBuffer SceneRenderer::begin_commands() {
    const VkCommandBuffer command_buffer = allocate_commands(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin = vku::InitStructHelper();
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(context_.vk.vkBeginCommandBuffer(command_buffer, &begin), "vkBeginCommandBuffer");
    return command_buffer;
}

VkCommandBuffer SceneRenderer::begin_secondary(const SceneSpec& spec) {
    const VkCommandBuffer command_buffer = allocate_commands(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
    secondaries_.push_back(command_buffer);
    VkCommandBufferInheritanceRenderingInfo rendering = vku::InitStructHelper();
    rendering.colorAttachmentCount = static_cast<uint32_t>(spec.colors.size());
    rendering.pColorAttachmentFormats = spec.colors.data();
    rendering.depthAttachmentFormat = spec.depth_stencil;
    rendering.stencilAttachmentFormat = spec.depth_stencil;
    rendering.rasterizationSamples = spec.samples;
    VkCommandBufferInheritanceInfo inheritance = vku::InitStructHelper();
    VkCommandBufferBeginInfo begin = vku::InitStructHelper();
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (spec.recording == Recording::ContinuingSecondary) {
        inheritance.pNext = &rendering;
        begin.flags |= VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
    }
    begin.pInheritanceInfo = &inheritance;
    check(context_.vk.vkBeginCommandBuffer(command_buffer, &begin), "vkBeginCommandBuffer");
    return command_buffer;
}

void SceneRenderer::submit(VkCommandBuffer command_buffer) {
    const VolkDeviceTable& vk = context_.vk;
    VkSubmitInfo submit = vku::InitStructHelper();
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffer;
    check(vk.vkQueueSubmit(context_.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vk.vkQueueWaitIdle(context_.queue), "vkQueueWaitIdle");
    vk.vkFreeCommandBuffers(context_.device, pool_, 1, &command_buffer);
    if (!secondaries_.empty()) vk.vkFreeCommandBuffers(context_.device, pool_, static_cast<uint32_t>(secondaries_.size()), secondaries_.data());
    secondaries_.clear();
}

std::vector<Samples> SceneRenderer::render(const SceneSpec& spec, const std::vector<Patch>& patches) {
    using Clock = std::chrono::steady_clock;
    const VolkDeviceTable& vk = context_.vk;
    destroy_transients();
    const uint32_t samples = spec.samples;
    const uint32_t size = spec.size;
    const bool depth_stencil = spec.depth_stencil != VK_FORMAT_UNDEFINED;

    const std::vector<Vertex> vertex_data = spec.instanced ? instances(patches, size) : vertices(patches, size, spec.topology);
    const VkBuffer vertex_buffer = host_buffer(vertex_data.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_data.data());
    std::vector<uint32_t> index_data(spec.instanced ? vertices_per_patch(spec.topology) : vertex_data.size());
    for (uint32_t i = 0; i < index_data.size(); ++i) index_data[i] = i;
    const VkBuffer index_buffer =
        spec.alternate_indexed ? host_buffer(index_data.size() * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, index_data.data())
                               : VK_NULL_HANDLE;
    std::vector<Image> colors;
    std::vector<Buffer> readbacks;
    for (VkFormat format : spec.colors) {
        colors.push_back(create_image(format, spec.samples, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                      VK_IMAGE_ASPECT_COLOR_BIT, size));
        readbacks.push_back(context_.create_buffer(VkDeviceSize{size} * size * samples * sizeof(Texel)));
    }
    const VkImageAspectFlags ds_aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    const Image ds = depth_stencil
                         ? create_image(spec.depth_stencil, spec.samples, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, ds_aspects, size)
                         : Image{};
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (spec.shader_objects) {
        create_shader_objects(spec);
    } else {
        pipeline = graphics_pipeline(spec, module(vertex_shader(spec)), module(spec.fragment_shader));
    }

    const auto record_start = Clock::now();
    VkCommandBuffer cb = begin_commands();
    const VkPipelineStageFlags2 fragment_tests = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    std::vector<VkRenderingAttachmentInfo> attachments;
    for (const Image& image : colors) {
        VkRenderingAttachmentInfo attachment = vku::InitStructHelper();
        attachment.imageView = image.view;
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        attachments.push_back(attachment);
    }
    VkRenderingAttachmentInfo ds_attachment = vku::InitStructHelper();
    ds_attachment.imageView = ds.view;
    ds_attachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    ds_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    ds_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo rendering = vku::InitStructHelper();
    rendering.renderArea = {{0, 0}, {size, size}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = static_cast<uint32_t>(attachments.size());
    rendering.pColorAttachments = attachments.data();
    rendering.pDepthAttachment = depth_stencil ? &ds_attachment : nullptr;
    rendering.pStencilAttachment = depth_stencil ? &ds_attachment : nullptr;
    const VkViewport viewport{0, 0, static_cast<float>(size), static_cast<float>(size), 0, 1};
    const VkRect2D scissor{{0, 0}, {size, size}};
    const VkDeviceSize offset = 0;

    for (uint32_t frame = 0; frame < spec.frames; ++frame) {
        // Into the attachment layouts: from nothing at first, then after the previous frame's writes.
        const VkImageLayout from_color = frame ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
        const VkImageLayout from_ds = frame ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
        std::vector<VkImageMemoryBarrier2> to_attachment;
        for (const Image& image : colors) {
            to_attachment.push_back(image_barrier(image.image, VK_IMAGE_ASPECT_COLOR_BIT, from_color, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT));
        }
        if (depth_stencil) {
            to_attachment.push_back(image_barrier(ds.image, ds_aspects, from_ds, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                                  fragment_tests, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, fragment_tests,
                                                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT));
        }
        barrier(vk, cb, to_attachment);
        // The primary, or a secondary that begins the render pass instance or continues the primary's.
        const VkCommandBuffer primary = cb;
        const VkCommandBuffer secondary = spec.recording == Recording::Primary ? VK_NULL_HANDLE : begin_secondary(spec);
        const VkCommandBuffer pass_cb = spec.recording == Recording::Secondary ? secondary : primary;
        rendering.flags = spec.recording == Recording::ContinuingSecondary ? VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT : 0;
        vk.vkCmdBeginRendering(pass_cb, &rendering);
        cb = secondary ? secondary : primary;
        if (!spec.locations.empty()) {
            VkRenderingAttachmentLocationInfo locations = vku::InitStructHelper();
            locations.colorAttachmentCount = static_cast<uint32_t>(spec.locations.size());
            locations.pColorAttachmentLocations = spec.locations.data();
            vk.vkCmdSetRenderingAttachmentLocationsKHR(cb, &locations);
        }
        if (spec.shader_objects) {
            bind_shader_objects(cb, spec);
            vk.vkCmdSetViewportWithCount(cb, 1, &viewport);
            vk.vkCmdSetScissorWithCount(cb, 1, &scissor);
        } else {
            vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            vk.vkCmdSetViewport(cb, 0, 1, &viewport);
            vk.vkCmdSetScissor(cb, 0, 1, &scissor);
        }
        vk.vkCmdPushConstants(cb, graphics_layout_, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &spec.first_attachment);
        vk.vkCmdBindVertexBuffers(cb, 0, 1, &vertex_buffer, &offset);
        if (index_buffer) vk.vkCmdBindIndexBuffer(cb, index_buffer, 0, VK_INDEX_TYPE_UINT32);
        uint32_t first = 0;
        for (size_t draw = 0; draw < spec.patches_per_draw.size(); ++draw) {
            const uint32_t count = spec.patches_per_draw[draw];
            if (spec.barriers) {  // what the extension asks of non-coherent reads (VK-GL-CTS records the same)
                VkMemoryBarrier2 memory[2] = {vku::InitStructHelper(), vku::InitStructHelper()};
                memory[0].srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
                memory[0].srcAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
                memory[0].dstStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
                memory[0].dstAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT;
                memory[1].srcStageMask = fragment_tests;
                memory[1].srcAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
                memory[1].dstStageMask = fragment_tests;
                memory[1].dstAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
                barrier(vk, cb, {}, std::span(memory, depth_stencil ? 2 : 1), VK_DEPENDENCY_BY_REGION_BIT);
            }
            const uint32_t per_patch = vertices_per_patch(spec.topology);
            if (spec.instanced && index_buffer && draw % 2 == 0) {
                vk.vkCmdDrawIndexed(cb, per_patch, count, 0, 0, first);
            } else if (spec.instanced) {
                vk.vkCmdDraw(cb, per_patch, count, 0, first);
            } else if (index_buffer && draw % 2 == 0) {
                vk.vkCmdDrawIndexed(cb, per_patch * count, 1, per_patch * first, 0, 0);
            } else {
                vk.vkCmdDraw(cb, per_patch * count, 1, per_patch * first, 0);
            }
            first += count;
        }
        cb = primary;
        if (spec.recording == Recording::ContinuingSecondary) {
            check(vk.vkEndCommandBuffer(secondary), "vkEndCommandBuffer");
            vk.vkCmdExecuteCommands(cb, 1, &secondary);
        }
        vk.vkCmdEndRendering(pass_cb);
        if (spec.recording == Recording::Secondary) {
            check(vk.vkEndCommandBuffer(secondary), "vkEndCommandBuffer");
            vk.vkCmdExecuteCommands(cb, 1, &secondary);
        }
    }
    check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    const auto execute_start = Clock::now();
    submit(cb);
    const auto execute_end = Clock::now();
    timing_.record_ms = std::chrono::duration<double, std::milli>(execute_start - record_start).count();
    timing_.execute_ms = std::chrono::duration<double, std::milli>(execute_end - execute_start).count();

    cb = begin_commands();
    std::vector<VkImageMemoryBarrier2> to_read;
    for (const Image& image : colors) {
        to_read.push_back(image_barrier(image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT));
    }
    barrier(vk, cb, to_read);
    for (size_t i = 0; i < colors.size(); ++i) read_back(cb, colors[i], spec.colors[i], samples, size, readbacks[i].buffer);
    VkMemoryBarrier2 to_host = vku::InitStructHelper();
    to_host.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    to_host.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    barrier(vk, cb, {}, std::span(&to_host, 1));
    check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    submit(cb);

    std::vector<Samples> result;
    for (const Buffer& b : readbacks) {
        const Texel* texels = static_cast<const Texel*>(b.mapped);
        result.emplace_back(texels, texels + size * size * samples);
    }
    return result;
}

}  // namespace vkpolyfill::test::tile_image
