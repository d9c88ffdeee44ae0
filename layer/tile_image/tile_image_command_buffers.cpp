#include "tile_image/tile_image_command_buffers.h"

namespace vkpolyfill {

CommandBufferState& CommandBufferStates::at(VkCommandBuffer command_buffer) {
    if (CommandBufferState* state = find(command_buffer)) return *state;
    auto state = std::make_shared<CommandBufferState>();
    CommandBufferState& result = *state;
    states_.insert_or_assign(command_buffer, std::move(state));
    return result;
}

CommandBufferState* CommandBufferStates::find(VkCommandBuffer command_buffer) const {
    const auto found = states_.find(command_buffer);
    return found->first ? found->second.get() : nullptr;
}

}  // namespace vkpolyfill
