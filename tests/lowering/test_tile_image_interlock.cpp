// The SPV_EXT_shader_tile_image pass with coherent color reads ordered by a fragment shader interlock
// (TileImageTarget::interlock): the colors are read as storage images at the fragment's pixel (binding
// depth_binding + 2), and a new entry point begins a pixel-ordered interlock, calls the shader and
// writes its outputs of the read locations to those storage images before ending it, with early
// fragment tests. What the interlock cannot order is reported, by tile_image_usage() and by the pass.
#include <algorithm>
#include <format>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/tile_image.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

Target interlocking(uint32_t samples = 1) {
    Target target;
    target.emulate = bit(Emulated::ExtShaderTileImage);
    target.tile_image = {.descriptor_set = 7, .depth_binding = 8, .samples = samples, .interlock = true};
    return target;
}

size_t count(const std::string& text, std::string_view part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// A float color at location 2, read and written (a vec4); a uint array at 3 and 4, read at a run-time
// index, with a scalar output at 3; an output at location 0, which no tile image reads.
constexpr std::string_view kReadAndWritten = R"(
OpCapability Shader
OpCapability TileImageColorReadAccessEXT
OpExtension "SPV_EXT_shader_tile_image"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %color %array %index %out0 %out2 %out3
OpExecutionMode %main OriginUpperLeft
OpDecorate %color Location 2
OpDecorate %array Location 3
OpDecorate %index Flat
OpDecorate %index Location 0
OpDecorate %out0 Location 0
OpDecorate %out2 Location 2
OpDecorate %out3 Location 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%float_half = OpConstant %float 0.5
%image = OpTypeImage %float TileImageDataEXT 0 0 0 2 Unknown
%uimage = OpTypeImage %uint TileImageDataEXT 0 0 0 2 Unknown
%array_t = OpTypeArray %uimage %uint_2
%ptr_image = OpTypePointer TileImageEXT %image
%ptr_array = OpTypePointer TileImageEXT %array_t
%ptr_uimage = OpTypePointer TileImageEXT %uimage
%ptr_in_uint = OpTypePointer Input %uint
%ptr_out = OpTypePointer Output %v4float
%ptr_out_uint = OpTypePointer Output %uint
%color = OpVariable %ptr_image TileImageEXT
%array = OpVariable %ptr_array TileImageEXT
%index = OpVariable %ptr_in_uint Input
%out0 = OpVariable %ptr_out Output
%out2 = OpVariable %ptr_out Output
%out3 = OpVariable %ptr_out_uint Output
%main = OpFunction %void None %fn
%entry = OpLabel
%img = OpLoad %image %color
%texel = OpColorAttachmentReadEXT %v4float %img
%i = OpLoad %uint %index
%element = OpAccessChain %ptr_uimage %array %i
%uimg = OpLoad %uimage %element
%count = OpColorAttachmentReadEXT %uint %uimg
%more = OpIAdd %uint %count %uint_1
%half = OpVectorTimesScalar %v4float %texel %float_half
OpStore %out0 %texel
OpStore %out2 %half
OpStore %out3 %more
OpReturn
OpFunctionEnd
)";

TEST(TileImageInterlock, ReadsBecomeStorageReadsAndANewEntryPointWritesTheReadLocationsInsideTheInterlock) {
    const std::vector<uint32_t> words = assemble(kReadAndWritten);
    EXPECT_EQ(tile_image_usage(words, "main").interlock_obstacle, "");
    const Result result = lower(words, interlocking(), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const std::string text = disassemble(result.words);
    // The application's function is called from the new entry point, between the interlock's ends.
    EXPECT_FALSE(contains(text, "OpEntryPoint Fragment %main ")) << text;
    EXPECT_EQ(count(text, "OpFunctionCall %void"), 1u) << text;
    EXPECT_EQ(count(text, "OpBeginInvocationInterlockEXT"), 1u) << text;
    EXPECT_EQ(count(text, "OpEndInvocationInterlockEXT"), 1u) << text;
    EXPECT_LT(text.find("OpBeginInvocationInterlockEXT"), text.find("OpFunctionCall %void")) << text;
    EXPECT_LT(text.find("OpImageWrite"), text.find("OpEndInvocationInterlockEXT")) << text;
    EXPECT_EQ(count(text, "OpExecutionMode"), 3u) << text;
    for (const char* mode : {"OriginUpperLeft", "PixelInterlockOrderedEXT", "EarlyFragmentTests"}) {
        EXPECT_TRUE(contains(text, mode)) << text;
        EXPECT_FALSE(contains(text, std::string("OpExecutionMode %main ") + mode)) << text;
    }
    // Storage images at binding 10 of set 7, a float and a uint array, read at the pixel; no input
    // attachment index.
    EXPECT_EQ(count(text, "Binding 10"), 2u) << text;
    EXPECT_EQ(count(text, " Coherent"), 2u) << text;
    EXPECT_TRUE(contains(text, "OpTypeImage %float 2D 0 0 0 2 Unknown")) << text;
    EXPECT_TRUE(contains(text, "OpTypeImage %uint 2D 0 0 0 2 Unknown")) << text;
    EXPECT_FALSE(contains(text, "InputAttachmentIndex")) << text;
    EXPECT_TRUE(contains(text, "BuiltIn FragCoord")) << text;
    EXPECT_EQ(count(text, "OpImageRead"), 2u) << text;
    EXPECT_TRUE(contains(text, "OpCapability StorageImageArrayDynamicIndexing")) << text;
    // Locations 2 and 3 are written (the uint widened to four components), after the call; location 0
    // is left to the attachment's own write.
    EXPECT_EQ(count(text, "OpImageWrite"), 2u) << text;
    EXPECT_EQ(count(text, "OpCompositeConstruct %v4uint"), 1u) << text;
    EXPECT_LT(text.find("OpFunctionCall %void"), text.find("OpImageWrite")) << text;
    EXPECT_FALSE(contains(text, "SampleMask")) << text;
}

// Multisampled, the storage images are too; reads take sample 0 (the reads here have no Sample
// operand), and the outputs go to each sample the invocation covers after the early tests: a loop
// over the pipeline's 4 samples testing gl_SampleMaskIn, with PostDepthCoverage.
TEST(TileImageInterlock, MultisampledTheOutputsGoToEachSampleCoveredAfterTheEarlyTests) {
    const Result result = lower(assemble(kReadAndWritten), interlocking(4), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const std::string text = disassemble(result.words);
    EXPECT_TRUE(contains(text, "OpTypeImage %float 2D 0 0 1 2 Unknown")) << text;
    EXPECT_TRUE(contains(text, "OpCapability StorageImageMultisample")) << text;
    EXPECT_TRUE(contains(text, "OpCapability SampleMaskPostDepthCoverage")) << text;
    EXPECT_TRUE(contains(text, "PostDepthCoverage\n")) << text;
    EXPECT_TRUE(contains(text, "BuiltIn SampleMask")) << text;
    EXPECT_TRUE(contains(text, "OpLoopMerge")) << text;
    EXPECT_EQ(count(text, "OpImageRead"), 2u) << text;
    EXPECT_EQ(count(text, " Sample %uint_0"), 2u) << text;  // the reads
    EXPECT_EQ(count(text, "OpImageWrite"), 2u) << text;
    EXPECT_EQ(count(text, "OpShiftRightLogical"), 1u) << text;
}

TEST(TileImageInterlock, WhatItCannotOrderIsReportedByTheUsageAndByThePass) {
    struct Obstacle {
        std::string name;
        std::vector<std::pair<std::string, std::string>> edits;  // of kReadAndWritten
        std::string reason;
    };
    const Obstacle obstacles[] = {
        {"a discard", {{"OpStore %out3 %more\nOpReturn", "OpStore %out3 %more\nOpKill"}}, "discards or demotes"},
        {"a depth output",
         {{"OpDecorate %out0 Location 0", "OpDecorate %out0 Location 0\nOpDecorate %depth BuiltIn FragDepth"},
          {"%out0 = OpVariable %ptr_out Output",
           "%out0 = OpVariable %ptr_out Output\n%ptr_out_float = OpTypePointer Output %float\n%depth = OpVariable %ptr_out_float Output"}},
         "writes depth, stencil or the sample mask"},
        {"an output array",
         {{"%out2 = OpVariable %ptr_out Output",
           "%out2_t = OpTypeArray %v4float %uint_2\n%ptr_out_array = OpTypePointer Output %out2_t\n"
           "%out2 = OpVariable %ptr_out_array Output"},
          {"OpStore %out2 %half", ""}},
         "through an output array"},
        {"an output of another component type",
         {{"%out3 = OpVariable %ptr_out_uint Output",
           "%ptr_out_float = OpTypePointer Output %float\n%out3 = OpVariable %ptr_out_float Output"},
          {"OpStore %out3 %more", ""}},
         "not of its tile image's component type"},
    };
    for (const Obstacle& o : obstacles) {
        SCOPED_TRACE(o.name);
        std::string text(kReadAndWritten);
        for (const auto& [from, to] : o.edits) text = replaced(text, from, to);
        const std::vector<uint32_t> words = assemble(text);
        const std::string obstacle = tile_image_usage(words, "main").interlock_obstacle;
        EXPECT_TRUE(contains(obstacle, o.reason)) << obstacle;
        const Result result = lower(words, interlocking(), {});
        ASSERT_FALSE(result.ok);
        EXPECT_TRUE(contains(messages(result), "cannot be ordered by a fragment shader interlock")) << messages(result);
        EXPECT_TRUE(contains(messages(result), o.reason)) << messages(result);
    }
}

// The suite's fragment shaders lower to valid SPIR-V with the interlock at 1 and 4 samples, or are
// reported with the usage's obstacle.
TEST(TileImageInterlock, EveryTileImageModuleLowersToValidSpirvOrIsReportedWithItsObstacle) {
    size_t served = 0, reported = 0;
    for (const CorpusModule& module : corpus()) {
        if (!(scan_emulated_capabilities(module.words) & bit(Emulated::ExtShaderTileImage))) continue;
        if (module.name.starts_with("color_location_8")) continue;  // past the Target's colors
        const TileImageUsage usage = tile_image_usage(module.words, "main");
        ASSERT_TRUE(usage.ok) << usage.error;
        for (const uint32_t samples : {1u, 4u}) {
            SCOPED_TRACE(std::format("{} at {} samples", module.name, samples));
            const Result result = lower(module.words, interlocking(samples), {});
            EXPECT_EQ(result.ok, usage.interlock_obstacle.empty()) << messages(result);
            if (!result.ok) {
                EXPECT_TRUE(contains(messages(result), usage.interlock_obstacle)) << messages(result);
                ++reported;
                continue;
            }
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            const std::string text = disassemble(result.words);
            EXPECT_EQ(count(text, "OpBeginInvocationInterlockEXT"), 1u) << text;
            EXPECT_GE(count(text, "OpImageWrite"), usage.colors.empty() ? 0u : 1u) << text;
            EXPECT_EQ(contains(text, "PostDepthCoverage"), samples > 1) << text;
            ++served;
        }
    }
    EXPECT_GE(served, 16u);
    EXPECT_EQ(reported, 0u);  // none discards, writes depth or writes a read location oddly
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
