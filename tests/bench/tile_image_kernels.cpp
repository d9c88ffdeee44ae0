#include "tile_image_kernels.h"

#include <bit>
#include <cstdio>
#include <stdexcept>

#include "compile_outcome.h"
#include "module_device.h"
#include "tile_image_renderer.h"

namespace vkpolyfill::bench {
namespace {

using test::tile_image::SceneSpec;

struct TileImageShader {
    const char* name;  // under shaders/tests/tile_image/
    std::vector<VkFormat> colors;
    VkFormat depth_stencil = VK_FORMAT_UNDEFINED;
};

// As the tests draw them: two color attachments for the color reads (so both locations are read), one
// for depth and stencil reads beside their attachment, one for blending.
const std::vector<TileImageShader>& shaders() {
    constexpr VkFormat kFloat = VK_FORMAT_R32G32B32A32_SFLOAT, kHalf = VK_FORMAT_R16G16B16A16_SFLOAT,
                       kUint = VK_FORMAT_R32G32B32A32_UINT, kSint = VK_FORMAT_R16G16B16A16_SINT,
                       kDepthStencil = VK_FORMAT_D32_SFLOAT_S8_UINT;
    static const std::vector<TileImageShader> list = {
        {"color_float", {kFloat, kFloat}},
        {"color_float_nc", {kFloat, kFloat}},
        {"color_float_array", {kHalf, kHalf}},
        {"color_uint", {kUint, kUint}},
        {"color_uint_nc", {kUint, kUint}},
        {"color_uint_array_nc", {kUint, kUint}},
        {"color_sint", {kSint, kSint}},
        {"depth", {kUint}, kDepthStencil},
        {"depth_nc", {kUint}, kDepthStencil},
        {"stencil", {kUint}, kDepthStencil},
        {"stencil_nc", {kUint}, kDepthStencil},
        {"blend_programmable", {VK_FORMAT_R8G8B8A8_UNORM}},
    };
    return list;
}

constexpr VkSampleCountFlagBits kSamples[] = {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT};

std::string name_of(const TileImageShader& shader, VkSampleCountFlagBits samples) {
    return std::string(shader.name) + "@" + std::to_string(samples);
}

SceneSpec spec_of(const std::string& name) {
    for (const TileImageShader& shader : shaders()) {
        for (const VkSampleCountFlagBits samples : kSamples) {
            if (name_of(shader, samples) != name) continue;
            SceneSpec spec{.colors = shader.colors, .depth_stencil = shader.depth_stencil, .samples = samples};
            spec.fragment_shader = "tests/tile_image/" + std::string(shader.name) + ".frag";
            spec.constants = {static_cast<uint32_t>(shader.colors.size()), std::bit_cast<uint32_t>(1.0f)};
            return spec;
        }
    }
    throw std::invalid_argument("unknown tile-image kernel '" + name + "' (--list names them)");
}

}  // namespace

std::vector<std::string> tile_image_kernel_names() {
    std::vector<std::string> names;
    for (const TileImageShader& shader : shaders()) {
        for (const VkSampleCountFlagBits samples : kSamples) names.push_back(name_of(shader, samples));
    }
    return names;
}

int compile_tile_image(const TileImageRequest& request, bool json, const std::string& expect) {
    SceneSpec spec = spec_of(request.name);
    ModuleDevice device(ModuleRoute::Layer);
    if (request.every_set) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(device.context().physical_device, &properties);
        spec.descriptor_sets = properties.limits.maxBoundDescriptorSets;
    }
    const CompileSubject subject{"tile_image." + request.name + (request.every_set ? ".every_set" : ""),
                                 "the tile-image tests' pipeline of " + spec.fragment_shader, "layer",
                                 std::to_string(spec.samples) + " samples"};
    if (!device.enabled(VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME)) {
        Outcome outcome;
        outcome.device = device.device_name;
        outcome.problem = "not applicable here: no VK_EXT_shader_tile_image, native or through the layer";
        if (json) {
            print_json(subject, outcome);
        } else {  // GoogleTest's form, which ctest's skip expression and scripts/conformance.sh read as "not supported"
            std::printf("%s: Skipped\nnot supported on %s: %s\n", subject.name.c_str(), outcome.device.c_str(), outcome.problem.c_str());
        }
        return 0;
    }
    if (!device.captures_statistics) throw std::runtime_error("the device has no pipelineExecutableInfo");
    std::unique_ptr<test::tile_image::SceneRenderer> renderer;
    const Outcome outcome = compile(
        device.context(), device.device_name, [&device] { return device.layer_problems(); },
        [&](VkPipelineCreateFlags flags) {
            renderer = std::make_unique<test::tile_image::SceneRenderer>(device.context());
            return renderer->create_pipeline(spec, flags);
        },
        [&renderer] { renderer.reset(); });
    json ? print_json(subject, outcome) : print_text(subject, outcome);
    if (request.refusal_expected) return expected_refusal(subject, outcome, device.layer_problems());
    return unmet_budgets(subject, outcome, expect) ? 1 : 0;
}

}  // namespace vkpolyfill::bench
