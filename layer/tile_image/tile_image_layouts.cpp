#include "tile_image/tile_image_layouts.h"

#include <array>
#include <format>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

std::vector<uint32_t> signature(const lowering::TileImageUsage& usage, bool interlock) {
    std::vector<uint32_t> key{usage.depth ? 1u : 0u, usage.stencil ? 1u : 0u, interlock ? 1u : 0u};
    for (const lowering::TileImageColors& c : usage.colors) {
        key.push_back(c.location);
        key.push_back(c.count);
    }
    return key;
}

}  // namespace

TileImageLayouts::TileImageLayouts(VkDevice device, const VkuDeviceDispatchTable& next, uint32_t layer_set,
                                   uint32_t depth_binding, bool storage_colors)
    : device_(device), next_(next), layer_set_(layer_set), depth_binding_(depth_binding), storage_colors_(storage_colors) {
    VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper();
    if (next_.CreateDescriptorSetLayout(device_, &info, nullptr, &empty_) != VK_SUCCESS) empty_ = VK_NULL_HANDLE;
    create_shared();
}

TileImageLayouts::~TileImageLayouts() {
    next_.DestroyDescriptorSetLayout(device_, shared_, nullptr);
    next_.DestroyDescriptorSetLayout(device_, empty_, nullptr);
}

// Bindings are partially bound: a render pass may lack attachments a shader could read but does not.
void TileImageLayouts::create_shared() {
    const std::array bindings{
        VkDescriptorSetLayoutBinding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, depth_binding_, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        VkDescriptorSetLayoutBinding{depth_binding_, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        VkDescriptorSetLayoutBinding{depth_binding_ + 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        VkDescriptorSetLayoutBinding{depth_binding_ + 2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, depth_binding_, VK_SHADER_STAGE_FRAGMENT_BIT,
                                     nullptr}};
    std::array<VkDescriptorBindingFlags, bindings.size()> flags;
    flags.fill(VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
    VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags = vku::InitStructHelper();
    const uint32_t count = storage_colors_ ? 4 : 3;
    binding_flags.bindingCount = count;
    binding_flags.pBindingFlags = flags.data();
    VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper(&binding_flags);
    info.bindingCount = count;
    info.pBindings = bindings.data();
    if (next_.CreateDescriptorSetLayout(device_, &info, nullptr, &shared_) != VK_SUCCESS) shared_ = VK_NULL_HANDLE;
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
    pipeline_layouts_.erase(layout);
}

std::shared_ptr<const ApplicationLayout> TileImageLayouts::application_layout(VkPipelineLayout layout) const {
    const auto found = application_.find(layout);
    return found->first ? found->second : nullptr;
}

std::shared_ptr<const TileSetLayout> TileImageLayouts::set_layout(const lowering::TileImageUsage& usage, bool interlock) {
    if (shared_ == VK_NULL_HANDLE) return nullptr;
    const std::vector<uint32_t> key = signature(usage, interlock);
    std::lock_guard lock(mutex_);
    std::shared_ptr<const TileSetLayout>& set = set_layouts_[key];
    if (!set) set = std::make_shared<const TileSetLayout>(TileSetLayout{shared_, usage.colors, usage.depth, usage.stencil, interlock});
    return set;
}

std::vector<VkDescriptorSetLayout> TileImageLayouts::set_layouts(std::span<const VkDescriptorSetLayout> application) const {
    if (shared_ == VK_NULL_HANDLE) return {};
    std::vector<VkDescriptorSetLayout> sets(application.begin(), application.end());
    sets.resize(layer_set_, empty_);
    sets.push_back(shared_);
    return sets;
}

std::shared_ptr<const LayerPipelineLayout> TileImageLayouts::create(const ApplicationLayout& application) {
    const std::vector<VkDescriptorSetLayout> sets = set_layouts(application.sets);
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

std::string TileImageLayouts::too_many_sets(size_t sets) const {
    if (sets <= layer_set_) return {};
    return std::format("lists {} descriptor set layouts, and a shader reading tile images may list {}: the layer's input "
                       "attachments take set {}, the last of the device's {} (maxBoundDescriptorSets)",
                       sets, layer_set_, layer_set_, layer_set_ + 1);
}

std::shared_ptr<const LayerPipelineLayout> TileImageLayouts::pipeline_layout(VkPipelineLayout application, std::string& error) {
    const std::shared_ptr<const ApplicationLayout> app = application_layout(application);
    if (!app) {
        error = "its pipeline layout was created before the layer could see it";
        return nullptr;
    }
    if (std::string reason = too_many_sets(app->sets.size()); !reason.empty()) {
        error = "its pipeline layout " + reason;
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    std::weak_ptr<const LayerPipelineLayout>& slot = pipeline_layouts_[application];
    std::shared_ptr<const LayerPipelineLayout> layout = slot.lock();
    if (!layout) {
        layout = create(*app);
        slot = layout;
    }
    if (!layout) error = "the driver could not create its pipeline layout";
    return layout;
}

}  // namespace vkpolyfill
