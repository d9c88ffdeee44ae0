// What the layer reports for VK_EXT_shader_tile_image on drivers without it, what the driver gets at
// vkCreateDevice, and how an unsupported use is reported: VK_ERROR_UNKNOWN and a debug-utils message
// naming the shader.
#include <algorithm>
#include <bit>
#include <format>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "debug_messages.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "tile_image_renderer.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kExtension = VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME;

bool lists_extension(VkPhysicalDevice physical_device) { return lists_device_extension(physical_device, kExtension); }

TEST(TileImageReporting, TheExtensionItsFeaturesAndPropertiesAppearWithTheLayer) {
    Context without_layer({.layer = false});
    Context with_layer({});
    EXPECT_FALSE(lists_extension(without_layer.physical_device)) << "this driver has the extension: the test assumes it lacks it";
    EXPECT_TRUE(lists_extension(with_layer.physical_device));

    VkPhysicalDeviceShaderTileImageFeaturesEXT features = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features2 = vku::InitStructHelper(&features);
    vkGetPhysicalDeviceFeatures2(with_layer.physical_device, &features2);
    EXPECT_TRUE(features.shaderTileImageColorReadAccess);
    // Both drivers order depth and stencil attachment accesses (rasterization-order access).
    EXPECT_TRUE(features.shaderTileImageDepthReadAccess);
    EXPECT_TRUE(features.shaderTileImageStencilReadAccess);

    VkPhysicalDeviceShaderTileImagePropertiesEXT properties = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties2 = vku::InitStructHelper(&properties);
    vkGetPhysicalDeviceProperties2(with_layer.physical_device, &properties2);
    EXPECT_FALSE(properties.shaderTileImageCoherentReadAccelerated);
    EXPECT_TRUE(properties.shaderTileImageReadSampleFromPixelRateInvocation);
    EXPECT_FALSE(properties.shaderTileImageReadFromHelperInvocation);
}

// Whether the driver has what a fragment shader interlock's reads need (lavapipe 26 does).
bool has_interlock(VkPhysicalDevice physical_device) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data());
    const bool listed = std::ranges::any_of(extensions, [](const VkExtensionProperties& e) {
        return std::string_view(e.extensionName) == VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME;
    });
    if (!listed) return false;
    VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT interlock = vku::InitStructHelper();
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&interlock);
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    return interlock.fragmentShaderPixelInterlock && features.features.fragmentStoresAndAtomics &&
           features.features.shaderStorageImageReadWithoutFormat && features.features.shaderStorageImageWriteWithoutFormat;
}

TEST(TileImageReporting, TheLayersDescriptorSetAndInputAttachmentsLeaveTheReportedLimits) {
    Context without_layer({.layer = false});
    Context with_layer({});
    VkPhysicalDeviceProperties driver, layer;
    vkGetPhysicalDeviceProperties(without_layer.physical_device, &driver);
    vkGetPhysicalDeviceProperties(with_layer.physical_device, &layer);
    EXPECT_EQ(layer.limits.maxBoundDescriptorSets, driver.limits.maxBoundDescriptorSets - 1);
    const uint32_t taken = std::min(driver.limits.maxColorAttachments, 8u) + 2;
    EXPECT_EQ(layer.limits.maxPerStageDescriptorInputAttachments, driver.limits.maxPerStageDescriptorInputAttachments - taken);
    EXPECT_EQ(layer.limits.maxDescriptorSetInputAttachments, driver.limits.maxDescriptorSetInputAttachments - taken);
    // Where the driver has what a fragment shader interlock's reads need (lavapipe 26), a storage image
    // per color location too.
    const uint32_t colors = has_interlock(without_layer.physical_device) ? taken - 2 : 0;
    EXPECT_EQ(layer.limits.maxPerStageDescriptorStorageImages, driver.limits.maxPerStageDescriptorStorageImages - colors);
    EXPECT_EQ(layer.limits.maxDescriptorSetStorageImages, driver.limits.maxDescriptorSetStorageImages - colors);
    EXPECT_LE(layer.limits.maxPerStageResources, driver.limits.maxPerStageResources - taken - colors);  // tensors take some too
    // The version-2 query says the same.
    VkPhysicalDeviceProperties2 properties2 = vku::InitStructHelper();
    vkGetPhysicalDeviceProperties2(with_layer.physical_device, &properties2);
    EXPECT_EQ(properties2.properties.limits.maxBoundDescriptorSets, layer.limits.maxBoundDescriptorSets);
    EXPECT_EQ(properties2.properties.limits.maxPerStageResources, layer.limits.maxPerStageResources);
}

TEST(TileImageReporting, TheDriverGetsLocalReadsAndRasterizationOrderInsteadOfTheExtension) {
    TempDir spy;
    ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    VkPhysicalDeviceShaderTileImageFeaturesEXT features = vku::InitStructHelper();
    features.shaderTileImageColorReadAccess = VK_TRUE;
    Context context({.spy = true, .device_extensions = {kExtension}, .device_features_next = &features});
    const auto records = spy.files_ending_with("-device.txt");
    ASSERT_EQ(records.size(), 1u);
    const std::vector<std::string> lines = read_lines(records[0]);
    const std::set<std::string> enabled(lines.begin(), lines.end());
    EXPECT_EQ(enabled.count(kExtension), 0u);
    EXPECT_EQ(enabled.count(VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME), 1u);
    EXPECT_EQ(enabled.count(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME), 1u);
    // And the interlock where the driver has what its reads need (lavapipe 26).
    EXPECT_EQ(enabled.count(VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME), has_interlock(context.physical_device) ? 1u : 0u);
}

// Swapchain images are attachments the WSI makes: the layer adds the usage tile-image reads need at
// vkCreateSwapchainKHR, where the surface supports it (input attachment; storage where the driver has
// the interlock and the format is a storage format), as for the application's images; with the
// extension not enabled, the application's usage reaches the driver. A headless surface serves on
// lavapipe; the spy layer shows what the driver got.
TEST(TileImageReporting, SwapchainImagesGetTheUsageTheReadsNeed) {
    for (const bool enabled : {false, true}) {
        SCOPED_TRACE(enabled ? "emulating tile images" : "not emulating tile images");
        TempDir spy;
        ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
        VkPhysicalDeviceShaderTileImageFeaturesEXT features = vku::InitStructHelper();
        features.shaderTileImageColorReadAccess = VK_TRUE;
        std::vector<const char*> extensions{VK_KHR_SWAPCHAIN_EXTENSION_NAME};
        if (enabled) extensions.push_back(kExtension);
        Context context({.spy = true,
                         .instance_extensions = {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME},
                         .device_extensions = extensions,
                         .device_features_next = enabled ? &features : nullptr});
        const auto create_surface =
            reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(vkGetInstanceProcAddr(context.instance, "vkCreateHeadlessSurfaceEXT"));
        ASSERT_NE(create_surface, nullptr);
        VkHeadlessSurfaceCreateInfoEXT surface_info = vku::InitStructHelper();
        VkSurfaceKHR surface = VK_NULL_HANDLE;
        check(create_surface(context.instance, &surface_info, nullptr, &surface), "vkCreateHeadlessSurfaceEXT");
        VkSurfaceCapabilitiesKHR capabilities{};
        check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.physical_device, surface, &capabilities),
              "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
        uint32_t count = 1;
        VkSurfaceFormatKHR format{};
        vkGetPhysicalDeviceSurfaceFormatsKHR(context.physical_device, surface, &count, &format);
        VkSwapchainCreateInfoKHR info = vku::InitStructHelper();
        info.surface = surface;
        info.minImageCount = capabilities.minImageCount;
        info.imageFormat = format.format;
        info.imageColorSpace = format.colorSpace;
        info.imageExtent = {64, 64};
        info.imageArrayLayers = 1;
        info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
        info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
        info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
        info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
        VkSwapchainKHR swapchain = VK_NULL_HANDLE;
        check(vkCreateSwapchainKHR(context.device, &info, nullptr, &swapchain), "vkCreateSwapchainKHR");
        uint32_t images = 0;
        check(vkGetSwapchainImagesKHR(context.device, swapchain, &images, nullptr), "vkGetSwapchainImagesKHR");
        EXPECT_GE(images, capabilities.minImageCount);
        vkDestroySwapchainKHR(context.device, swapchain, nullptr);
        vkDestroySurfaceKHR(context.instance, surface, nullptr);

        VkFormatProperties format_properties{};
        vkGetPhysicalDeviceFormatProperties(context.physical_device, format.format, &format_properties);
        const bool storage = enabled && has_interlock(context.physical_device) &&
                             (capabilities.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT) &&
                             (format_properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
        const VkImageUsageFlags expected = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                           (enabled ? capabilities.supportedUsageFlags & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0) |
                                           (storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
        EXPECT_TRUE(!enabled || (capabilities.supportedUsageFlags & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT))
            << "the surface offers no input-attachment usage: the test shows nothing";
        const auto records = spy.files_ending_with("-swapchain.txt");
        ASSERT_EQ(records.size(), 1u);
        EXPECT_EQ(read_lines(records[0]), std::vector<std::string>{std::format("{:x}", expected)});
    }
}

// Lavapipe's rasterization order serves every coherent read, so no draw can split there and the layer
// leaves the draws and the state only split draws need to the driver (the driver is loaded once, its
// entry points have one address); with tile_image_ordering=draw_splitting it intercepts them, and with
// tile_image_ordering=interlock where the driver has the interlock (lavapipe 26), whose pipelines' draws
// sit between barriers. What tile images need beside them (render pass instances, pipelines) is
// intercepted either way.
TEST(TileImageReporting, DrawsAreInterceptedOnlyWhereTheyMaySplit) {
    Context driver({.layer = false});
    const auto emulating = [](const char* ordering) {
        ScopedEnv setting("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING", ordering);
        VkPhysicalDeviceShaderTileImageFeaturesEXT features = vku::InitStructHelper();
        features.shaderTileImageColorReadAccess = VK_TRUE;
        return std::make_unique<Context>(ContextOptions{.device_extensions = {kExtension}, .device_features_next = &features});
    };
    const std::unique_ptr<Context> ordered = emulating(nullptr), splitting = emulating("draw_splitting"),
                                   interlocking = emulating("interlock");
    const bool interlock = has_interlock(driver.physical_device);
    const auto intercepted = [&](const Context& context, const char* name) {
        return vkGetDeviceProcAddr(context.device, name) != vkGetDeviceProcAddr(driver.device, name);
    };
    for (const char* name : {"vkCmdDraw", "vkCmdDrawIndexed", "vkCmdDrawIndirect", "vkCmdDrawIndexedIndirectCount",
                             "vkCmdSetPrimitiveTopology", "vkCmdBindIndexBuffer"}) {
        EXPECT_FALSE(intercepted(*ordered, name)) << name;
        EXPECT_TRUE(intercepted(*splitting, name)) << name;
        EXPECT_EQ(intercepted(*interlocking, name), interlock) << name;
    }
    for (const char* name : {"vkCmdBeginRendering", "vkCmdBindPipeline", "vkCreateGraphicsPipelines"}) {
        EXPECT_TRUE(intercepted(*ordered, name)) << name;
        EXPECT_TRUE(intercepted(*splitting, name)) << name;
    }
}

// A pipeline the interlock cannot serve (it blends the attachment it reads) is ordered otherwise, and
// the layer says why; one it can serve is not mentioned. On a driver with the interlock (lavapipe 26),
// with tile_image_ordering=interlock: the others fall back to rasterization-order access there.
TEST(TileImageReporting, APipelineTheInterlockCannotServeSaysWhy) {
    const ScopedEnv ordering("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING", "interlock");
    DebugMessages messages;
    VkPhysicalDeviceVulkan13Features vulkan13 = vku::InitStructHelper();
    vulkan13.dynamicRendering = VK_TRUE;
    vulkan13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceShaderTileImageFeaturesEXT features = vku::InitStructHelper(&vulkan13);
    features.shaderTileImageColorReadAccess = VK_TRUE;
    Context context({.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
                     .device_extensions = {kExtension},
                     .device_features_next = &features});
    if (!has_interlock(context.physical_device)) GTEST_SKIP() << "the driver has no fragment shader interlock";
    ScopedMessenger messenger(context.instance, messages);
    tile_image::SceneRenderer renderer(context);
    tile_image::SceneSpec spec{.colors = {VK_FORMAT_R32G32B32A32_SFLOAT}, .fragment_shader = "tests/tile_image/color_float.frag",
                               .constants = {1, std::bit_cast<uint32_t>(1.0f)}, .patches_per_draw = {2}};
    renderer.render(spec, tile_image::overlapping_patches(2));
    EXPECT_EQ(messages.count("vkpolyfill-tile-image", "interlock cannot order"), 0u) << messages.dump();
    spec.blend = true;
    renderer.render(spec, tile_image::overlapping_patches(2));
    EXPECT_EQ(messages.count("vkpolyfill-tile-image", "a fragment shader interlock cannot order its coherent reads, as color attachment "
                                                      "0, which it reads, blends or masks its writes: rasterization-order access "
                                                      "orders them"),
              1u)
        << messages.dump();
}

// A device emulating tile images (color and depth reads), its debug messages and a scene renderer, for
// what the layer refuses.
class TileImageRefusals : public testing::Test {
  protected:
    static VkPhysicalDeviceShaderTileImageFeaturesEXT* features(VkPhysicalDeviceVulkan13Features& vulkan13,
                                                                VkPhysicalDeviceShaderTileImageFeaturesEXT& tile_image) {
        vulkan13.dynamicRendering = VK_TRUE;
        vulkan13.synchronization2 = VK_TRUE;
        tile_image.pNext = &vulkan13;
        tile_image.shaderTileImageColorReadAccess = VK_TRUE;
        tile_image.shaderTileImageDepthReadAccess = VK_TRUE;
        return &tile_image;
    }

    // Rendering fails with `error` in what it throws.
    void expect_render_fails(const tile_image::SceneSpec& spec, uint32_t patches, const std::string& error) {
        try {
            renderer_.render(spec, tile_image::overlapping_patches(patches));
            ADD_FAILURE() << "the scene was rendered";
        } catch (const std::runtime_error& thrown) {
            EXPECT_NE(std::string(thrown.what()).find(error), std::string::npos) << thrown.what();
        }
    }

    DebugMessages messages_;
    VkPhysicalDeviceVulkan13Features vulkan13_ = vku::InitStructHelper();
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image_ = vku::InitStructHelper();
    Context context_{{.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
                      .device_extensions = {kExtension},
                      .device_features_next = features(vulkan13_, tile_image_)}};
    ScopedMessenger messenger_{context_.instance, messages_};
    tile_image::SceneRenderer renderer_{context_};
};

TEST_F(TileImageRefusals, AnUnsupportedPipelineFailsWithAMessageNamingTheShader) {
    tile_image::SceneSpec spec{.colors = {VK_FORMAT_R32G32B32A32_UINT}, .depth_stencil = VK_FORMAT_D32_SFLOAT_S8_UINT,
                               .patches_per_draw = {1}};
    spec.fragment_shader = "tests/tile_image/depth_early.frag";
    expect_render_fails(spec, 1, "VK_ERROR_UNKNOWN");
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "EarlyFragmentTests"), 1u) << messages_.dump();
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "VkShaderModule 0x"), 1u) << messages_.dump();
}

// Color location L reads element L of the layer's color array; the depth and stencil bindings follow the
// locations the device has, so a location beyond them is refused, never aliased.
TEST_F(TileImageRefusals, AColorLocationBeyondTheDevicesFailsWithAMessage) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context_.physical_device, &properties);
    ASSERT_EQ(properties.limits.maxColorAttachments, 8u) << "the shader reads location 8, one past this driver's";
    const tile_image::SceneSpec spec{.colors = {VK_FORMAT_R32G32B32A32_SFLOAT},
                                     .fragment_shader = "tests/tile_image/color_location_8.frag",
                                     .patches_per_draw = {1}};
    expect_render_fails(spec, 1, "VK_ERROR_UNKNOWN");
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "it reads color location 8, and the emulation reads color locations below 8"),
              1u)
        << messages_.dump();
}

// A pipeline reading tile images may list every descriptor set the layer reports (TileImageColorReads'
// EveryReportedSet cases); one more reaches the layer's set (on a device with Vulkan's minimum of 4, a
// pipeline listing all 4).
TEST_F(TileImageRefusals, APipelineUsingTheLayersSetFailsWithAMessage) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context_.physical_device, &properties);
    const tile_image::SceneSpec spec{.colors = {VK_FORMAT_R32G32B32A32_SFLOAT},
                                     .fragment_shader = "tests/tile_image/color_float.frag",
                                     .constants = {1, std::bit_cast<uint32_t>(1.0f)},
                                     .patches_per_draw = {1},
                                     .descriptor_sets = properties.limits.maxBoundDescriptorSets + 1};
    expect_render_fails(spec, 1, "VK_ERROR_UNKNOWN");
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image",
                              std::format("its pipeline layout lists {} descriptor set layouts, and a shader reading tile images may "
                                          "list {}: the layer's input attachments take set {}",
                                          spec.descriptor_sets, spec.descriptor_sets - 1, spec.descriptor_sets - 1)),
              1u)
        << messages_.dump();
}

// A secondary continuing the primary's render pass instance knows its attachments' formats, never their
// views: it cannot bind the layer's input attachments, and is refused (a whole instance in a secondary
// is served: TileImageColorReads' Secondary cases).
TEST_F(TileImageRefusals, ASecondaryContinuingARenderPassInstanceFailsWithAMessage) {
    tile_image::SceneSpec spec{.colors = {VK_FORMAT_R32G32B32A32_SFLOAT}, .fragment_shader = "tests/tile_image/color_float.frag",
                               .constants = {1, std::bit_cast<uint32_t>(1.0f)}, .patches_per_draw = {2}};
    spec.recording = tile_image::Recording::ContinuingSecondary;
    expect_render_fails(spec, 2, "vkEndCommandBuffer failed: VK_ERROR_UNKNOWN");
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "continues a render pass instance and binds a graphics pipeline"), 1u)
        << messages_.dump();
}

// A device emulating tile images, with shader objects and debug messages.
class TileImageShaderObjects : public testing::Test {
  protected:
    static VkPhysicalDeviceShaderTileImageFeaturesEXT* features(VkPhysicalDeviceShaderObjectFeaturesEXT& shader_object,
                                                                VkPhysicalDeviceVulkan13Features& vulkan13,
                                                                VkPhysicalDeviceShaderTileImageFeaturesEXT& tile_image) {
        shader_object.shaderObject = VK_TRUE;
        vulkan13.pNext = &shader_object;
        vulkan13.dynamicRendering = VK_TRUE;
        tile_image.pNext = &vulkan13;
        tile_image.shaderTileImageColorReadAccess = VK_TRUE;
        return &tile_image;
    }

    DebugMessages messages_;
    VkPhysicalDeviceShaderObjectFeaturesEXT shader_object_ = vku::InitStructHelper();
    VkPhysicalDeviceVulkan13Features vulkan13_ = vku::InitStructHelper();
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image_ = vku::InitStructHelper();
    Context context_{{.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
                      .device_extensions = {kExtension, VK_EXT_SHADER_OBJECT_EXTENSION_NAME},
                      .device_features_next = features(shader_object_, vulkan13_, tile_image_)}};
    ScopedMessenger messenger_{context_.instance, messages_};
    const std::vector<uint32_t> code_ = read_shader("tests/tile_image/color_float.frag");
};

// A fragment shader object reading tile images may use every descriptor set but the layer's.
TEST_F(TileImageShaderObjects, OneUsingTheLayersSetFailsWithAMessage) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context_.physical_device, &properties);
    VkDescriptorSetLayoutCreateInfo empty = vku::InitStructHelper();
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    ASSERT_EQ(context_.vk.vkCreateDescriptorSetLayout(context_.device, &empty, nullptr, &set_layout), VK_SUCCESS);
    // What the layer reports is what the application may use: one more reaches the layer's set.
    const std::vector<VkDescriptorSetLayout> sets(properties.limits.maxBoundDescriptorSets + 1, set_layout);
    VkShaderCreateInfoEXT info = spirv_shader_info(VK_SHADER_STAGE_FRAGMENT_BIT, code_);
    info.setLayoutCount = static_cast<uint32_t>(sets.size());
    info.pSetLayouts = sets.data();
    VkShaderEXT shader = reinterpret_cast<VkShaderEXT>(~uintptr_t{0});  // visibly unwritten
    EXPECT_EQ(context_.vk.vkCreateShadersEXT(context_.device, 1, &info, nullptr, &shader), VK_ERROR_UNKNOWN);
    EXPECT_EQ(shader, VK_NULL_HANDLE);
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "the fragment shader of pCreateInfos[0]: error: it lists"), 1u)
        << messages_.dump();
    context_.vk.vkDestroyDescriptorSetLayout(context_.device, set_layout, nullptr);
}

// Its code is two driver shaders and the layer's set layout: no binary could re-create it.
TEST_F(TileImageShaderObjects, ItsBinaryIsRefusedWithAMessage) {
    const VkShaderCreateInfoEXT info = spirv_shader_info(VK_SHADER_STAGE_FRAGMENT_BIT, code_);
    VkShaderEXT shader = VK_NULL_HANDLE;
    if (context_.vk.vkCreateShadersEXT(context_.device, 1, &info, nullptr, &shader) != VK_SUCCESS) {
        GTEST_SKIP() << "this driver cannot read input attachments in fragment shader objects (the ShaderObject cases of "
                        "TileImageColorReads check that the layer fails as the driver does)";
    }
    size_t size = 1;
    EXPECT_EQ(context_.vk.vkGetShaderBinaryDataEXT(context_.device, shader, &size, nullptr), VK_ERROR_UNKNOWN);
    EXPECT_EQ(size, 0u);
    EXPECT_EQ(messages_.count("vkpolyfill-tile-image", "has no binary the layer could re-create it from"), 1u) << messages_.dump();
    context_.vk.vkDestroyShaderEXT(context_.device, shader, nullptr);
}

}  // namespace
}  // namespace vkpolyfill::test
