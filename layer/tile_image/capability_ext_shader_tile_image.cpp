// VK_EXT_shader_tile_image as a Capability: when the driver has it, what the emulation needs, what the
// layer reports for it (features, properties, and the descriptor limits it takes), and what it turns
// on at vkCreateDevice.
#include "tile_image/capability_ext_shader_tile_image.h"

#include <algorithm>
#include <format>

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/extension_list.h"
#include "core/feature_enabling.h"
#include "tile_image/tile_image_descriptors.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME;

// What the application keeps of the limits the layer's set takes from: Vulkan's minimums for
// maxBoundDescriptorSets and for maxPerStageDescriptorInputAttachments / maxDescriptorSetInputAttachments,
// so that the limits the layer reports stay valid ones.
constexpr uint32_t kApplicationSets = 4;
constexpr uint32_t kApplicationInputAttachments = 4;
constexpr uint32_t kDepthStencilAttachments = 2;

bool has_local_read_extension(const PhysicalDeviceFacts& facts) {
    return facts.native_spec_version(VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME) != 0;
}

// Vulkan 1.4 made local reads of depth/stencil and multisampled attachments optional; the extension
// has them all.
bool depth_stencil_local_reads(const PhysicalDeviceFacts& facts) {
    return has_local_read_extension(facts) || facts.vulkan14_properties.dynamicRenderingLocalReadDepthStencilAttachments;
}

bool multisampled_local_reads(const PhysicalDeviceFacts& facts) {
    return has_local_read_extension(facts) || facts.vulkan14_properties.dynamicRenderingLocalReadMultisampledAttachments;
}

// Coherent reads of an aspect without rasterization-order access are ordered by splitting draws.
bool depth_reads(const PhysicalDeviceFacts& facts) { return depth_stencil_local_reads(facts); }

bool stencil_reads(const PhysicalDeviceFacts& facts) { return depth_stencil_local_reads(facts); }

bool has_rasterization_order(const PhysicalDeviceFacts& facts) {
    return facts.native_spec_version(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME) != 0;
}

// Storage images of the attachments read and written in a pixel-ordered critical section
// (lower.h's TileImageTarget::interlock).
bool has_interlock(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceFeatures& core = facts.features;
    return facts.native_spec_version(VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME) != 0 &&
           facts.fragment_shader_interlock.fragmentShaderPixelInterlock && core.fragmentStoresAndAtomics &&
           core.shaderStorageImageReadWithoutFormat && core.shaderStorageImageWriteWithoutFormat &&
           core.shaderStorageImageArrayDynamicIndexing;
}

// The same for multisampled attachments: multisampled storage images, and the coverage after the early
// tests that the shader's writes must follow.
bool has_multisampled_interlock(const PhysicalDeviceFacts& facts) {
    return has_interlock(facts) && facts.features.shaderStorageImageMultisample &&
           facts.native_spec_version(VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME) != 0;
}

uint32_t input_attachment_limit(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceLimits& limits = facts.properties.limits;
    return std::min(limits.maxPerStageDescriptorInputAttachments, limits.maxDescriptorSetInputAttachments);
}

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    std::string missing;
    auto need = [&missing](const std::string& what) { missing += (missing.empty() ? "needs " : ", ") + what; };
    if (!facts.vulkan13.dynamicRendering) need("dynamicRendering");
    if (!facts.local_read.dynamicRenderingLocalRead) need("dynamicRenderingLocalRead");
    if (!multisampled_local_reads(facts)) need("local reads of multisampled attachments");
    if (!facts.vulkan12.descriptorBindingPartiallyBound) need("descriptorBindingPartiallyBound");
    if (!facts.vulkan12.separateDepthStencilLayouts) need("separateDepthStencilLayouts");
    if (tile_image_color_budget(facts).colors == 0) {
        need(std::format("input attachments for a color, depth and stencil beside the {} Vulkan guarantees the application "
                         "(maxPerStageDescriptorInputAttachments is {})",
                         kApplicationInputAttachments, input_attachment_limit(facts)));
    }
    return missing;
}

bool is_native(const PhysicalDeviceFacts& facts) {
    return facts.native_spec_version(kExtension) != 0 && facts.shader_tile_image.shaderTileImageColorReadAccess;
}

void report_features(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceShaderTileImageFeaturesEXT>(chain->pNext)) {
        features->shaderTileImageColorReadAccess = VK_TRUE;
        features->shaderTileImageDepthReadAccess = depth_reads(facts);
        features->shaderTileImageStencilReadAccess = stencil_reads(facts);
    }
}

uint32_t reduced(uint32_t limit, uint32_t taken) { return limit > taken ? limit - taken : 0; }

// The layer's descriptor set takes the device's last set and an input attachment per attachment from
// every stage. Where the device has no more sets than Vulkan's minimum (Turnip on the Adreno 6xx: 4), the
// limit stays that minimum and the layer's set is the fourth: a pipeline or shader object reading tile
// images may list 3 sets, and one listing 4 is refused with an error naming the limit
// (TileImageLayouts::too_many_sets).
void report_limits(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    const uint32_t taken = tile_image_input_attachments(facts);
    VkPhysicalDeviceLimits& limits = reinterpret_cast<VkPhysicalDeviceProperties2*>(chain)->properties.limits;
    const VkPhysicalDeviceLimits& driver = facts.properties.limits;
    limits.maxBoundDescriptorSets = std::max(driver.maxBoundDescriptorSets - 1, kApplicationSets);
    limits.maxPerStageDescriptorInputAttachments = reduced(driver.maxPerStageDescriptorInputAttachments, taken);
    limits.maxDescriptorSetInputAttachments = reduced(driver.maxDescriptorSetInputAttachments, taken);
    // Where an interlock may order reads, the set also has a storage image per color location.
    const uint32_t storage = has_interlock(facts) ? tile_image_color_budget(facts).colors : 0;
    limits.maxPerStageDescriptorStorageImages = reduced(driver.maxPerStageDescriptorStorageImages, storage);
    limits.maxDescriptorSetStorageImages = reduced(driver.maxDescriptorSetStorageImages, storage);
    limits.maxPerStageResources = reduced(driver.maxPerStageResources, taken + storage);
    auto reduce_update_after_bind = [taken, storage](auto* properties) {
        if (properties == nullptr) return;
        properties->maxPerStageDescriptorUpdateAfterBindInputAttachments =
            reduced(properties->maxPerStageDescriptorUpdateAfterBindInputAttachments, taken);
        properties->maxDescriptorSetUpdateAfterBindInputAttachments =
            reduced(properties->maxDescriptorSetUpdateAfterBindInputAttachments, taken);
        properties->maxPerStageDescriptorUpdateAfterBindStorageImages =
            reduced(properties->maxPerStageDescriptorUpdateAfterBindStorageImages, storage);
        properties->maxDescriptorSetUpdateAfterBindStorageImages =
            reduced(properties->maxDescriptorSetUpdateAfterBindStorageImages, storage);
        properties->maxPerStageUpdateAfterBindResources = reduced(properties->maxPerStageUpdateAfterBindResources, taken + storage);
    };
    reduce_update_after_bind(vku::FindStructInPNextChain<VkPhysicalDeviceVulkan12Properties>(chain->pNext));
    reduce_update_after_bind(vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorIndexingProperties>(chain->pNext));
}

void report_properties(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    report_limits(facts, chain);
    if (auto* properties = vku::FindStructInPNextChain<VkPhysicalDeviceShaderTileImagePropertiesEXT>(chain->pNext)) {
        // Coherent reads cost rasterization-order access or split draws here, not nothing as in tile memory.
        properties->shaderTileImageCoherentReadAccelerated = VK_FALSE;
        // Multisampled input attachments read any sample of the pixel from any invocation.
        properties->shaderTileImageReadSampleFromPixelRateInvocation = VK_TRUE;
        // Helper invocations read input attachments outside the primitive, where neither
        // rasterization order nor the application's barriers say anything.
        properties->shaderTileImageReadFromHelperInvocation = VK_FALSE;
    }
}

// The rasterization-order access the device has, for the coherent reads of those aspects.
void enable_rasterization_order(const PhysicalDeviceFacts& facts, vku::safe_VkDeviceCreateInfo& create_info) {
    if (!has_rasterization_order(facts)) return;
    vku::AddExtension(create_info, VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME);
    auto* order = vku::FindStructInPNextChain<VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT>(
        const_cast<void*>(create_info.pNext));
    VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT added = vku::InitStructHelper();
    VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT& features = order ? *order : added;
    const VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT& has = facts.rasterization_order;
    features.rasterizationOrderColorAttachmentAccess |= has.rasterizationOrderColorAttachmentAccess;
    features.rasterizationOrderDepthAttachmentAccess |= has.rasterizationOrderDepthAttachmentAccess && depth_reads(facts);
    features.rasterizationOrderStencilAttachmentAccess |= has.rasterizationOrderStencilAttachmentAccess && stencil_reads(facts);
    if (!order) vku::AddToPnext(create_info, added);
}

void enable_interlock(const PhysicalDeviceFacts& facts, vku::safe_VkDeviceCreateInfo& create_info) {
    if (!has_interlock(facts)) return;
    vku::AddExtension(create_info, VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME);
    if (auto* interlock = vku::FindStructInPNextChain<VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT>(
            const_cast<void*>(create_info.pNext))) {
        interlock->fragmentShaderPixelInterlock = VK_TRUE;
    } else {
        VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT added = vku::InitStructHelper();
        added.fragmentShaderPixelInterlock = VK_TRUE;
        vku::AddToPnext(create_info, added);
    }
    for (VkBool32 VkPhysicalDeviceFeatures::*feature :
         {&VkPhysicalDeviceFeatures::fragmentStoresAndAtomics, &VkPhysicalDeviceFeatures::shaderStorageImageReadWithoutFormat,
          &VkPhysicalDeviceFeatures::shaderStorageImageWriteWithoutFormat,
          &VkPhysicalDeviceFeatures::shaderStorageImageArrayDynamicIndexing}) {
        enable_core_feature(create_info, feature, VK_TRUE);
    }
    if (!has_multisampled_interlock(facts)) return;
    vku::AddExtension(create_info, VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME);
    enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderStorageImageMultisample, VK_TRUE);
}

// The driver never sees the extension's feature struct; when the application enabled the extension,
// the copy turns on what the lowered shaders and the render-pass emulation use.
void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t, bool, vku::safe_VkDeviceCreateInfo& create_info) {
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TILE_IMAGE_FEATURES_EXT);
    if (!enables_extension(&create_info, kExtension)) return;
    // The extension, where the driver has it, brings local reads of depth/stencil and multisampled
    // attachments that Vulkan 1.4 alone may lack.
    if (has_local_read_extension(facts)) vku::AddExtension(create_info, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME);
    enable_feature(create_info, &VkPhysicalDeviceVulkan14Features::dynamicRenderingLocalRead,
                   &VkPhysicalDeviceDynamicRenderingLocalReadFeatures::dynamicRenderingLocalRead);
    enable_rasterization_order(facts, create_info);
    enable_interlock(facts, create_info);
    enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::descriptorBindingPartiallyBound,
                   &VkPhysicalDeviceDescriptorIndexingFeatures::descriptorBindingPartiallyBound);
    // Without it, the lowering indexes the layer's input attachments with constants only.
    if (facts.vulkan12.shaderInputAttachmentArrayDynamicIndexing) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::shaderInputAttachmentArrayDynamicIndexing,
                       &VkPhysicalDeviceDescriptorIndexingFeatures::shaderInputAttachmentArrayDynamicIndexing);
    }
    enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::separateDepthStencilLayouts,
                   &VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures::separateDepthStencilLayouts);
}

}  // namespace

TileImageOrder tile_image_order(const PhysicalDeviceFacts& facts, TileImageOrdering setting) {
    const VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT& has = facts.rasterization_order;
    const bool enabled = has_rasterization_order(facts);
    return {.color = enabled && has.rasterizationOrderColorAttachmentAccess,
            .depth = enabled && has.rasterizationOrderDepthAttachmentAccess,
            .stencil = enabled && has.rasterizationOrderStencilAttachmentAccess,
            // llvmpipe rasterizes and shades the primitives of a render pass instance in submission
            // order, tile by tile; other drivers promise nothing without rasterization-order access.
            .shades_in_primitive_order = facts.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE,
            .always_split = setting == TileImageOrdering::DrawSplitting,
            .interlock = has_interlock(facts),
            .multisampled_interlock = has_multisampled_interlock(facts),
            .prefer_interlock = setting == TileImageOrdering::Interlock};
}

TileImageColorBudget tile_image_color_budget(const PhysicalDeviceFacts& facts) {
    const uint32_t attachments = std::min(facts.properties.limits.maxColorAttachments, kMaxTileImageColors);
    const uint32_t input = input_attachment_limit(facts);
    const uint32_t spare = input > kApplicationInputAttachments + kDepthStencilAttachments
                               ? input - kApplicationInputAttachments - kDepthStencilAttachments
                               : 0;
    if (spare < attachments) {
        return {spare, std::format("maxPerStageDescriptorInputAttachments {}, less depth, stencil and the {} Vulkan guarantees "
                                   "the application",
                                   input, kApplicationInputAttachments)};
    }
    return {attachments, std::format("min(maxColorAttachments, {})", kMaxTileImageColors)};
}

uint32_t tile_image_input_attachments(const PhysicalDeviceFacts& facts) {
    return tile_image_color_budget(facts).colors + kDepthStencilAttachments;
}

lowering::TileImageTarget tile_image_target(const PhysicalDeviceFacts& facts) {
    return {.descriptor_set = facts.properties.limits.maxBoundDescriptorSets - 1,
            .depth_binding = tile_image_color_budget(facts).colors,
            .samples = 1,
            .dynamic_indexing = facts.vulkan12.shaderInputAttachmentArrayDynamicIndexing == VK_TRUE};
}

Capability ext_shader_tile_image_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_EXT_SHADER_TILE_IMAGE_SPEC_VERSION,
        .lowering = lowering::Emulated::ExtShaderTileImage,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .physical_device_functions = {},
    };
}

}  // namespace vkpolyfill
