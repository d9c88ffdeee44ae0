#include "tile_image_layouts.h"

#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

std::vector<uint32_t> signature(const lowering::TileImageUsage& usage) {
    std::vector<uint32_t> key{usage.depth ? 1u : 0u, usage.stencil ? 1u : 0u};
    for (const lowering::TileImageColors& c : usage.colors) {
        key.push_back(c.location);
        key.push_back(c.count);
    }
    return key;
}

}  // namespace

TileImageLayouts::TileImageLayouts(VkDevice device, const VkuDeviceDispatchTable& next, uint32_t layer_set,
                                   uint32_t depth_binding)
    : device_(device), next_(next), layer_set_(layer_set), depth_binding_(depth_binding) {
    VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper();
    if (next_.CreateDescriptorSetLayout(device_, &info, nullptr, &empty_) != VK_SUCCESS) empty_ = VK_NULL_HANDLE;
}

TileImageLayouts::~TileImageLayouts() {
    for (const auto& [key, set] : set_layouts_) next_.DestroyDescriptorSetLayout(device_, set->handle, nullptr);
    next_.DestroyDescriptorSetLayout(device_, empty_, nullptr);
}

void TileImageLayouts::record(VkPipelineLayout layout, const VkPipelineLayoutCreateInfo& info) {
    auto application = std::make_shared<ApplicationLayout>();
    application->sets.assign(info.pSetLayouts, info.pSetLayouts + info.setLayoutCount);
    application->push_constants.assign(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount);
    application->flags = info.flags;
    application_.insert_or_assign(layout, std::move(application));
}

void TileImageLayouts::forget(VkPipelineLayout layout) {
    if (!application_.erase(layout)) return;
    std::lock_guard lock(mutex_);  // a later layout may get the same handle
    std::erase_if(pipeline_layouts_, [layout](const auto& entry) { return entry.first.first == layout; });
}

std::shared_ptr<const ApplicationLayout> TileImageLayouts::application_layout(VkPipelineLayout layout) const {
    const auto found = application_.find(layout);
    return found->first ? found->second : nullptr;
}

// Binding L holds the attachments at locations L..L+count-1, so a tile-image array lowered to an
// input-attachment array finds its elements in order; depth and stencil follow the colors. Bindings
// are partially bound: a render pass may lack attachments a shader could read but does not.
std::shared_ptr<const TileSetLayout> TileImageLayouts::set_layout(const lowering::TileImageUsage& usage) {
    const std::vector<uint32_t> key = signature(usage);
    std::lock_guard lock(mutex_);
    if (const auto found = set_layouts_.find(key); found != set_layouts_.end()) return found->second;
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    auto add = [&bindings](uint32_t binding, uint32_t count) {
        bindings.push_back({binding, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, count, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    };
    for (const lowering::TileImageColors& c : usage.colors) add(c.location, c.count);
    if (usage.depth) add(depth_binding_, 1);
    if (usage.stencil) add(depth_binding_ + 1, 1);
    const std::vector<VkDescriptorBindingFlags> flags(bindings.size(), VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
    VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags = vku::InitStructHelper();
    binding_flags.bindingCount = static_cast<uint32_t>(flags.size());
    binding_flags.pBindingFlags = flags.data();
    VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper(&binding_flags);
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    auto set = std::make_shared<TileSetLayout>();
    if (next_.CreateDescriptorSetLayout(device_, &info, nullptr, &set->handle) != VK_SUCCESS) return nullptr;
    set->colors = usage.colors;
    set->depth = usage.depth;
    set->stencil = usage.stencil;
    set_layouts_.emplace(key, set);
    return set;
}

std::vector<VkDescriptorSetLayout> TileImageLayouts::set_layouts(const ApplicationLayout& application,
                                                                 const TileSetLayout& set) const {
    std::vector<VkDescriptorSetLayout> sets = application.sets;
    sets.resize(layer_set_, empty_);
    sets.push_back(set.handle);
    return sets;
}

std::shared_ptr<const LayerPipelineLayout> TileImageLayouts::create(const ApplicationLayout& application,
                                                                     const TileSetLayout& set) {
    const std::vector<VkDescriptorSetLayout> sets = set_layouts(application, set);
    VkPipelineLayoutCreateInfo info = vku::InitStructHelper();
    info.flags = application.flags;
    info.setLayoutCount = static_cast<uint32_t>(sets.size());
    info.pSetLayouts = sets.data();
    info.pushConstantRangeCount = static_cast<uint32_t>(application.push_constants.size());
    info.pPushConstantRanges = application.push_constants.data();
    VkPipelineLayout layout = VK_NULL_HANDLE;
    if (next_.CreatePipelineLayout(device_, &info, nullptr, &layout) != VK_SUCCESS) return nullptr;
    return std::make_shared<const LayerPipelineLayout>(device_, next_, layout);
}

std::shared_ptr<const LayerPipelineLayout> TileImageLayouts::pipeline_layout(VkPipelineLayout application,
                                                                              const TileSetLayout& set, std::string& error) {
    const std::shared_ptr<const ApplicationLayout> app = application_layout(application);
    if (!app) {
        error = "its pipeline layout was created before the layer could see it";
        return nullptr;
    }
    if (app->sets.size() > layer_set_) {
        error = std::format("its pipeline layout has {} descriptor sets; with tile-image reads the device has {}",
                            app->sets.size(), layer_set_);
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    std::weak_ptr<const LayerPipelineLayout>& slot = pipeline_layouts_[{application, set.handle}];
    std::shared_ptr<const LayerPipelineLayout> layout = slot.lock();
    if (!layout) {
        layout = create(*app, set);
        slot = layout;
    }
    if (!layout) error = "the driver could not create its pipeline layout";
    return layout;
}

}  // namespace vkpolyfill
