#include "triangle_draw.h"

#include <bit>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::test {
namespace {

VkPipeline create_pipeline(Context& c, const TriangleDraw& draw, const VkShaderModule (&modules)[2]) {
    VkPipelineShaderStageCreateInfo stages[2];
    for (int s = 0; s < 2; ++s) {
        stages[s] = vku::InitStructHelper();
        stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[s].module = modules[s];
        stages[s].pName = "main";
    }
    VkPipelineRenderingCreateInfo rendering = vku::InitStructHelper();
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &draw.format;
    VkPipelineVertexInputStateCreateInfo vertex_input = vku::InitStructHelper();
    VkPipelineInputAssemblyStateCreateInfo assembly = vku::InitStructHelper();
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport{0, 0, static_cast<float>(draw.size), static_cast<float>(draw.size), 0, 1};
    const VkRect2D scissor{{0, 0}, {draw.size, draw.size}};
    VkPipelineViewportStateCreateInfo viewport_state = vku::InitStructHelper();
    viewport_state.viewportCount = 1;
    viewport_state.pViewports = &viewport;
    viewport_state.scissorCount = 1;
    viewport_state.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = vku::InitStructHelper();
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo multisample = vku::InitStructHelper();
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend_attachment{};
    blend_attachment.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo blend = vku::InitStructHelper();
    blend.attachmentCount = 1;
    blend.pAttachments = &blend_attachment;
    VkGraphicsPipelineCreateInfo info = vku::InitStructHelper(&rendering);
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport_state;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend;
    info.layout = draw.layout;
    VkPipeline pipeline;
    check(c.vk.vkCreateGraphicsPipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");
    return pipeline;
}

}  // namespace

std::vector<std::byte> draw_triangle(Context& c, const TriangleDraw& draw) {
    const VkShaderModule modules[2] = {c.create_module(draw.vertex), c.create_module(draw.fragment)};
    const VkPipeline pipeline = create_pipeline(c, draw, modules);

    VkImageCreateInfo image_info = vku::InitStructHelper();
    image_info.imageType = VK_IMAGE_TYPE_2D;
    image_info.format = draw.format;
    image_info.extent = {draw.size, draw.size, 1};
    image_info.mipLevels = image_info.arrayLayers = 1;
    image_info.samples = VK_SAMPLE_COUNT_1_BIT;
    image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImage image;
    check(c.vk.vkCreateImage(c.device, &image_info, nullptr, &image), "vkCreateImage");
    VkMemoryRequirements requirements;
    c.vk.vkGetImageMemoryRequirements(c.device, image, &requirements);
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(std::countr_zero(requirements.memoryTypeBits));
    VkDeviceMemory memory;
    check(c.vk.vkAllocateMemory(c.device, &allocate, nullptr, &memory), "vkAllocateMemory");
    check(c.vk.vkBindImageMemory(c.device, image, memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo view_info = vku::InitStructHelper();
    view_info.image = image;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = draw.format;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    check(c.vk.vkCreateImageView(c.device, &view_info, nullptr, &view), "vkCreateImageView");
    const Buffer texels = c.create_buffer(VkDeviceSize{draw.size} * draw.size * draw.texel_bytes);

    c.run([&](VkCommandBuffer cb) {
        auto transition = [&](VkImageLayout from, VkImageLayout to) {
            VkImageMemoryBarrier2 barrier = vku::InitStructHelper();
            barrier.srcStageMask = barrier.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
            barrier.srcAccessMask = barrier.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
            barrier.oldLayout = from;
            barrier.newLayout = to;
            barrier.image = image;
            barrier.subresourceRange = view_info.subresourceRange;
            VkDependencyInfo dependency = vku::InitStructHelper();
            dependency.imageMemoryBarrierCount = 1;
            dependency.pImageMemoryBarriers = &barrier;
            c.vk.vkCmdPipelineBarrier2(cb, &dependency);
        };
        transition(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        VkRenderingAttachmentInfo attachment = vku::InitStructHelper();
        attachment.imageView = view;
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        VkRenderingInfo rendering_info = vku::InitStructHelper();
        rendering_info.renderArea = {{0, 0}, {draw.size, draw.size}};
        rendering_info.layerCount = 1;
        rendering_info.colorAttachmentCount = 1;
        rendering_info.pColorAttachments = &attachment;
        c.vk.vkCmdBeginRendering(cb, &rendering_info);
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        if (draw.bind) draw.bind(cb);
        c.vk.vkCmdDraw(cb, 3, 1, 0, 0);
        c.vk.vkCmdEndRendering(cb);
        transition(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {draw.size, draw.size, 1}};
        c.vk.vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, texels.buffer, 1, &region);
    });
    const auto bytes = texels.as<std::byte>();
    std::vector<std::byte> result(bytes.begin(), bytes.end());
    c.vk.vkDestroyImageView(c.device, view, nullptr);
    c.vk.vkDestroyImage(c.device, image, nullptr);
    c.vk.vkFreeMemory(c.device, memory, nullptr);
    c.vk.vkDestroyPipeline(c.device, pipeline, nullptr);
    for (VkShaderModule m : modules) c.vk.vkDestroyShaderModule(c.device, m, nullptr);
    return result;
}

}  // namespace vkpolyfill::test
