#include "tile_image/tile_image_interlock.h"

#include <algorithm>
#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "pipelines/graphics_pipeline_state.h"

namespace vkpolyfill {
namespace {

bool reads_location(const lowering::TileImageUsage& usage, uint32_t location) {
    return std::ranges::any_of(usage.colors, [location](const lowering::TileImageColors& c) {
        return location >= c.location && location - c.location < c.count;
    });
}

// Calls visit(attachment index, format) for each color attachment at a location the shader reads.
template <typename Visit>
void for_read_attachments(const lowering::TileImageUsage& usage, const VkGraphicsPipelineCreateInfo& info, Visit&& visit) {
    for_color_attachments(info, [&](uint32_t i, uint32_t location, VkFormat format) {
        if (reads_location(usage, location)) visit(i, format);
    });
}

// Why the pipeline's state asks more of the attachment writes the shader takes over than writing
// its outputs, or "".
std::string attachment_state_obstacle(const DeviceData& data, const lowering::TileImageUsage& usage,
                                      const VkGraphicsPipelineCreateInfo& info) {
    if (has_dynamic_state(info, {VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,
                                 VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_ADVANCED_EXT,
                                 VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT,
                                 VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,
                                 VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT})) {
        return "its blending, write masks, alpha to coverage or one, or sample count are dynamic state";
    }
    const VkPipelineMultisampleStateCreateInfo* multisample = info.pMultisampleState;
    const VkSampleCountFlagBits samples = multisample ? multisample->rasterizationSamples : VK_SAMPLE_COUNT_1_BIT;
    if (samples != VK_SAMPLE_COUNT_1_BIT && !data.tile_image->order.multisampled_interlock) {
        return "it is multisampled, and the device lacks shaderStorageImageMultisample or VK_EXT_post_depth_coverage";
    }
    if (multisample && (multisample->alphaToCoverageEnable || multisample->alphaToOneEnable)) return "it enables alpha to coverage or one";
    if (info.pColorBlendState == nullptr || info.pColorBlendState->logicOpEnable) return "it enables a logic op";
    std::string obstacle;
    const VkPipelineColorBlendStateCreateInfo& blend = *info.pColorBlendState;
    const auto* write_enables = vku::FindStructInPNextChain<VkPipelineColorWriteCreateInfoEXT>(blend.pNext);
    for_read_attachments(usage, info, [&](uint32_t i, VkFormat format) {
        constexpr VkColorComponentFlags kAll = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                               VK_COLOR_COMPONENT_A_BIT;
        const bool disabled = write_enables && i < write_enables->attachmentCount && !write_enables->pColorWriteEnables[i];
        const bool unblended = i < blend.attachmentCount && blend.pAttachments && !blend.pAttachments[i].blendEnable &&
                               blend.pAttachments[i].colorWriteMask == kAll && !disabled;
        if (!obstacle.empty()) return;
        if (!unblended) obstacle = std::format("color attachment {}, which it reads, blends or masks its writes", i);
        if (unblended && !storage_format(data, format, samples)) {
            obstacle = std::format("color attachment {}, which it reads, has a format without storage-image support at {} samples", i,
                                   static_cast<uint32_t>(samples));
        }
    });
    return obstacle;
}

}  // namespace

bool storage_format(const DeviceData& data, VkFormat format, VkSampleCountFlagBits samples) {
    VkFormatProperties features{};
    data.instance->next.GetPhysicalDeviceFormatProperties(data.physical_device, format, &features);
    if (!(features.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) return false;
    if (samples == VK_SAMPLE_COUNT_1_BIT) return true;
    constexpr VkImageUsageFlags kUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                                         VK_IMAGE_USAGE_STORAGE_BIT;
    VkImageFormatProperties properties{};
    return data.instance->next.GetPhysicalDeviceImageFormatProperties(data.physical_device, format, VK_IMAGE_TYPE_2D,
                                                                      VK_IMAGE_TILING_OPTIMAL, kUsage, 0, &properties) == VK_SUCCESS &&
           (properties.sampleCounts & samples);
}

bool adds_storage_usage(const DeviceData& data, const VkImageCreateInfo& info) {
    if (!data.tile_image || !data.tile_image->order.interlock) return false;
    if (!(info.usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) || (info.usage & VK_IMAGE_USAGE_STORAGE_BIT)) return false;
    if (info.samples != VK_SAMPLE_COUNT_1_BIT && !data.tile_image->order.multisampled_interlock) return false;
    if (info.tiling != VK_IMAGE_TILING_OPTIMAL || !storage_format(data, info.format)) return false;
    VkImageFormatProperties properties{};
    return data.instance->next.GetPhysicalDeviceImageFormatProperties(data.physical_device, info.format, info.imageType, info.tiling,
                                                                      info.usage | VK_IMAGE_USAGE_STORAGE_BIT, info.flags,
                                                                      &properties) == VK_SUCCESS &&
           (properties.sampleCounts & info.samples);
}

bool uses_interlock(const DeviceData& data, const lowering::TileImageUsage& usage, const VkGraphicsPipelineCreateInfo& info,
                    std::string& obstacle) {
    const TileImageOrder& order = data.tile_image->order;
    if (!order.interlock || order.always_split || usage.colors.empty() || !usage.coherent_color) return false;
    if (order.color && !order.prefer_interlock) return false;  // rasterization-order access serves it
    obstacle = usage.interlock_obstacle;
    if (obstacle.empty() && ((usage.depth && usage.coherent_depth) || (usage.stencil && usage.coherent_stencil))) {
        obstacle = "it also reads depth or stencil coherently";
    }
    if (obstacle.empty()) obstacle = attachment_state_obstacle(data, usage, info);
    return obstacle.empty();
}

void mask_read_attachments(const lowering::TileImageUsage& usage, const VkGraphicsPipelineCreateInfo& info,
                           vku::safe_VkGraphicsPipelineCreateInfo& copy) {
    auto* attachments = const_cast<VkPipelineColorBlendAttachmentState*>(copy.pColorBlendState->pAttachments);
    for_read_attachments(usage, info, [&](uint32_t i, VkFormat) { attachments[i].colorWriteMask = 0; });
}

void interlock_barrier(const DeviceData& data, VkCommandBuffer command_buffer) {
    VkMemoryBarrier barrier = vku::InitStructHelper();
    barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INPUT_ATTACHMENT_READ_BIT |
                            VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    data.next.CmdPipelineBarrier(command_buffer, stages, stages, VK_DEPENDENCY_BY_REGION_BIT, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace vkpolyfill
