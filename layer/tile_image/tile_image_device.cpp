#include "tile_image/tile_image_device.h"

#include <utility>

namespace vkpolyfill {

TileImageDevice::TileImageDevice(VkDevice handle, const VkuDeviceDispatchTable& dispatch, const lowering::TileImageTarget& tile,
                                 std::string limit, const TileImageOrder& ordering, const VkPhysicalDeviceMemoryProperties& memory)
    : device(handle),
      next(dispatch),
      target(tile),
      color_limit(std::move(limit)),
      order(ordering),
      set_input_attachment_indices(dispatch.CmdSetRenderingInputAttachmentIndicesKHR ? dispatch.CmdSetRenderingInputAttachmentIndicesKHR
                                                                                     : dispatch.CmdSetRenderingInputAttachmentIndices),
      views(handle, dispatch),
      layouts(handle, dispatch, tile.descriptor_set, tile.depth_binding, ordering.interlock),
      descriptors(handle, dispatch, tile.depth_binding),
      primitive_indices(handle, dispatch, memory) {}

}  // namespace vkpolyfill
