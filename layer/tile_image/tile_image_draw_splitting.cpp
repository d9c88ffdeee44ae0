#include "tile_image/tile_image_draw_splitting.h"

#include <format>
#include <optional>

#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vk_enum_string_helper.h>

#include "core/device_data.h"

namespace vkpolyfill {
namespace {

// How a topology's draws split: primitive i is `vertices` vertices (or indices) from `step` * i, or,
// for triangle strips and fans, the layer's indices 3i.. (PrimitiveIndices).
struct Split {
    uint32_t vertices;
    uint32_t step;
    enum class Via { Counts, StripIndices, FanIndices } via = Via::Counts;

    uint32_t primitives(uint32_t count) const { return count < vertices ? 0 : (count - vertices) / step + 1; }
};

std::optional<Split> split_of(VkPrimitiveTopology topology) {
    switch (topology) {
        case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return Split{1, 1};
        case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return Split{2, 2};
        case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return Split{2, 1};
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return Split{3, 3};
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: return Split{3, 1, Split::Via::StripIndices};
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return Split{3, 1, Split::Via::FanIndices};
        default: return std::nullopt;  // adjacency, patches
    }
}

// What the primitives drawn so far wrote to the attachments, visible to the next one's reads.
void order_after_earlier_primitives(const DeviceData& data, VkCommandBuffer command_buffer) {
    VkMemoryBarrier barrier = vku::InitStructHelper();
    barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
    const VkPipelineStageFlags writes = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                        VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    data.next.CmdPipelineBarrier(command_buffer, writes, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_DEPENDENCY_BY_REGION_BIT, 1, &barrier,
                                 0, nullptr, 0, nullptr);
}

void bind_application_index_buffer(const DeviceData& data, VkCommandBuffer command_buffer, const IndexBinding& index) {
    if (!index.bound) return;
    if (index.size == VK_WHOLE_SIZE) {
        data.next.CmdBindIndexBuffer(command_buffer, index.buffer, index.offset, index.type);
    } else {
        (data.next.CmdBindIndexBuffer2 ? data.next.CmdBindIndexBuffer2 : data.next.CmdBindIndexBuffer2KHR)(
            command_buffer, index.buffer, index.offset, index.size, index.type);
    }
}

}  // namespace

bool needs_split_draws(const TileImageOrder& order, const lowering::TileImageUsage& usage, bool shader_object) {
    const bool color = !usage.colors.empty() && usage.coherent_color;
    const bool depth = usage.depth && usage.coherent_depth;
    const bool stencil = usage.stencil && usage.coherent_stencil;
    if (!color && !depth && !stencil) return false;
    if (order.always_split) return true;
    if (shader_object) return !order.shades_in_primitive_order;
    return (color && !order.color) || (depth && !order.depth) || (stencil && !order.stencil);
}

CommandBufferState* ordering_state(const TileImageDevice& tile, VkCommandBuffer command_buffer) {
    if (!tile.draws_intercepted.load(std::memory_order_acquire)) return nullptr;
    CommandBufferState* state = tile.command_buffers.find(command_buffer);
    const bool ordered = state && state->rendering && state->pipeline && (state->pipeline->split_draws || state->pipeline->interlock);
    return ordered ? state : nullptr;
}

void report_unsplit(const DeviceData& data, CommandBufferState& state, VkCommandBuffer command_buffer, const std::string& why) {
    if (state.reported_unsplit) return;
    state.reported_unsplit = true;
    const LoggedObject objects[] = {{VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(command_buffer), {}}};
    data.instance->logger.log(
        LogLevel::Error, "vkpolyfill-tile-image",
        std::format("VkCommandBuffer {}: error: a draw reads tile images coherently on a device where the layer orders such reads by "
                    "splitting draws into a draw per primitive, and {}: it runs unsplit, its overlapping fragments may read out of "
                    "order. Declare the NonCoherent*AttachmentReadEXT modes and order the draws with by-region barriers",
                    static_cast<const void*>(command_buffer), why),
        objects);
}

void draw_split(const DeviceData& data, CommandBufferState& state, VkCommandBuffer command_buffer, const DrawCounts& draw,
                bool indexed) {
    auto unsplit = [&](const std::string& why) {
        report_unsplit(data, state, command_buffer, why);
        if (indexed) {
            data.next.CmdDrawIndexed(command_buffer, draw.count, draw.instances, draw.first, draw.vertex_offset, draw.first_instance);
        } else {
            data.next.CmdDraw(command_buffer, draw.count, draw.instances, draw.first, draw.first_instance);
        }
    };
    const std::optional<VkPrimitiveTopology> topology = state.pipeline->topology ? state.pipeline->topology : state.topology;
    if (!topology) return unsplit("its primitive topology is dynamic and was never set");
    const std::optional<Split> split = split_of(*topology);
    if (!split) return unsplit(std::format("its topology {} cannot be split", string_VkPrimitiveTopology(*topology)));
    if (indexed && split->via != Split::Via::Counts) {
        return unsplit("it draws an indexed triangle strip or fan, whose triangles' windings depend on the indices");
    }
    const uint32_t primitives = split->primitives(draw.count);
    VkBuffer indices = VK_NULL_HANDLE;
    if (split->via != Split::Via::Counts && primitives > 0) {
        TileImageDevice& tile = *data.tile_image;
        indices = split->via == Split::Via::StripIndices ? tile.primitive_indices.strip(primitives) : tile.primitive_indices.fan(primitives);
        if (indices == VK_NULL_HANDLE) return unsplit("the layer could not make the index buffer it draws single triangles with");
        data.next.CmdBindIndexBuffer(command_buffer, indices, 0, VK_INDEX_TYPE_UINT32);
    }
    for (uint32_t instance = 0; instance < draw.instances; ++instance) {
        for (uint32_t i = 0; i < primitives; ++i) {
            order_after_earlier_primitives(data, command_buffer);
            const uint32_t at = draw.first + i * split->step;
            if (indices != VK_NULL_HANDLE) {  // 3i.. of the layer's indices, offset by the draw's first vertex
                data.next.CmdDrawIndexed(command_buffer, 3, 1, 3 * i, static_cast<int32_t>(draw.first),
                                         draw.first_instance + instance);
            } else if (indexed) {
                data.next.CmdDrawIndexed(command_buffer, split->vertices, 1, at, draw.vertex_offset, draw.first_instance + instance);
            } else {
                data.next.CmdDraw(command_buffer, split->vertices, 1, at, draw.first_instance + instance);
            }
        }
    }
    if (indices != VK_NULL_HANDLE) bind_application_index_buffer(data, command_buffer, state.index);
}

}  // namespace vkpolyfill
