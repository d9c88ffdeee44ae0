// How vkCreate*Pipelines rewrite one create info whose stages need lowering: on a deep copy (none
// when no stage does), with the lowered code in temporary modules. Shared with the commands that must
// see a pipeline as the driver will create it (VK_KHR_pipeline_binary's keys and cache lookups).
// `index` is the create info's, for naming inline code; failures are logged, naming the shader.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <vulkan/utility/vk_safe_struct.hpp>

#include "core/device_data.h"
#include "pipelines/pipeline_stages.h"
#include "tile_image/tile_image_pipelines.h"

namespace vkpolyfill {

// `name` names the lowered code, for the driver's failures.
VkResult prepare_compute_pipeline(const DeviceData& data, const VkComputePipelineCreateInfo& info, uint32_t index,
                                  std::optional<vku::safe_VkComputePipelineCreateInfo>& copy, std::string& name,
                                  TemporaryModules& temporaries);

struct PreparedGraphicsPipeline {
    std::optional<vku::safe_VkGraphicsPipelineCreateInfo> copy;
    std::shared_ptr<const TilePipeline> record;  // when the fragment shader reads tile images
};
VkResult prepare_graphics_pipeline(const DeviceData& data, const VkGraphicsPipelineCreateInfo& info, uint32_t index,
                                   PreparedGraphicsPipeline& prepared, TemporaryModules& temporaries);

VkResult prepare_ray_tracing_pipeline(const DeviceData& data, const VkRayTracingPipelineCreateInfoKHR& info, uint32_t index,
                                      std::optional<vku::safe_VkRayTracingPipelineCreateInfoKHR>& copy, TemporaryModules& temporaries);

}  // namespace vkpolyfill
