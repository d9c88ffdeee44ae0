// vkCreateGraphicsPipelines on devices that lower shaders. Stages whose code uses an emulated
// capability (tile images, tensors, long composites) are lowered (fragment shaders for the pipeline's
// sample count) and reach the driver as temporary modules, on a deep copy of their create info; the
// driver never sees a kept module's placeholder, which is a compute shader. On devices emulating
// tile images, a fragment shader that reads them also gets: the layer's pipeline layout (the application's sets, then the layer's input
// attachments), rasterization-order access for the aspects it reads coherently (or, where the device
// lacks it, a fragment shader interlock: tile_image_interlock.h; or its draws split:
// tile_image_draw_splitting.h), and, when the pipeline remaps color
// locations, input attachment indices that follow them. What the emulation
// cannot do fails the pipeline with VK_ERROR_UNKNOWN and a message naming the shader.
#include <format>
#include <optional>
#include <vector>

#include <vkpolyfill/lowering/tile_image.h>
#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/graphics_pipeline_state.h"
#include "pipelines/pipeline_batch.h"
#include "pipelines/pipeline_preparation.h"
#include "tile_image/tile_image_draw_splitting.h"
#include "tile_image/tile_image_interlock.h"
#include "tile_image/tile_image_refusal.h"

namespace vkpolyfill {
namespace {

using SafeInfo = vku::safe_VkGraphicsPipelineCreateInfo;

// Why the emulation cannot serve this pipeline's tile-image reads, or "".
std::string unsupported_reason(const VkGraphicsPipelineCreateInfo& info) {
    if (info.renderPass != VK_NULL_HANDLE) return "tile images are read in dynamic rendering only, and renderPass is not VK_NULL_HANDLE";
    if ((info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) || vku::FindStructInPNextChain<VkPipelineLibraryCreateInfoKHR>(info.pNext)) {
        return "graphics pipeline libraries with tile-image reads are not supported";
    }
    if (has_dynamic_state(info, {VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT})) {
        return "tile-image reads with a dynamic rasterization sample count are not supported (the lowered shader depends on it)";
    }
    if (vku::FindStructInPNextChain<VkRenderingInputAttachmentIndexInfo>(info.pNext)) {
        return "tile-image reads in a pipeline with its own VkRenderingInputAttachmentIndexInfo are not supported";
    }
    return {};
}

// The pipeline's topology, unless dynamic (then the command buffer's, when draws are split).
std::optional<VkPrimitiveTopology> static_topology(const VkGraphicsPipelineCreateInfo& info) {
    if (info.pInputAssemblyState == nullptr || has_dynamic_state(info, {VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY})) return std::nullopt;
    return info.pInputAssemblyState->topology;
}

// The copy's layout, ordering and input attachment mapping for a fragment shader reading tile images.
VkResult prepare_reads(const DeviceData& data, const StageCode& code, const lowering::TileImageUsage& usage,
                       const VkGraphicsPipelineCreateInfo& info, SafeInfo& copy, std::shared_ptr<const TilePipeline>& record) {
    TileImageDevice& tile = *data.tile_image;
    if (std::string reason = unsupported_reason(info); !reason.empty()) return refuse_tile_image_reads(data, code, reason);
    if (std::string reason = unreadable_color_location(usage, tile.target.depth_binding, tile.color_limit); !reason.empty()) {
        return refuse_tile_image_reads(data, code, reason);
    }
    // Coherent color reads: rasterization-order access where the device has it for every aspect read,
    // else a fragment shader interlock where it serves the pipeline, else split draws (which order
    // depth/stencil reads with early tests too).
    std::string obstacle;
    const bool interlock = uses_interlock(data, usage, info, obstacle);
    const bool split = !interlock && needs_split_draws(tile.order, usage, false);
    if (!obstacle.empty()) {
        const LoggedObject objects[] = {code.object};
        data.instance->logger.log(LogLevel::Info, "vkpolyfill-tile-image",
                                  code.name + ": a fragment shader interlock cannot order its coherent reads, as " + obstacle +
                                      (split ? ": its draws split" : ": rasterization-order access orders them"),
                                  code.object.handle ? std::span<const LoggedObject>(objects) : std::span<const LoggedObject>());
    }
    std::shared_ptr<const TileSetLayout> set_layout = tile.layouts.set_layout(usage, interlock);
    if (!set_layout) return refuse_tile_image_reads(data, code, "the driver could not create the tile-image descriptor set layout");
    std::string error;
    std::shared_ptr<const LayerPipelineLayout> layout = tile.layouts.pipeline_layout(info.layout, error);
    if (!layout) return refuse_tile_image_reads(data, code, error);
    copy.layout = layout->layout;

    if (split || interlock) tile.draws_intercepted.store(true, std::memory_order_release);
    if (interlock) mask_read_attachments(usage, info, copy);
    if (!split && usage.early_fragment_tests && ((usage.depth && usage.coherent_depth) || (usage.stencil && usage.coherent_stencil))) {
        return refuse_tile_image_reads(data, code,
                                       "coherent depth or stencil reads with EarlyFragmentTests cannot be ordered (rasterization-order "
                                       "depth/stencil access excludes early fragment tests): declare the "
                                       "NonCoherent*AttachmentReadEXT modes");
    }
    if (!split && !interlock && copy.pColorBlendState && usage.coherent_color && !usage.colors.empty()) {
        copy.pColorBlendState->flags |= VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT;
    }
    if (!split && copy.pDepthStencilState && usage.depth && usage.coherent_depth) {
        copy.pDepthStencilState->flags |= VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT;
    }
    if (!split && copy.pDepthStencilState && usage.stencil && usage.coherent_stencil) {
        copy.pDepthStencilState->flags |= VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT;
    }
    // Tile images follow color locations; input attachments follow attachment indices unless mapped.
    if (auto* locations = vku::FindStructInPNextChain<VkRenderingAttachmentLocationInfo>(info.pNext)) {
        VkRenderingInputAttachmentIndexInfo indices = vku::InitStructHelper();
        indices.colorAttachmentCount = locations->colorAttachmentCount;
        indices.pColorAttachmentInputIndices = locations->pColorAttachmentLocations;
        vku::AddToPnext(copy, indices);
    }
    record = std::make_shared<const TilePipeline>(
        TilePipeline{std::move(layout), std::move(set_layout), split, interlock, static_topology(info)});
    return VK_SUCCESS;
}

// Without them, a dynamic-rendering pipeline's color blend or depth/stencil state is ignored and may
// be a dangling pointer: the deep copy must not follow it.
bool uses_color_attachments(const VkGraphicsPipelineCreateInfo& info) {
    auto* rendering = vku::FindStructInPNextChain<VkPipelineRenderingCreateInfo>(info.pNext);
    return info.renderPass != VK_NULL_HANDLE || (rendering && rendering->colorAttachmentCount > 0);
}

bool uses_depth_stencil(const VkGraphicsPipelineCreateInfo& info) {
    auto* rendering = vku::FindStructInPNextChain<VkPipelineRenderingCreateInfo>(info.pNext);
    return info.renderPass != VK_NULL_HANDLE || (rendering && (rendering->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
                                                               rendering->stencilAttachmentFormat != VK_FORMAT_UNDEFINED));
}

// The color locations with an attachment (TileImageTarget::color_locations): a defined format, at the
// location VkRenderingAttachmentLocationInfo moves it to.
uint32_t color_locations(const VkGraphicsPipelineCreateInfo& info) {
    if (info.renderPass != VK_NULL_HANDLE) return ~0u;  // tile-image reads are refused there (unsupported_reason)
    uint32_t locations = 0;
    for_color_attachments(info, [&](uint32_t, uint32_t location, VkFormat) {
        if (location < 32) locations |= 1u << location;
    });
    return locations;
}

}  // namespace

VkResult prepare_graphics_pipeline(const DeviceData& data, const VkGraphicsPipelineCreateInfo& info, uint32_t index,
                                   PreparedGraphicsPipeline& prepared, TemporaryModules& temporaries) {
    const DeviceShaders& shaders = *data.shaders;
    for (uint32_t s = 0; s < info.stageCount; ++s) {
        const VkPipelineShaderStageCreateInfo& stage = info.pStages[s];
        if (!stage_needs_lowering(shaders, stage)) continue;
        if (!prepared.copy) prepared.copy.emplace(&info, uses_color_attachments(info), uses_depth_stencil(info));
        const StageCode code = stage_code(shaders, stage, index);
        StageRequest request{stage.pName, stage.pSpecializationInfo, shaders.subgroup.size};
        if (stage.stage == VK_SHADER_STAGE_FRAGMENT_BIT && data.tile_image) {
            const lowering::TileImageUsage usage = lowering::tile_image_usage(code.module->words, stage.pName);
            if (!usage.ok) return refuse_tile_image_reads(data, code, usage.error);
            if (usage.reads_anything()) {
                if (const VkResult result = prepare_reads(data, code, usage, info, *prepared.copy, prepared.record); result != VK_SUCCESS) {
                    return result;
                }
                // Only then: both are in the lowering cache's key, and other stages do not depend on them.
                request.rasterization_samples = info.pMultisampleState ? info.pMultisampleState->rasterizationSamples : 1;
                request.color_locations = color_locations(info);
                request.interlock = prepared.record->interlock;
            }
        }
        const LoweredStage lowered = lower_stage(data, code, request);
        if (lowered.result != VK_SUCCESS) return lowered.result;
        if (const VkResult result = use_lowered_code(*lowered.words, prepared.copy->pStages[s], temporaries); result != VK_SUCCESS) {
            return result;
        }
    }
    return VK_SUCCESS;
}

namespace hooks {
namespace {

VkResult create_with_lowering(const DeviceData& data, VkPipelineCache cache, std::span<const VkGraphicsPipelineCreateInfo> infos,
                              const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    std::vector<PreparedGraphicsPipeline> prepared(infos.size());
    std::vector<VkResult> failures(infos.size(), VK_SUCCESS);
    TemporaryModules temporaries(data);
    const size_t end = prepare_all(infos, failures, [&](uint32_t i) { return prepare_graphics_pipeline(data, infos[i], i, prepared[i], temporaries); });
    std::vector<std::optional<SafeInfo>> copies;
    for (PreparedGraphicsPipeline& p : prepared) copies.push_back(std::move(p.copy));
    const VkResult result = create_prepared(infos, copies, failures, end, pipelines, [&](uint32_t n, const VkGraphicsPipelineCreateInfo* down, VkPipeline* out) {
        return data.next.CreateGraphicsPipelines(data.device, cache, n, down, allocator, out);
    });
    for (size_t i = 0; i < infos.size(); ++i) {
        if (prepared[i].record && pipelines[i] != VK_NULL_HANDLE) data.tile_image->pipelines.add(pipelines[i], prepared[i].record);
    }
    return result;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache, uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
    const DeviceData& data = device_data(device);
    const std::span<const VkGraphicsPipelineCreateInfo> infos(pCreateInfos, createInfoCount);
    const bool lowering = data.shaders && any_stage_needs_lowering(*data.shaders, infos);
    if (!lowering) return data.next.CreateGraphicsPipelines(device, pipelineCache, createInfoCount, pCreateInfos, pAllocator, pPipelines);
    return unless_out_of_memory(createInfoCount, pPipelines,
                                [&] { return create_with_lowering(data, pipelineCache, infos, pAllocator, pPipelines); });
}

}  // namespace hooks
}  // namespace vkpolyfill
