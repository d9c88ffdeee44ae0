// VK_EXT_shader_tile_image reads through the layer, modelled on VK-GL-CTS's shader_tile_image group:
// overlapping patches drawn in one or several draws, each fragment reading its sample of the color,
// depth or stencil attachment as the fragments before it left it; every sample of every attachment
// is compared with the CPU simulation. Coherent cases rely on rasterization order (several patches
// per draw, no barriers); non-coherent ones on a by-region barrier before each one-patch draw, as the
// extension specifies. Both drivers lack the extension, so every case runs the emulation; the spy
// layer shows the driver got lowered modules only.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <format>
#include <fstream>

#include <gtest/gtest.h>
#include <vkpolyfill/lowering/lower.h>
#include <vkpolyfill/lowering/validate.h>
#include <vulkan/utility/vk_format_utils.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "tile_image_renderer.h"

namespace vkpolyfill::test::tile_image {
namespace {

struct ReadCase {
    std::string name;
    std::string shader;  // under shaders/tests/tile_image/
    std::vector<VkFormat> colors;
    VkSampleCountFlagBits samples;
    std::vector<uint32_t> patches_per_draw;
    bool non_coherent = false;
    VkFormat depth_stencil = VK_FORMAT_UNDEFINED;
    bool shader_objects = false;      // vertex and fragment shader objects, not a pipeline
    std::vector<uint32_t> locations{};  // of the color attachments, when remapped (dynamic rendering local read)
    Recording recording = Recording::Primary;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;  // strips and fans: a patch per draw
    bool alternate_indexed = false;  // every other draw indexed (SceneSpec)
    bool instanced = false;          // a patch an instance (SceneSpec)
    // The pipeline layout (shader objects: their set layouts) lists every descriptor set the layer
    // reports, so that the layer's set is the one right after them, as on a device with Vulkan's
    // minimum of 4, where the application keeps 3.
    bool every_set = false;
};

std::string case_name(const testing::TestParamInfo<ReadCase>& info) { return info.param.name; }

// A one-patch draw after a barrier per patch, as non-coherent reads need.
std::vector<uint32_t> one_per_draw(uint32_t patches) { return std::vector<uint32_t>(patches, 1); }

const std::vector<ReadCase> kColorCases = {
    {"Rgba32fOneDraw", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {6}},
    {"Rgba16fFourSamplesThreeDraws", "color_float", {VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_4_BIT, {2, 2, 2}},
    {"Rgba8UnormTwoDraws", "color_float", {VK_FORMAT_R8G8B8A8_UNORM}, VK_SAMPLE_COUNT_1_BIT, {3, 3}},
    {"Rgba8UnormFourSamples", "color_float", {VK_FORMAT_R8G8B8A8_UNORM}, VK_SAMPLE_COUNT_4_BIT, {6}},
    {"Rgba32uiFourSamples", "color_uint", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {4, 2}},
    {"Rgba16iOneDraw", "color_sint", {VK_FORMAT_R16G16B16A16_SINT}, VK_SAMPLE_COUNT_1_BIT, {6}},
    {"Rgba32fNonCoherent", "color_float_nc", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6), true},
    {"Rgba8uiNonCoherentFourSamples", "color_uint_nc", {VK_FORMAT_R8G8B8A8_UINT}, VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), true},
    {"MrtRgba32f", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {3, 3}},
    {"MrtRgba32uiFourSamples", "color_uint", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {6}},
    {"MrtDynamicIndexRgba16f", "color_float_array", {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT},
     VK_SAMPLE_COUNT_1_BIT, {6}},
    {"MrtDynamicIndexNonCoherentFourSamples", "color_uint_array_nc", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT},
     VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), true},
    // Attachment 0 at location 1 and attachment 1 at location 0: tile images follow the locations.
    {"MrtSwappedLocations", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_1_BIT,
     {3, 3}, false, VK_FORMAT_UNDEFINED, false, {1, 0}},
    {"MrtDynamicIndexSwappedLocationsFourSamples", "color_float_array", {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT},
     VK_SAMPLE_COUNT_4_BIT, {6}, false, VK_FORMAT_UNDEFINED, false, {1, 0}},
    {"ShaderObjectRgba32fTwoDraws", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {3, 3}, false,
     VK_FORMAT_UNDEFINED, true},
    {"ShaderObjectRgba8UnormFourSamples", "color_float", {VK_FORMAT_R8G8B8A8_UNORM}, VK_SAMPLE_COUNT_4_BIT, {6}, false,
     VK_FORMAT_UNDEFINED, true},
    {"ShaderObjectMrtSwappedLocationsFourSamples", "color_uint", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT},
     VK_SAMPLE_COUNT_4_BIT, {2, 4}, false, VK_FORMAT_UNDEFINED, true, {1, 0}},
    {"SecondaryCommandBufferMrtRgba32uiFourSamples", "color_uint", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT},
     VK_SAMPLE_COUNT_4_BIT, {3, 3}, false, VK_FORMAT_UNDEFINED, false, {}, Recording::Secondary},
    {"SecondaryCommandBufferShaderObjectRgba16f", "color_float", {VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {2, 4},
     false, VK_FORMAT_UNDEFINED, true, {}, Recording::Secondary},
    {"ShaderObjectMrtDynamicIndexNonCoherentFourSamples", "color_uint_array_nc",
     {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), true, VK_FORMAT_UNDEFINED,
     true},
    // Coherent reads of strips and fans, back faces culled: split, each triangle keeps its vertices and
    // winding (a strip's odd triangles, a fan's first vertex), or it is culled or misplaced.
    {"Rgba32fTriangleStrips", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6), false,
     VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
    {"MrtRgba32uiFourSamplesTriangleFans", "color_uint", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT},
     VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), false, VK_FORMAT_UNDEFINED, false, {}, Recording::Primary,
     VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN},
    {"ShaderObjectRgba16fTriangleStrips", "color_float", {VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6),
     false, VK_FORMAT_UNDEFINED, true, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
    // Indexed draws between the others: indexed lists split too; indexed strips cannot be (reported,
    // drawn whole), and each after a split non-indexed strip must find the application's index
    // buffer bound again, not the layer's.
    {"Rgba32fAlternatelyIndexedTriangleLists", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {2, 2, 2}, false,
     VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, true},
    {"Rgba32fAlternatelyIndexedTriangleStrips", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT,
     one_per_draw(6), false, VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, true},
    {"MrtRgba32fEveryReportedSet", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT,
     {3, 3}, false, VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, false, true},
    {"ShaderObjectRgba16fFourSamplesEveryReportedSet", "color_float", {VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_4_BIT, {2, 4},
     false, VK_FORMAT_UNDEFINED, true, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, false, true},
    // Instanced draws, a patch an instance: where draws are split, instance after instance, each
    // instance's triangles in order, or a later instance's fragments miss an earlier one's results.
    {"Rgba32fInstancedThreeDraws", "color_float", {VK_FORMAT_R32G32B32A32_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {2, 2, 2}, false,
     VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, true},
    {"MrtRgba32uiFourSamplesInstancedAlternatelyIndexed", "color_uint", {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_UINT},
     VK_SAMPLE_COUNT_4_BIT, {3, 3}, false, VK_FORMAT_UNDEFINED, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
     true, true},
    {"ShaderObjectRgba16fInstanced", "color_float", {VK_FORMAT_R16G16B16A16_SFLOAT}, VK_SAMPLE_COUNT_1_BIT, {6}, false,
     VK_FORMAT_UNDEFINED, true, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, true},
};

const std::vector<ReadCase> kDepthStencilCases = {
    {"DepthOneDraw", "depth", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_1_BIT, {6}, false, VK_FORMAT_D32_SFLOAT_S8_UINT},
    {"DepthFourSamplesTwoDraws", "depth", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {3, 3}, false,
     VK_FORMAT_D32_SFLOAT_S8_UINT},
    {"DepthNonCoherent", "depth_nc", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6), true,
     VK_FORMAT_D32_SFLOAT_S8_UINT},
    {"StencilOneDraw", "stencil", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_1_BIT, {6}, false, VK_FORMAT_D32_SFLOAT_S8_UINT},
    {"StencilFourSamples", "stencil", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {2, 4}, false,
     VK_FORMAT_D32_SFLOAT_S8_UINT},
    {"StencilNonCoherentFourSamples", "stencil_nc", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), true,
     VK_FORMAT_D24_UNORM_S8_UINT},
    {"ShaderObjectDepthFourSamplesTwoDraws", "depth", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {3, 3}, false,
     VK_FORMAT_D32_SFLOAT_S8_UINT, true},
    {"SecondaryCommandBufferStencilNonCoherent", "stencil_nc", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6),
     true, VK_FORMAT_D24_UNORM_S8_UINT, false, {}, Recording::Secondary},
    {"ShaderObjectStencilNonCoherent", "stencil_nc", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_1_BIT, one_per_draw(6), true,
     VK_FORMAT_D24_UNORM_S8_UINT, true},
    {"DepthFourSamplesTriangleFans", "depth", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, one_per_draw(6), false,
     VK_FORMAT_D32_SFLOAT_S8_UINT, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN},
    {"StencilFourSamplesInstancedTwoDraws", "stencil", {VK_FORMAT_R32G32B32A32_UINT}, VK_SAMPLE_COUNT_4_BIT, {4, 2}, false,
     VK_FORMAT_D32_SFLOAT_S8_UINT, false, {}, Recording::Primary, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, true},
};

// A device with the emulated extension and every feature the cases use (shader objects and local
// reads' attachment locations too), with the spy layer below.
class TileImageReads : public testing::TestWithParam<ReadCase> {
  protected:
    void SetUp() override {
        tile_image_features_.shaderTileImageColorReadAccess = VK_TRUE;
        tile_image_features_.shaderTileImageDepthReadAccess = VK_TRUE;
        tile_image_features_.shaderTileImageStencilReadAccess = VK_TRUE;
        vulkan13_.dynamicRendering = VK_TRUE;
        vulkan13_.synchronization2 = VK_TRUE;
        shader_object_.shaderObject = VK_TRUE;
        local_read_.dynamicRenderingLocalRead = VK_TRUE;
        ContextOptions options{.spy = true,
                               .device_extensions = {VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME, VK_EXT_SHADER_OBJECT_EXTENSION_NAME,
                                                     VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME},
                               .device_features_next = &tile_image_features_};
        options.device_features.sampleRateShading = VK_TRUE;
        context_ = std::make_unique<Context>(options);
        renderer_ = std::make_unique<SceneRenderer>(*context_);
    }

    // The driver got no tile-image module or shader object, and each it got is valid SPIR-V; with the
    // layer's tile_image_indexing=constant (vulkan.*@constant_indexing), none indexes input attachments
    // at run time.
    void expect_only_lowered_modules_reached_the_driver(bool shader_objects) const {
        const char* indexing = std::getenv("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_INDEXING");
        const bool constant_indexing = indexing != nullptr && std::string_view(indexing) == "constant";
        bool lowered = false;
        for (const auto& file : spy_.files_ending_with(shader_objects ? "-shader.spv" : "-module.spv")) {
            const std::vector<uint32_t> words = read_words(file);
            EXPECT_EQ(lowering::scan_emulated_capabilities(words) & lowering::bit(lowering::Emulated::ExtShaderTileImage), 0u)
                << file;
            EXPECT_EQ(lowering::validate(words, VK_API_VERSION_1_3), "") << file;
            const std::string text = lowering::disassemble(words);
            lowered |= text.find("OpCapability InputAttachment") != std::string::npos;
            EXPECT_FALSE(constant_indexing && text.find("InputAttachmentArrayDynamicIndexing") != std::string::npos) << file;
        }
        EXPECT_TRUE(lowered) << "no lowered fragment shader reached the driver";
    }

    // The draws the driver got, as the spy layer saw them: "<count> <instances>" each. With the layer's
    // tile_image_ordering=draw_splitting (vulkan.*@draw_splitting), a coherent case's draws reach it
    // split, a draw per triangle (instance after instance); otherwise (lavapipe orders them itself) as
    // the renderer made them, a draw of the patches' vertices (six a patch in a list, four in a strip
    // or fan) or of six vertices a patch's instances, as do the indexed strips, which cannot be split.
    void expect_the_draws_the_ordering_asks_for(const ReadCase& c) const {
        const char* ordering = std::getenv("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING");
        const bool splitting = ordering != nullptr && std::string_view(ordering) == "draw_splitting" && !c.non_coherent;
        std::vector<std::string> expected;
        for (size_t draw = 0; draw < c.patches_per_draw.size(); ++draw) {
            const uint32_t patches = c.patches_per_draw[draw];
            const bool indexed_strip = c.alternate_indexed && draw % 2 == 0 && c.topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
            if (splitting && !indexed_strip) {
                expected.insert(expected.end(), 2 * patches, "3 1");
            } else {
                expected.push_back(c.instanced ? std::format("6 {}", patches)
                                               : std::format("{} 1", vertices_per_patch(c.topology) * patches));
            }
        }
        std::vector<std::string> got;
        for (const auto& file : spy_.files_ending_with("-draw.txt")) {
            std::ifstream in(file);
            std::string line;
            std::getline(in, line);
            got.push_back(line);
        }
        EXPECT_EQ(got, expected);
    }

    // Whether the driver has what the interlock needs for multisampled attachments (lavapipe 26 does).
    bool multisampled_interlock() const {
        uint32_t count = 0;
        vkEnumerateDeviceExtensionProperties(context_->physical_device, nullptr, &count, nullptr);
        std::vector<VkExtensionProperties> extensions(count);
        vkEnumerateDeviceExtensionProperties(context_->physical_device, nullptr, &count, extensions.data());
        VkPhysicalDeviceFeatures features{};
        vkGetPhysicalDeviceFeatures(context_->physical_device, &features);
        return features.shaderStorageImageMultisample && std::ranges::any_of(extensions, [](const VkExtensionProperties& e) {
                   return std::string_view(e.extensionName) == VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME;
               });
    }

    // With the layer's tile_image_ordering=interlock (vulkan.native@interlock, lavapipe 26), the coherent
    // color reads of pipelines reach the driver in a pixel-ordered interlock (their reads and writes
    // storage images of the attachments; multisampled ones where the driver has multisampled storage
    // images and post-depth coverage); the others do not: shader objects, coherent depth/stencil reads,
    // non-coherent reads.
    void expect_the_interlock_the_ordering_asks_for(const ReadCase& c) const {
        const char* ordering = std::getenv("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING");
        if (ordering == nullptr || std::string_view(ordering) != "interlock") return;
        const bool expected = !c.non_coherent && !c.shader_objects && c.depth_stencil == VK_FORMAT_UNDEFINED &&
                              (c.samples == VK_SAMPLE_COUNT_1_BIT || multisampled_interlock());
        bool interlocked = false;
        for (const auto& file : spy_.files_ending_with(c.shader_objects ? "-shader.spv" : "-module.spv")) {
            const std::string text = lowering::disassemble(read_words(file));
            interlocked |= text.find("OpBeginInvocationInterlockEXT") != std::string::npos &&
                           text.find("PixelInterlockOrderedEXT") != std::string::npos;
        }
        EXPECT_EQ(interlocked, expected);
    }

    SceneSpec spec(const ReadCase& c) const {
        SceneSpec s;
        s.colors = c.colors;
        s.depth_stencil = c.depth_stencil;
        s.samples = c.samples;
        s.fragment_shader = "tests/tile_image/" + c.shader + ".frag";
        s.patches_per_draw = c.patches_per_draw;
        s.barriers = c.non_coherent;
        s.shader_objects = c.shader_objects;
        s.locations = c.locations;
        s.recording = c.recording;
        s.topology = c.topology;
        s.alternate_indexed = c.alternate_indexed;
        s.instanced = c.instanced;
        if (c.every_set) {
            VkPhysicalDeviceProperties properties;
            vkGetPhysicalDeviceProperties(context_->physical_device, &properties);
            s.descriptor_sets = properties.limits.maxBoundDescriptorSets;
        }
        return s;
    }

    TempDir spy_;
    ScopedEnv spy_env_{"VKPOLYFILL_SPY_DIR", spy_.path().c_str()};
    VkPhysicalDeviceDynamicRenderingLocalReadFeatures local_read_ = vku::InitStructHelper();
    VkPhysicalDeviceShaderObjectFeaturesEXT shader_object_ = vku::InitStructHelper(&local_read_);
    VkPhysicalDeviceVulkan13Features vulkan13_ = vku::InitStructHelper(&shader_object_);
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image_features_ = vku::InitStructHelper(&vulkan13_);
    std::unique_ptr<Context> context_;
    std::unique_ptr<SceneRenderer> renderer_;
};

// Whether the driver, without the layer, makes a fragment shader object that reads an input attachment
// in dynamic rendering: the lowered tile-image reads are such reads (lavapipe 25.0 cannot).
bool driver_reads_input_attachments_in_shader_objects() {
    VkPhysicalDeviceDynamicRenderingLocalReadFeatures local_read = vku::InitStructHelper();
    local_read.dynamicRenderingLocalRead = VK_TRUE;
    VkPhysicalDeviceShaderObjectFeaturesEXT shader_object = vku::InitStructHelper(&local_read);
    shader_object.shaderObject = VK_TRUE;
    VkPhysicalDeviceVulkan13Features vulkan13 = vku::InitStructHelper(&shader_object);
    vulkan13.dynamicRendering = VK_TRUE;
    Context driver({.layer = false,
                    .device_extensions = {VK_EXT_SHADER_OBJECT_EXTENSION_NAME, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME},
                    .device_features_next = &vulkan13});
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    check(driver.vk.vkCreateDescriptorSetLayout(driver.device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    const std::vector<uint32_t> code = read_shader("tests/tile_image/input_attachment.frag");
    VkShaderCreateInfoEXT info = spirv_shader_info(VK_SHADER_STAGE_FRAGMENT_BIT, code);
    info.setLayoutCount = 1;
    info.pSetLayouts = &set_layout;
    VkShaderEXT shader = VK_NULL_HANDLE;
    const VkResult result = driver.vk.vkCreateShadersEXT(driver.device, 1, &info, nullptr, &shader);
    driver.vk.vkDestroyShaderEXT(driver.device, shader, nullptr);
    driver.vk.vkDestroyDescriptorSetLayout(driver.device, set_layout, nullptr);
    return result == VK_SUCCESS;
}

// A shader-object case on a driver that cannot serve it: the layer fails vkCreateShadersEXT as the
// driver does, rather than drawing. True when the case has nothing more to check.
bool shader_objects_refused_as_the_driver_refuses(SceneRenderer& renderer, const ReadCase& c, const SceneSpec& s) {
    if (!c.shader_objects || driver_reads_input_attachments_in_shader_objects()) return false;
    try {
        renderer.render(s, overlapping_patches(1));
        ADD_FAILURE() << "the shader objects were created and drawn, though the driver cannot read input attachments in them";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("vkCreateShadersEXT"), std::string::npos) << error.what();
    }
    return true;
}

uint32_t patch_count(const ReadCase& c) {
    uint32_t count = 0;
    for (uint32_t n : c.patches_per_draw) count += n;
    return count;
}

// A stored component in the attachment's own numbers: floats as values, normalized ones times 255.
double component(VkFormat format, uint32_t bits) {
    if (vkuFormatIsUINT(format)) return bits;
    if (vkuFormatIsSINT(format)) return static_cast<int32_t>(bits);
    const double value = std::bit_cast<float>(bits);
    return vkuFormatIsUNORM(format) ? value * 255.0 : value;
}

class TileImageColorReads : public TileImageReads {};

TEST_P(TileImageColorReads, EverySampleMatchesTheSimulation) {
    const ReadCase& c = GetParam();
    SceneSpec s = spec(c);
    const bool unorm = vkuFormatIsUNORM(c.colors[0]);
    s.constants = {static_cast<uint32_t>(c.colors.size()), std::bit_cast<uint32_t>(unorm ? 255.0f : 1.0f)};
    if (shader_objects_refused_as_the_driver_refuses(*renderer_, c, s)) return;
    const std::vector<Patch> patches = overlapping_patches(patch_count(c));
    const std::vector<Samples> result = renderer_->render(s, patches);
    size_t mismatches = 0;
    for (uint32_t a = 0; a < c.colors.size(); ++a) {
        for (uint32_t y = 0; y < kSize; ++y) {
            for (uint32_t x = 0; x < kSize; ++x) {
                for (uint32_t sample = 0; sample < static_cast<uint32_t>(c.samples); ++sample) {
                    const uint32_t location = c.locations.empty() ? a : c.locations[a];
                    const std::array<double, 4> expected = accumulated_color(patches, x, y, sample, location);
                    const Texel& texel = result[a][(y * kSize + x) * c.samples + sample];
                    for (int k = 0; k < 4; ++k) {
                        const double got = std::round(component(c.colors[a], texel[k]));
                        if (got != expected[k] && mismatches++ < 8) {
                            ADD_FAILURE() << std::format("attachment {} pixel ({}, {}) sample {} component {}: {} (expected {})", a, x,
                                                         y, sample, k, got, expected[k]);
                        }
                    }
                }
            }
        }
    }
    EXPECT_EQ(mismatches, 0u);
    expect_only_lowered_modules_reached_the_driver(c.shader_objects);
    expect_the_draws_the_ordering_asks_for(c);
    expect_the_interlock_the_ordering_asks_for(c);
}

INSTANTIATE_TEST_SUITE_P(Cts, TileImageColorReads, testing::ValuesIn(kColorCases), case_name);

class TileImageDepthStencilReads : public TileImageReads {};

TEST_P(TileImageDepthStencilReads, EverySampleSawWhatTheFragmentsBeforeItWrote) {
    const ReadCase& c = GetParam();
    if (shader_objects_refused_as_the_driver_refuses(*renderer_, c, spec(c))) return;
    const std::vector<Patch> patches = overlapping_patches(patch_count(c));
    const std::vector<Samples> result = renderer_->render(spec(c), patches);
    size_t mismatches = 0;
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            const Texel expected = depth_stencil_record(patches, x, y);
            for (uint32_t sample = 0; sample < static_cast<uint32_t>(c.samples); ++sample) {
                const Texel& got = result[0][(y * kSize + x) * c.samples + sample];
                if (got != expected && mismatches++ < 8) {
                    ADD_FAILURE() << std::format("pixel ({}, {}) sample {}: ({}, {}, {}, {}) (expected (0, {}, {}, {}); x = 1: a read "
                                                 "disagreed with the fragments before it)",
                                                 x, y, sample, got[0], got[1], got[2], got[3], expected[1], expected[2], expected[3]);
                }
            }
        }
    }
    EXPECT_EQ(mismatches, 0u);
    expect_only_lowered_modules_reached_the_driver(c.shader_objects);
    expect_the_draws_the_ordering_asks_for(c);
    expect_the_interlock_the_ordering_asks_for(c);
}

INSTANTIATE_TEST_SUITE_P(Cts, TileImageDepthStencilReads, testing::ValuesIn(kDepthStencilCases), case_name);

}  // namespace
}  // namespace vkpolyfill::test::tile_image
