// Tensors in graphics shaders through the layer: a vertex shader taking its positions from a tensor
// (array reads), and a fragment shader reading a tensor smaller than the framebuffer at its pixel
// (OutOfBoundsValueARM outside) and writing what it read to another tensor. Against a CPU reference.
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kSize = 8;  // framebuffer width and height

// Draws one triangle into an 8 x 8 RGBA8 image with `tensors` bound at set 0 (binding b: tensors[b])
// to both stages, and returns the pixels.
std::vector<uint32_t> draw(TensorDevice& device, const std::string& vertex, const std::string& fragment,
                           const std::vector<VkTensorViewARM>& tensors) {
    Context& c = device.context();
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t b = 0; b < tensors.size(); ++b) {
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    }
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT;
    set_info.bindingCount = static_cast<uint32_t>(bindings.size());
    set_info.pBindings = bindings.data();
    VkDescriptorSetLayout set_layout;
    check(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    VkPipelineLayout layout;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

    VkShaderModule modules[2];
    VkPipelineShaderStageCreateInfo stages[2];
    const std::string paths[2] = {vertex, fragment};
    for (int s = 0; s < 2; ++s) {
        const std::vector<uint32_t> code = read_shader(paths[s]);
        VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
        module_info.codeSize = code.size() * 4;
        module_info.pCode = code.data();
        check(c.vk.vkCreateShaderModule(c.device, &module_info, nullptr, &modules[s]), "vkCreateShaderModule");
        stages[s] = vku::InitStructHelper();
        stages[s].stage = s == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[s].module = modules[s];
        stages[s].pName = "main";
    }
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering = vku::InitStructHelper();
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &format;
    VkPipelineVertexInputStateCreateInfo vertex_input = vku::InitStructHelper();
    VkPipelineInputAssemblyStateCreateInfo assembly = vku::InitStructHelper();
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport{0, 0, kSize, kSize, 0, 1};
    const VkRect2D scissor{{0, 0}, {kSize, kSize}};
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
    info.layout = layout;
    VkPipeline pipeline;
    check(c.vk.vkCreateGraphicsPipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");

    VkImageCreateInfo image_info = vku::InitStructHelper();
    image_info.imageType = VK_IMAGE_TYPE_2D;
    image_info.format = format;
    image_info.extent = {kSize, kSize, 1};
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
    view_info.format = format;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    check(c.vk.vkCreateImageView(c.device, &view_info, nullptr, &view), "vkCreateImageView");
    const Buffer pixels = c.create_buffer(kSize * kSize * 4);

    device.run([&](VkCommandBuffer cb) {
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
        rendering_info.renderArea = scissor;
        rendering_info.layerCount = 1;
        rendering_info.colorAttachmentCount = 1;
        rendering_info.pColorAttachments = &attachment;
        c.vk.vkCmdBeginRendering(cb, &rendering_info);
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        std::vector<VkWriteDescriptorSetTensorARM> tensor_writes(tensors.size());
        std::vector<VkWriteDescriptorSet> writes(tensors.size());
        for (uint32_t b = 0; b < tensors.size(); ++b) {
            tensor_writes[b] = vku::InitStructHelper();
            tensor_writes[b].tensorViewCount = 1;
            tensor_writes[b].pTensorViews = &tensors[b];
            writes[b] = vku::InitStructHelper(&tensor_writes[b]);
            writes[b].dstBinding = b;
            writes[b].descriptorCount = 1;
            writes[b].descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
        }
        c.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, static_cast<uint32_t>(writes.size()), writes.data());
        c.vk.vkCmdDraw(cb, 3, 1, 0, 0);
        c.vk.vkCmdEndRendering(cb);
        transition(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
        c.vk.vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.buffer, 1, &region);
    });
    std::vector<uint32_t> result(pixels.as<uint32_t>().begin(), pixels.as<uint32_t>().end());
    c.vk.vkDestroyImageView(c.device, view, nullptr);
    c.vk.vkDestroyImage(c.device, image, nullptr);
    c.vk.vkFreeMemory(c.device, memory, nullptr);
    c.vk.vkDestroyPipeline(c.device, pipeline, nullptr);
    for (VkShaderModule m : modules) c.vk.vkDestroyShaderModule(c.device, m, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, layout, nullptr);
    c.vk.vkDestroyDescriptorSetLayout(c.device, set_layout, nullptr);
    return result;
}

TEST(ArmTensorsGraphics, AFragmentShaderReadsAndWritesTensorsAtItsPixel) {
    TensorDevice device;
    const TestTensor image = device.create(VK_FORMAT_R32_SFLOAT, {5, 6}, {32, 4});  // smaller than the framebuffer
    const TestTensor written = device.create(VK_FORMAT_R32_SFLOAT, {kSize, kSize});
    for (uint64_t y = 0; y < 5; ++y) {
        for (uint64_t x = 0; x < 6; ++x) *reinterpret_cast<float*>(image.data + image.offset({y, x})) = static_cast<float>(y * 10 + x);
    }
    draw(device, "tests/tensors/fullscreen.vert", "tests/arm_tensors/fragment.frag",
         {device.view(image, VK_FORMAT_R32_SFLOAT), device.view(written, VK_FORMAT_R32_SFLOAT)});
    for (uint64_t y = 0; y < kSize; ++y) {
        for (uint64_t x = 0; x < kSize; ++x) {
            const float expected = y < 5 && x < 6 ? static_cast<float>(y * 10 + x) : 0.25f;  // OutOfBoundsValueARM outside
            EXPECT_EQ(*reinterpret_cast<const float*>(written.data + written.offset({y, x})), expected) << x << "," << y;
        }
    }
    EXPECT_TRUE(TensorDevice::canaries_intact(written));
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

TEST(ArmTensorsGraphics, AVertexShaderTakesItsPositionsFromATensor) {
    TensorDevice device;
    // A triangle (-1,-1), (0,-1), (-1,1): the corner of the framebuffer left of the line 2x + y = -1.
    const TestTensor positions = device.create(VK_FORMAT_R32_SFLOAT, {3, 4});
    const float corners[3][4] = {{-1, -1, 0, 1}, {0, -1, 0, 1}, {-1, 1, 0, 1}};
    std::memcpy(positions.data, corners, sizeof(corners));
    const std::vector<uint32_t> pixels =
        draw(device, "tests/arm_tensors/vertex.vert", "tests/tensors/flat_color.frag", {device.view(positions, VK_FORMAT_R32_SFLOAT)});
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            // The pixel centre in normalized coordinates is ((2x + 1) / 8 - 1, (2y + 1) / 8 - 1); it is inside
            // when 2 nx + ny < -1, i.e. 4x + 2y + 3 < 16 (never equal: no centre lies on the edge). The flat
            // vertex index is that of the provoking (first) vertex, 0.
            const bool inside = 4 * x + 2 * y + 3 < 16;
            const uint32_t expected = inside ? 0xffff00ffu : 0u;  // RGBA8 (1, 0, 1, 1), little-endian
            EXPECT_EQ(pixels[y * kSize + x], expected) << x << "," << y;
        }
    }
}

}  // namespace
}  // namespace vkpolyfill::test
