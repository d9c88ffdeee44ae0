// Coherent color reads ordered by a fragment shader interlock, where the device lacks
// rasterization-order attachment access but has the interlock (RADV): the lowered shader reads and
// writes the colors it reads as storage images of the attachments inside a pixel-ordered critical
// section (lower.h's TileImageTarget::interlock), the pipeline's own writes of those attachments are
// masked, and each of its draws sits between by-region barriers, so the storage accesses and the
// other draws' attachment accesses see each other. A barrier per draw, not per primitive as split
// draws need. Served: pipelines reading no depth or stencil coherently (multisampled ones where the
// device has multisampled storage images and post-depth coverage), without blending, logic ops, alpha
// to coverage or one, or partial write masks at the read locations (static state), whose attachments
// there have storage-image formats and whose shader the lowering can wrap
// (lowering::TileImageUsage::interlock_obstacle); the others split their draws.
#pragma once

#include <string>

#include <vkpolyfill/lowering/tile_image.h>
#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/vulkan.h>

namespace vkpolyfill {

struct DeviceData;
struct TileImageOrder;

// Whether the device's optimally tiled color attachments of `format` can be storage images (with
// `samples` samples).
bool storage_format(const DeviceData& data, VkFormat format, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);

// Whether a new image gets storage usage for the interlock's reads: an optimally tiled color
// attachment the device can make with it, on a device that may use the interlock (for its sample count).
bool adds_storage_usage(const DeviceData& data, const VkImageCreateInfo& info);

// Whether the interlock orders this pipeline's coherent reads (`info` the application's). Where the
// device would use it but the pipeline does not allow it, `obstacle` says why.
bool uses_interlock(const DeviceData& data, const lowering::TileImageUsage& usage, const VkGraphicsPipelineCreateInfo& info,
                    std::string& obstacle);

// Masks the pipeline's own writes of the attachments at the locations the shader reads.
void mask_read_attachments(const lowering::TileImageUsage& usage, const VkGraphicsPipelineCreateInfo& info,
                           vku::safe_VkGraphicsPipelineCreateInfo& copy);

// The by-region barrier before and after each draw of such a pipeline: attachment writes and the
// shader's storage writes before it, against the shader's storage accesses, input-attachment reads
// and attachment accesses after it.
void interlock_barrier(const DeviceData& data, VkCommandBuffer command_buffer);

}  // namespace vkpolyfill
