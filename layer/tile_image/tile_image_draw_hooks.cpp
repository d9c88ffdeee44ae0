// Draws on devices emulating tile images (tile_image_draw_splitting.h): vkCmdDraw and vkCmdDrawIndexed
// split per primitive while a pipeline or shader object that needs it is bound in a render pass
// instance; the draws that cannot be split reported; every draw of a pipeline whose reads an interlock
// orders between its barriers (tile_image_interlock.h); and the state split draws need, the dynamic
// topology and the application's index buffer.
#include <utility>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tile_image/tile_image_draw_splitting.h"
#include "tile_image/tile_image_interlock.h"

namespace vkpolyfill::hooks {
namespace {

constexpr char kIndirect[] = "it is an indirect draw (its counts are in a buffer, read on the device)";
constexpr char kMulti[] = "it is a multi-draw (split, its draws' indices would change)";
constexpr char kMesh[] = "it draws mesh tasks (their primitives are made on the device)";

// Records a draw that is not split: between the interlock's barriers when the bound pipeline's reads
// need them, reported (`why`) when they need splitting. `state` is ordering_state's.
template <typename Draw>
void draw_unsplit(const DeviceData& data, CommandBufferState* state, VkCommandBuffer command_buffer, const char* why, Draw&& draw) {
    if (state && state->pipeline->interlock) {
        interlock_barrier(data, command_buffer);
        draw();
        interlock_barrier(data, command_buffer);
        return;
    }
    if (state) report_unsplit(data, *state, command_buffer, why);
    draw();
}

// A draw that can never be split (`why`).
template <typename Draw>
void draw_unsplittable(const DeviceData& data, VkCommandBuffer command_buffer, const char* why, Draw&& draw) {
    draw_unsplit(data, ordering_state(*data.tile_image, command_buffer), command_buffer, why, std::forward<Draw>(draw));
}

// vkCmdDraw[Indexed]IndirectCount, core or KHR (the hooks serve both names).
template <typename Function>
void draw_indirect_count(VkCommandBuffer command_buffer, Function VkuDeviceDispatchTable::* core, Function VkuDeviceDispatchTable::* khr,
                         VkBuffer buffer, VkDeviceSize offset, VkBuffer count_buffer, VkDeviceSize count_offset, uint32_t max_draws,
                         uint32_t stride) {
    const DeviceData& data = device_data(command_buffer);
    draw_unsplittable(data, command_buffer, kIndirect, [&] {
        (data.next.*core ? data.next.*core : data.next.*khr)(command_buffer, buffer, offset, count_buffer, count_offset, max_draws, stride);
    });
}

void set_topology(VkCommandBuffer command_buffer, VkPrimitiveTopology topology, PFN_vkCmdSetPrimitiveTopology down) {
    const DeviceData& data = device_data(command_buffer);
    down(command_buffer, topology);
    data.tile_image->command_buffers.at(command_buffer).topology = topology;
}

void bind_index_buffer(VkCommandBuffer command_buffer, const IndexBinding& binding) {
    const DeviceData& data = device_data(command_buffer);
    data.tile_image->command_buffers.at(command_buffer).index = binding;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex,
                                   uint32_t firstInstance) {
    const DeviceData& data = device_data(commandBuffer);
    CommandBufferState* state = ordering_state(*data.tile_image, commandBuffer);
    if (state && state->pipeline->split_draws) {
        draw_split(data, *state, commandBuffer, {vertexCount, instanceCount, firstVertex, 0, firstInstance}, false);
        return;
    }
    draw_unsplit(data, state, commandBuffer, "", [&] {
        data.next.CmdDraw(commandBuffer, vertexCount, instanceCount, firstVertex, firstInstance);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex,
                                          int32_t vertexOffset, uint32_t firstInstance) {
    const DeviceData& data = device_data(commandBuffer);
    CommandBufferState* state = ordering_state(*data.tile_image, commandBuffer);
    if (state && state->pipeline->split_draws) {
        draw_split(data, *state, commandBuffer, {indexCount, instanceCount, firstIndex, vertexOffset, firstInstance}, true);
        return;
    }
    draw_unsplit(data, state, commandBuffer, "", [&] {
        data.next.CmdDrawIndexed(commandBuffer, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount,
                                           uint32_t stride) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kIndirect, [&] {
        data.next.CmdDrawIndirect(commandBuffer, buffer, offset, drawCount, stride);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                  uint32_t drawCount, uint32_t stride) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kIndirect, [&] {
        data.next.CmdDrawIndexedIndirect(commandBuffer, buffer, offset, drawCount, stride);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                                                uint32_t stride) {
    draw_indirect_count(commandBuffer, &VkuDeviceDispatchTable::CmdDrawIndirectCount, &VkuDeviceDispatchTable::CmdDrawIndirectCountKHR,
                        buffer, offset, countBuffer, countBufferOffset, maxDrawCount, stride);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                       VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                                                       uint32_t stride) {
    draw_indirect_count(commandBuffer, &VkuDeviceDispatchTable::CmdDrawIndexedIndirectCount,
                        &VkuDeviceDispatchTable::CmdDrawIndexedIndirectCountKHR, buffer, offset, countBuffer, countBufferOffset,
                        maxDrawCount, stride);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount, const VkMultiDrawInfoEXT* pVertexInfo,
                                           uint32_t instanceCount, uint32_t firstInstance, uint32_t stride) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kMulti, [&] {
        data.next.CmdDrawMultiEXT(commandBuffer, drawCount, pVertexInfo, instanceCount, firstInstance, stride);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMultiIndexedEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                                  const VkMultiDrawIndexedInfoEXT* pIndexInfo, uint32_t instanceCount,
                                                  uint32_t firstInstance, uint32_t stride, const int32_t* pVertexOffset) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kMulti, [&] {
        data.next.CmdDrawMultiIndexedEXT(commandBuffer, drawCount, pIndexInfo, instanceCount, firstInstance, stride, pVertexOffset);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMeshTasksEXT(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                               uint32_t groupCountZ) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kMesh, [&] {
        data.next.CmdDrawMeshTasksEXT(commandBuffer, groupCountX, groupCountY, groupCountZ);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMeshTasksIndirectEXT(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                       uint32_t drawCount, uint32_t stride) {
    const DeviceData& data = device_data(commandBuffer);
    draw_unsplittable(data, commandBuffer, kMesh, [&] {
        data.next.CmdDrawMeshTasksIndirectEXT(commandBuffer, buffer, offset, drawCount, stride);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdSetPrimitiveTopology(VkCommandBuffer commandBuffer, VkPrimitiveTopology primitiveTopology) {
    set_topology(commandBuffer, primitiveTopology, device_data(commandBuffer).next.CmdSetPrimitiveTopology);
}

VKAPI_ATTR void VKAPI_CALL CmdSetPrimitiveTopologyEXT(VkCommandBuffer commandBuffer, VkPrimitiveTopology primitiveTopology) {
    set_topology(commandBuffer, primitiveTopology, device_data(commandBuffer).next.CmdSetPrimitiveTopologyEXT);
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                              VkIndexType indexType) {
    device_data(commandBuffer).next.CmdBindIndexBuffer(commandBuffer, buffer, offset, indexType);
    bind_index_buffer(commandBuffer, {true, buffer, offset, VK_WHOLE_SIZE, indexType});
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer2(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                               VkIndexType indexType) {
    device_data(commandBuffer).next.CmdBindIndexBuffer2(commandBuffer, buffer, offset, size, indexType);
    bind_index_buffer(commandBuffer, {true, buffer, offset, size, indexType});
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer2KHR(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                  VkDeviceSize size, VkIndexType indexType) {
    device_data(commandBuffer).next.CmdBindIndexBuffer2KHR(commandBuffer, buffer, offset, size, indexType);
    bind_index_buffer(commandBuffer, {true, buffer, offset, size, indexType});
}

}  // namespace vkpolyfill::hooks
