// vkCreateShadersEXT (VK_EXT_shader_object): shaders whose SPIR-V uses an emulated capability are
// lowered and reach the driver as lowered code, compute shaders pinned to the subgroup size it was
// lowered for; fragment shaders reading emulated tile images as tile_image_shader_objects.h says
// (then no shader of the call is linked: a twin stands in for one of them when drawn). On a device
// emulating tile images every graphics shader
// lists the layer's set layouts, as the fragment shaders reading them do.
// Shaders of one call may be linked to each other, so a failure to lower any of them fails the
// whole call before the driver sees it: every pShaders entry is VK_NULL_HANDLE.
#include <algorithm>
#include <format>
#include <optional>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/shader_stage_lowering.h"
#include "tile_image/tile_image_refusal.h"
#include "tile_image/tile_image_shader_objects.h"

namespace vkpolyfill::hooks {
namespace {

std::span<const uint32_t> spirv_words(const VkShaderCreateInfoEXT& info) {
    return {static_cast<const uint32_t*>(info.pCode), info.codeSize / sizeof(uint32_t)};
}

bool shader_needs_lowering(const DeviceShaders& shaders, const VkShaderCreateInfoEXT& info) {
    return info.codeType == VK_SHADER_CODE_TYPE_SPIRV_EXT && shaders.needs_lowering(spirv_words(info));
}

// How messages name a shader object's stage ("the vertex shader of pCreateInfos[0]").
const char* stage_noun(VkShaderStageFlagBits stage) {
    switch (stage) {
        case VK_SHADER_STAGE_COMPUTE_BIT: return "compute";
        case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
        case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "tessellation control";
        case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "tessellation evaluation";
        case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
        case VK_SHADER_STAGE_FRAGMENT_BIT: return "fragment";
        case VK_SHADER_STAGE_TASK_BIT_EXT: return "task";
        case VK_SHADER_STAGE_MESH_BIT_EXT: return "mesh";
        default: return "unknown-stage";
    }
}

// The application's create infos, copied shallowly and rewritten where lowered, and what those point to.
struct LoweredShaders {
    std::vector<VkShaderCreateInfoEXT> infos;
    std::vector<LoweredWords> words;
    std::vector<VkShaderRequiredSubgroupSizeCreateInfoEXT> required_sizes;
    std::vector<TileShaderCode> tile_shaders;
    std::vector<std::vector<VkDescriptorSetLayout>> set_layouts;  // of other graphics shaders listing the layer's
};

// Shader objects drawn together must list identical set layouts (VUID-vkCmdDraw-None-08879): on a device
// emulating tile images, every graphics shader lists the layer's, which a fragment shader reading tile
// images needs. A shader listing more sets than the device reports is left as it is.
bool lists_layer_sets(const DeviceData& data, const VkShaderCreateInfoEXT& info) {
    return data.tile_image && info.stage != VK_SHADER_STAGE_COMPUTE_BIT && info.setLayoutCount <= data.tile_image->layouts.layer_set();
}

void list_layer_sets(const DeviceData& data, LoweredShaders& lowered) {
    for (size_t i = 0; i < lowered.infos.size(); ++i) {
        VkShaderCreateInfoEXT& info = lowered.infos[i];
        const bool prepared = std::ranges::any_of(lowered.tile_shaders, [i](const TileShaderCode& t) { return t.index == i; });
        if (prepared || !lists_layer_sets(data, info)) continue;
        lowered.set_layouts[i] = data.tile_image->layouts.set_layouts({info.pSetLayouts, info.setLayoutCount});
        if (lowered.set_layouts[i].empty()) continue;  // the driver refused the layer's set layout
        info.setLayoutCount = static_cast<uint32_t>(lowered.set_layouts[i].size());
        info.pSetLayouts = lowered.set_layouts[i].data();
    }
}

// A fragment shader reading tile images, on a device emulating them: the result of
// preparing it, or nothing when the shader is not one.
std::optional<VkResult> lower_tile_shader(const DeviceData& data, size_t index, LoweredShaders& lowered) {
    VkShaderCreateInfoEXT& info = lowered.infos[index];
    if (info.stage != VK_SHADER_STAGE_FRAGMENT_BIT || !data.tile_image) return std::nullopt;
    const StageCode code{capture(spirv_words(info)), std::format("the fragment shader of pCreateInfos[{}]", index), {}};
    const lowering::TileImageUsage usage = lowering::tile_image_usage(code.module->words, info.pName);
    if (!usage.ok) return refuse_tile_image_reads(data, code, usage.error);
    if (!usage.reads_anything()) return std::nullopt;
    TileShaderCode& prepared = lowered.tile_shaders.emplace_back();
    prepared.index = index;
    return prepare_tile_shader(data, code, usage, info, prepared);
}

VkResult lower_shaders(const DeviceData& data, LoweredShaders& lowered) {
    const DeviceShaders& shaders = *data.shaders;
    for (size_t i = 0; i < lowered.infos.size(); ++i) {
        VkShaderCreateInfoEXT& info = lowered.infos[i];
        if (!shader_needs_lowering(shaders, info)) continue;
        if (std::optional<VkResult> result = lower_tile_shader(data, i, lowered)) {
            if (*result != VK_SUCCESS) return *result;
            continue;
        }
        // Graphics stages as in a graphics pipeline: at the device's subgroup size, nothing pinned.
        const bool compute = info.stage == VK_SHADER_STAGE_COMPUTE_BIT;
        const StageCode code{capture(spirv_words(info)), std::format("the {} shader of pCreateInfos[{}]", stage_noun(info.stage), i), {}};
        const StageSubgroups subgroups = compute ? stage_subgroups(shaders.subgroup, info.pNext) : StageSubgroups{shaders.subgroup.size, false};
        LoweredStage stage = lower_stage(data, code, {info.pName, info.pSpecializationInfo, subgroups.size});
        if (stage.result != VK_SUCCESS) return stage.result;
        info.pCode = stage.words->data();
        info.codeSize = stage.words->size() * sizeof(uint32_t);
        if (subgroups.add_required_size) {
            VkShaderRequiredSubgroupSizeCreateInfoEXT& required = lowered.required_sizes[i];
            required = vku::InitStructHelper(const_cast<void*>(info.pNext));
            required.requiredSubgroupSize = subgroups.size;
            info.pNext = &required;
            info.flags &= ~VK_SHADER_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT_EXT;  // one of the sizes it allowed
        }
        if (compute && can_require_full_subgroups(shaders.subgroup, *stage.words, info.pName, subgroups.size)) {
            info.flags |= VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT;
        }
        lowered.words[i] = std::move(stage.words);
    }
    if (!lowered.tile_shaders.empty()) {
        for (VkShaderCreateInfoEXT& info : lowered.infos) info.flags &= ~VK_SHADER_CREATE_LINK_STAGE_BIT_EXT;
    }
    list_layer_sets(data, lowered);
    return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateShadersEXT(VkDevice device, uint32_t createInfoCount, const VkShaderCreateInfoEXT* pCreateInfos,
                                                const VkAllocationCallbacks* pAllocator, VkShaderEXT* pShaders) {
    const DeviceData& data = device_data(device);
    const std::span<const VkShaderCreateInfoEXT> infos(pCreateInfos, createInfoCount);
    if (!data.shaders || std::ranges::none_of(infos, [&](const VkShaderCreateInfoEXT& info) {
            return shader_needs_lowering(*data.shaders, info) || lists_layer_sets(data, info);
        })) {
        return data.next.CreateShadersEXT(device, createInfoCount, pCreateInfos, pAllocator, pShaders);
    }
    VkResult result = VK_ERROR_OUT_OF_HOST_MEMORY;
    try {
        LoweredShaders lowered{{infos.begin(), infos.end()}, std::vector<LoweredWords>(infos.size()),
                               std::vector<VkShaderRequiredSubgroupSizeCreateInfoEXT>(infos.size()), {},
                               std::vector<std::vector<VkDescriptorSetLayout>>(infos.size())};
        lowered.tile_shaders.reserve(infos.size());  // they hold the set layouts the create infos point to
        result = lower_shaders(data, lowered);
        if (result == VK_SUCCESS) {
            result = data.next.CreateShadersEXT(device, createInfoCount, lowered.infos.data(), pAllocator, pShaders);
            if (lowered.tile_shaders.empty()) return result;
            if (result == VK_SUCCESS) result = create_tile_shader_twins(data, lowered.infos, lowered.tile_shaders, pAllocator, pShaders);
            if (result != VK_SUCCESS) report_refused_tile_shaders(data, lowered.tile_shaders, result);
            return result;
        }
    } catch (...) {  // allocation failed before the driver was called
    }
    std::fill(pShaders, pShaders + createInfoCount, VK_NULL_HANDLE);
    return result;
}

}  // namespace vkpolyfill::hooks
