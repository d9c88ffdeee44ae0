#include "tile_image/tile_image_shader_objects.h"

#include <algorithm>
#include <format>

#include <vulkan/vk_enum_string_helper.h>

#include "tile_image/tile_image_draw_splitting.h"
#include "tile_image/tile_image_refusal.h"

namespace vkpolyfill {
namespace {

// Any sample count above one gives the multisampled code.
constexpr uint32_t kMultisampled = VK_SAMPLE_COUNT_4_BIT;

}  // namespace

VkResult prepare_tile_shader(const DeviceData& data, const StageCode& code, const lowering::TileImageUsage& usage,
                             VkShaderCreateInfoEXT& info, TileShaderCode& prepared) {
    TileImageDevice& tile = *data.tile_image;
    if (std::string reason = unreadable_color_location(usage, tile.target.depth_binding, tile.color_limit); !reason.empty()) {
        return refuse_tile_image_reads(data, code, reason);
    }
    if (std::string reason = tile.layouts.too_many_sets(info.setLayoutCount); !reason.empty()) {
        return refuse_tile_image_reads(data, code, "it " + reason);
    }
    std::shared_ptr<const TileSetLayout> set_layout = tile.layouts.set_layout(usage, false);
    if (!set_layout) return refuse_tile_image_reads(data, code, "the driver could not create the tile-image descriptor set layout");
    ApplicationLayout application;
    application.sets.assign(info.pSetLayouts, info.pSetLayouts + info.setLayoutCount);
    application.push_constants.assign(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount);
    std::shared_ptr<const LayerPipelineLayout> layout = tile.layouts.create(application);
    if (!layout) return refuse_tile_image_reads(data, code, "the driver could not create its pipeline layout");

    const uint32_t subgroup_size = data.shaders->subgroup.size;
    LoweredStage single = lower_stage(data, code, {info.pName, info.pSpecializationInfo, subgroup_size, 1});
    if (single.result != VK_SUCCESS) return single.result;
    LoweredStage multi = lower_stage(data, code, {info.pName, info.pSpecializationInfo, subgroup_size, kMultisampled});
    if (multi.result != VK_SUCCESS) return multi.result;

    prepared.single = std::move(single.words);
    prepared.multisampled = std::move(multi.words);
    prepared.set_layouts = tile.layouts.set_layouts(application.sets);
    // Shader objects cannot ask for rasterization-order access: their coherent reads are ordered by
    // splitting their draws (topology: the command buffer's), except where the driver shades in order.
    const bool split = needs_split_draws(tile.order, usage, true);
    if (split) tile.draws_intercepted.store(true, std::memory_order_release);
    prepared.reads =
        std::make_shared<const TilePipeline>(TilePipeline{std::move(layout), std::move(set_layout), split, false, std::nullopt});
    info.pCode = prepared.single->data();
    info.codeSize = prepared.single->size() * sizeof(uint32_t);
    info.setLayoutCount = static_cast<uint32_t>(prepared.set_layouts.size());
    info.pSetLayouts = prepared.set_layouts.data();
    return VK_SUCCESS;
}

VkResult create_tile_shader_twins(const DeviceData& data, std::span<const VkShaderCreateInfoEXT> infos,
                                  std::span<const TileShaderCode> prepared, const VkAllocationCallbacks* allocator,
                                  VkShaderEXT* shaders) {
    TileImageDevice& tile = *data.tile_image;
    VkResult result = VK_SUCCESS;
    std::vector<std::shared_ptr<const TileShader>> records;
    for (const TileShaderCode& p : prepared) {
        VkShaderCreateInfoEXT twin = infos[p.index];
        twin.pCode = p.multisampled->data();
        twin.codeSize = p.multisampled->size() * sizeof(uint32_t);
        twin.flags &= ~VK_SHADER_CREATE_LINK_STAGE_BIT_EXT;  // it stands in for one shader alone
        VkShaderEXT multisampled = VK_NULL_HANDLE;
        result = data.next.CreateShadersEXT(data.device, 1, &twin, nullptr, &multisampled);
        if (result != VK_SUCCESS) break;
        records.push_back(std::make_shared<const TileShader>(data.device, data.next, p.reads, shaders[p.index], multisampled));
    }
    if (result != VK_SUCCESS) {
        records.clear();  // destroys the twins made
        for (size_t i = 0; i < infos.size(); ++i) data.next.DestroyShaderEXT(data.device, shaders[i], allocator);
        std::fill(shaders, shaders + infos.size(), VK_NULL_HANDLE);
        return result;
    }
    for (size_t i = 0; i < prepared.size(); ++i) tile.shaders.add(shaders[prepared[i].index], std::move(records[i]));
    return VK_SUCCESS;
}

void report_refused_tile_shaders(const DeviceData& data, std::span<const TileShaderCode> prepared, VkResult result) {
    for (const TileShaderCode& p : prepared) {
        data.instance->logger.log(
            LogLevel::Error, "vkpolyfill-tile-image",
            std::format("the fragment shader of pCreateInfos[{}]: error: the driver refused its lowered code with {}: it reads tile "
                        "images as input attachments (dynamic rendering local read), which some drivers cannot do in fragment "
                        "shader objects (lavapipe 25.0): use a graphics pipeline",
                        p.index, string_VkResult(result)));
    }
}

}  // namespace vkpolyfill
