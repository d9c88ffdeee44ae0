// The SPV_EXT_shader_tile_image pass: every tile-image module of the corpus lowers to valid SPIR-V at
// 1 and 4 samples without the extension; the three reads become input-attachment reads in the
// layer's set (colors as elements of one array at binding 0, element L for Location L; depth and
// stencil at the bindings the Target names);
// tile_image_usage() reports what the layer must bind and order.
#include <algorithm>
#include <format>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/tile_image.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

Target emulating_tile_image(uint32_t samples) {
    Target target;
    target.emulate = bit(Emulated::ExtShaderTileImage);
    target.tile_image = {.descriptor_set = 7, .depth_binding = 8, .samples = samples};
    return target;
}

// The layer's color arrays (binding 0 of set 7, input attachment 0 on, the Target's 8 colors long).
std::vector<uint32_t> color_arrays(const SpirvFacts& facts) {
    std::vector<uint32_t> arrays;
    for (const auto& [id, words] : facts.definitions) {
        if (words[0] != (4u << 16 | spv::OpVariable) || facts.decoration(id, spv::DecorationBinding) != 0u) continue;
        EXPECT_EQ(facts.decoration(id, spv::DecorationDescriptorSet), 7u);
        EXPECT_EQ(facts.decoration(id, spv::DecorationInputAttachmentIndex), 0u);
        const Words& pointer = facts.definitions.at(words[1]);
        const Words& array = facts.definitions.at(pointer[3]);
        EXPECT_EQ(array[0] & 0xFFFF, uint32_t{spv::OpTypeArray});
        EXPECT_EQ(facts.constant(array[3]), 8u);
        arrays.push_back(id);
    }
    return arrays;
}

// The element each access chain into them takes: "N" for a constant, "index+N" for a run-time index
// plus a constant, "spec+N" for a specialization constant plus a constant.
std::multiset<std::string> color_elements(const SpirvFacts& facts) {
    const std::vector<uint32_t> arrays = color_arrays(facts);
    std::multiset<std::string> elements;
    for (const CodeInstruction& i : facts.code) {
        if ((i.words[0] & 0xFFFF) != spv::OpAccessChain || std::ranges::find(arrays, i.words[3]) == arrays.end()) continue;
        const uint32_t index = i.words[4];
        if (const auto value = facts.constant(index)) {
            elements.insert(std::to_string(*value));
            continue;
        }
        const Words& sum = facts.definitions.at(index);
        if ((sum[0] & 0xFFFF) == spv::OpSpecConstantOp && sum[3] == spv::OpIAdd && facts.constant(sum[5])) {
            elements.insert("spec+" + std::to_string(*facts.constant(sum[5])));
            continue;
        }
        const bool added = (sum[0] & 0xFFFF) == spv::OpIAdd && facts.constant(sum[4]);
        elements.insert(added ? "index+" + std::to_string(*facts.constant(sum[4])) : "?");
    }
    return elements;
}

TEST(TileImagePass, EveryTileImageModuleLowersToValidSpirvAtOneAndFourSamplesWithAndWithoutDynamicIndexing) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!(scan_emulated_capabilities(module.words) & bit(Emulated::ExtShaderTileImage))) continue;
        for (const auto& [samples, dynamic_indexing] : {std::pair{1u, true}, {4u, true}, {1u, false}, {4u, false}}) {
            SCOPED_TRACE(std::format("{} at {} samples, {}", module.name, samples,
                                     dynamic_indexing ? "dynamic indexing" : "no dynamic indexing"));
            Target target = emulating_tile_image(samples);
            target.tile_image.dynamic_indexing = dynamic_indexing;
            const Result result = lower(module.words, target, {});
            if (module.name.starts_with("color_location_8.frag.spv")) {  // one past the Target's colors: refused
                ASSERT_FALSE(result.ok);
                EXPECT_TRUE(contains(messages(result), "color location 8 lies beyond the 8 color locations")) << messages(result);
                continue;
            }
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_TRUE(result.changed);
            EXPECT_EQ(scan_emulated_capabilities(result.words), 0u);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            const std::string text = disassemble(result.words);
            EXPECT_FALSE(contains(text, "TileImage")) << text;
            EXPECT_TRUE(contains(text, "OpCapability InputAttachment")) << text;
            EXPECT_TRUE(contains(text, "DescriptorSet 7")) << text;
            EXPECT_EQ(contains(text, "SubpassData 0 0 1 2"), samples > 1) << text;
            EXPECT_FALSE(!dynamic_indexing && contains(text, "InputAttachmentArrayDynamicIndexing")) << text;
            ++lowered;
        }
    }
    EXPECT_GE(lowered, 40u) << "the corpus lacks the tile-image shaders";
}

// Reads of every shape: a scalar and a two-component color, a Sample operand, a signed stencil result,
// an array indexed at run time.
constexpr std::string_view kEveryRead = R"(
OpCapability Shader
OpCapability TileImageColorReadAccessEXT
OpCapability TileImageDepthReadAccessEXT
OpCapability TileImageStencilReadAccessEXT
OpExtension "SPV_EXT_shader_tile_image"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %color %array %index %out
OpExecutionMode %main OriginUpperLeft
OpExecutionMode %main NonCoherentDepthAttachmentReadEXT
OpDecorate %color Location 2
OpDecorate %array Location 3
OpDecorate %index Flat
OpDecorate %index Location 0
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%image = OpTypeImage %float TileImageDataEXT 0 0 0 2 Unknown
%uimage = OpTypeImage %uint TileImageDataEXT 0 0 0 2 Unknown
%array_t = OpTypeArray %uimage %uint_2
%ptr_image = OpTypePointer TileImageEXT %image
%ptr_array = OpTypePointer TileImageEXT %array_t
%ptr_uimage = OpTypePointer TileImageEXT %uimage
%ptr_in_uint = OpTypePointer Input %uint
%ptr_out = OpTypePointer Output %v4float
%color = OpVariable %ptr_image TileImageEXT
%array = OpVariable %ptr_array TileImageEXT
%index = OpVariable %ptr_in_uint Input
%out = OpVariable %ptr_out Output
%main = OpFunction %void None %fn
%entry = OpLabel
%img = OpLoad %image %color
%scalar = OpColorAttachmentReadEXT %float %img
%pair = OpColorAttachmentReadEXT %v2float %img %uint_1
%i = OpLoad %uint %index
%element = OpAccessChain %ptr_uimage %array %i
%uimg = OpLoad %uimage %element
%texel = OpColorAttachmentReadEXT %uint %uimg
%depth = OpDepthAttachmentReadEXT %float %uint_1
%stencil = OpStencilAttachmentReadEXT %int
%x = OpCompositeExtract %float %pair 1
%y = OpConvertUToF %float %texel
%z = OpConvertSToF %float %stencil
%result = OpCompositeConstruct %v4float %scalar %x %y %z
%final = OpVectorTimesScalar %v4float %result %depth
OpStore %out %final
OpReturn
OpFunctionEnd
)";

TEST(TileImagePass, ReadsOfEveryShapeBecomeInputAttachmentReads) {
    std::vector<uint32_t> words = assemble(kEveryRead);
    for (const uint32_t version : {0x00010600u, 0x00010000u}) {
        words[1] = version;
        for (uint32_t samples : {1u, 4u}) {
            const bool spirv10 = version == 0x00010000u;
            SCOPED_TRACE(std::string(spirv10 ? "SPIR-V 1.0, " : "SPIR-V 1.6, ") + std::to_string(samples) + " samples");
            const Result result = lower(words, emulating_tile_image(samples), {});
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            const std::string text = disassemble(result.words);
            // Before SPIR-V 1.4 interfaces list only Input and Output: %color and %array leave them.
            EXPECT_EQ(contains(text, "OpEntryPoint Fragment %1 \"main\" %4 %5\n"), spirv10) << text;
            // A float and a uint array of the set's 8 colors; location 2 is element 2, the array at 3 is
            // indexed from 3.
            const SpirvFacts facts = read_facts(result.words);
            EXPECT_EQ(color_arrays(facts).size(), 2u) << text;
            EXPECT_EQ(color_elements(facts), (std::multiset<std::string>{"2", "index+3"})) << text;
            EXPECT_TRUE(contains(text, "Binding 8")) << text;  // depth
            EXPECT_TRUE(contains(text, "Binding 9")) << text;  // stencil
            EXPECT_TRUE(contains(text, "OpCapability InputAttachmentArrayDynamicIndexing")) << text;
            EXPECT_EQ(contains(text, "SPV_EXT_descriptor_indexing"), spirv10) << text;
            EXPECT_FALSE(contains(text, "NonCoherent")) << text;
            EXPECT_FALSE(contains(text, "Location 2")) << text;
            EXPECT_EQ(contains(text, " Sample "), samples > 1) << text;
        }
    }
}

// kEveryRead with the read `read` (of `type`, through `pointer_type`) moved into a function that gets
// `argument`, the pointer it read through.
std::string read_in_a_function(const std::string& read, const std::string& type, const std::string& pointer_type,
                               const std::string& image_type, const std::string& argument) {
    const std::string result = read.substr(0, read.find(' '));
    std::string text = replaced(std::string(kEveryRead), read, result + " = OpFunctionCall " + type + " %read_fn_body " + argument);
    text = replaced(text, "%out = OpVariable %ptr_out Output",
                    "%out = OpVariable %ptr_out Output\n%read_fn = OpTypeFunction " + type + " " + pointer_type);
    return text + "%read_fn_body = OpFunction " + type + " None %read_fn\n%param = OpFunctionParameter " + pointer_type +
           "\n%body = OpLabel\n%param_image = OpLoad " + image_type + " %param\n%param_texel = OpColorAttachmentReadEXT " + type +
           " %param_image\nOpReturnValue %param_texel\nOpFunctionEnd\n";
}

// A device without shaderInputAttachmentArrayDynamicIndexing (Turnip): the array indexed at run time
// is read at both its elements (3 and 4) with constant indices and the index selects the texel; no
// access chain, load or capability indexes input attachments at run time.
TEST(TileImagePass, WithoutDynamicIndexingARunTimeIndexSelectsAmongTheElementsReads) {
    std::vector<uint32_t> words = assemble(kEveryRead);
    for (const uint32_t version : {0x00010600u, 0x00010000u}) {
        words[1] = version;
        for (uint32_t samples : {1u, 4u}) {
            SCOPED_TRACE(std::format("SPIR-V {}.{}, {} samples", version >> 16, (version >> 8) & 0xFF, samples));
            Target target = emulating_tile_image(samples);
            target.tile_image.dynamic_indexing = false;
            const Result result = lower(words, target, {});
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            const SpirvFacts facts = read_facts(result.words);
            EXPECT_EQ(color_elements(facts), (std::multiset<std::string>{"2", "3", "4"}));
            EXPECT_EQ(facts.count(spv::OpImageRead), 6u);  // the color's two, the array's two, depth and stencil
            EXPECT_EQ(facts.count(spv::OpSelect), 1u);
            EXPECT_FALSE(facts.capabilities.contains(spv::CapabilityInputAttachmentArrayDynamicIndexing));
            EXPECT_FALSE(contains(disassemble(result.words), "SPV_EXT_descriptor_indexing"));
        }
    }
}

// There, an element picked at run time that is used other than by reads (passed to a function) would
// still index the attachments at run time: reported, naming the instruction.
TEST(TileImagePass, WithoutDynamicIndexingARunTimeElementPassedToAFunctionIsReported) {
    const std::string text =
        read_in_a_function("%texel = OpColorAttachmentReadEXT %uint %uimg", "%uint", "%ptr_uimage", "%uimage", "%element");
    Target target = emulating_tile_image(1);
    const std::vector<uint32_t> words = assemble(text);
    ASSERT_TRUE(lower(words, target, {}).ok);  // with dynamic indexing, the element is passed on
    target.tile_image.dynamic_indexing = false;
    const Result result = lower(words, target, {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "shaderInputAttachmentArrayDynamicIndexing")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpFunctionCall")) << messages(result);
}

// Lowers `text` to valid SPIR-V whose color elements are `elements`, all constants: no dynamic indexing.
void expect_constant_elements(const std::string& text, const std::multiset<std::string>& elements) {
    const Result result = lower(assemble(text), emulating_tile_image(1), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    EXPECT_EQ(color_elements(facts), elements);
    EXPECT_FALSE(facts.capabilities.contains(spv::CapabilityInputAttachmentArrayDynamicIndexing));
}

constexpr std::string_view kArrayChain = "%element = OpAccessChain %ptr_uimage %array %i";

// A constant index into a tile-image array is folded into the element's.
TEST(TileImagePass, AConstantIndexIntoAnArrayTakesAConstantElement) {
    expect_constant_elements(replaced(std::string(kEveryRead), kArrayChain, "%element = OpAccessChain %ptr_uimage %array %uint_1"),
                             {"2", "4"});
}

// A specialization-constant index stays one: the element is a specialization constant too.
TEST(TileImagePass, ASpecializationConstantIndexIntoAnArrayStaysAConstant) {
    std::string text = replaced(std::string(kEveryRead), kArrayChain, "%element = OpAccessChain %ptr_uimage %array %spec");
    text = replaced(text, "%uint_2 = OpConstant %uint 2", "%uint_2 = OpConstant %uint 2\n%spec = OpSpecConstant %uint 1");
    text = replaced(text, "OpDecorate %out Location 0", "OpDecorate %out Location 0\nOpDecorate %spec SpecId 5");
    expect_constant_elements(text, {"2", "spec+3"});
}

// A single tile image passed to a function: the caller passes a pointer to its element (an element of
// an array of images may be a function argument), and the callee reads through its parameter.
TEST(TileImagePass, ATileImagePassedToAFunctionIsReadThroughItsElement) {
    const std::string text =
        read_in_a_function("%scalar = OpColorAttachmentReadEXT %float %img", "%float", "%ptr_image", "%image", "%color");
    const Result result = lower(assemble(text), emulating_tile_image(1), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    EXPECT_EQ(color_elements(facts), (std::multiset<std::string>{"2", "index+3"}));
    EXPECT_EQ(facts.count(spv::OpImageRead), 5u);  // the callee's, the pair's, the array's, depth and stencil
}

// An array's elements are found through its access chains only; a copy of its pointer is reported.
TEST(TileImagePass, ATileImageArrayUsedOtherThanThroughAccessChainsIsReported) {
    const std::string text = replaced(std::string(kEveryRead), kArrayChain,
                                      "%copy = OpCopyObject %ptr_array %array\n%element = OpAccessChain %ptr_uimage %copy %i");
    const Result result = lower(assemble(text), emulating_tile_image(1), {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "a tile-image array other than as the base of an access chain"))
        << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpCopyObject")) << messages(result);
}

// The pipeline has no color attachment at some locations the shader declares (a shader shared between
// pipelines, its reads switched off by a specialization constant, say): those reads give zeros and no
// input attachment has their index, which the driver would find outside the pipeline's attachments.
TEST(TileImagePass, ColorsWithoutAnAttachmentReadZerosAndBecomeNoInputAttachment) {
    std::vector<uint32_t> words = assemble(kEveryRead);
    constexpr uint32_t kColor = 2, kArray = 3;  // the ids of %color (location 2) and %array (3 and 4)
    const struct {
        uint32_t color_locations;
        bool color, array;  // which keep their attachments
    } cases[] = {{0b11000, false, true}, {0b00100, true, false}, {0, false, false}, {0b11100, true, true}};
    for (const uint32_t version : {0x00010600u, 0x00010000u}) {
        words[1] = version;
        for (const auto& c : cases) {
            SCOPED_TRACE("locations " + std::to_string(c.color_locations) + ", SPIR-V 1." + std::to_string((version >> 8) & 0xFF));
            Target target = emulating_tile_image(1);
            target.tile_image.color_locations = c.color_locations;
            const Result result = lower(words, target, {});
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            const SpirvFacts facts = read_facts(result.words);
            EXPECT_FALSE(facts.definitions.contains(kColor));
            EXPECT_FALSE(facts.definitions.contains(kArray));
            std::multiset<std::string> elements;
            if (c.color) elements.insert("2");
            if (c.array) elements.insert("index+3");
            EXPECT_EQ(color_elements(facts), elements);
            EXPECT_EQ(color_arrays(facts).size(), size_t{c.color} + c.array);
            EXPECT_EQ(facts.capabilities.contains(spv::CapabilityInputAttachmentArrayDynamicIndexing), c.array);
            // Reads: the color's two, the array's one, depth and stencil always; zeros for the rest.
            EXPECT_EQ(facts.count(spv::OpImageRead), 2u * c.color + c.array + 2u);
            size_t zeros = 0;
            for (const auto& [id, definition] : facts.definitions) zeros += facts.opcode_of(id) == spv::OpConstantNull;
            EXPECT_EQ(zeros, (c.color ? 0u : 2u) + (c.array ? 0u : 1u));  // float, v2float; uint
            const std::string text = disassemble(result.words);
            for (uint32_t location : {2u, 3u, 4u}) EXPECT_FALSE(contains(text, "Location " + std::to_string(location))) << text;
        }
    }
}

TEST(TileImagePass, AnArrayOverLocationsWithAndWithoutAttachmentsIsReported) {
    Target target = emulating_tile_image(1);
    target.tile_image.color_locations = 0b01100;  // location 3 has an attachment, 4 not
    const Result result = lower(assemble(kEveryRead), target, {});
    ASSERT_FALSE(result.ok);
    ASSERT_EQ(result.diagnostics.size(), 1u) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().message, "color locations 3-4, and the pipeline has a color attachment at some"))
        << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpVariable")) << messages(result);
}

// Only reads of such a tile image can be rewritten: an image reaching anything else is reported.
TEST(TileImagePass, ATileImageWithoutAnAttachmentUsedOtherThanByReadsIsReported) {
    std::string text(kEveryRead);
    const std::string_view read = "%scalar = OpColorAttachmentReadEXT %float %img";
    text.replace(text.find(read), read.size(), "%copy = OpCopyObject %image %img\n%scalar = OpCompositeExtract %float %copy 0");
    Target target = emulating_tile_image(1);
    target.tile_image.color_locations = 0b11000;
    const Result result = lower(assemble(text), target, {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "used other than by its reads")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpCompositeExtract")) << messages(result);
}

TEST(TileImagePass, AVariableWithoutLocationIsReportedNotGuessed) {
    std::string text(kEveryRead);
    text.erase(text.find("OpDecorate %color Location 2"), std::string_view("OpDecorate %color Location 2").size());
    const Result result = lower(assemble(text), emulating_tile_image(1), {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "no Location")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpVariable")) << messages(result);
}

// Reads spirv-val rejects but an application may pass unvalidated: each is reported, naming the read,
// before anything is rewritten (a vector of billions of components once exhausted memory; the parser
// now rejects such a vector, and the pass a vector of 8).
TEST(TileImagePass, AMalformedReadIsReportedNotLowered) {
    const struct {
        std::string_view from, to, why;
    } cases[] = {
        {"%v2float = OpTypeVector %float 2", "%v2float = OpTypeVector %float 8", "vector of 2 to 4 numbers"},
        {"%texel = OpColorAttachmentReadEXT %uint %uimg", "%texel = OpColorAttachmentReadEXT %int %uimg", "sampled type"},
        {"%texel = OpColorAttachmentReadEXT %uint %uimg", "%texel = OpColorAttachmentReadEXT %uint %uint_1", "not a TileImageDataEXT image"},
        {"%pair = OpColorAttachmentReadEXT %v2float %img %uint_1", "%pair = OpColorAttachmentReadEXT %v2float %img %float", "Sample"},
        {"%depth = OpDepthAttachmentReadEXT %float %uint_1", "%depth = OpDepthAttachmentReadEXT %int %uint_1", "32-bit float"},
        {"%stencil = OpStencilAttachmentReadEXT %int", "%stencil = OpStencilAttachmentReadEXT %float", "32-bit integer"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.to);
        std::string text(kEveryRead);
        text.replace(text.find(c.from), c.from.size(), c.to);
        const Result result = lower(assemble(text), emulating_tile_image(1), {});
        ASSERT_FALSE(result.ok);
        ASSERT_FALSE(result.diagnostics.empty());
        EXPECT_TRUE(contains(result.diagnostics.front().message, c.why)) << messages(result);
        EXPECT_TRUE(contains(result.diagnostics.front().instruction, "AttachmentReadEXT")) << messages(result);
    }
}

// A read in a function a vertex shader calls: spirv-val rejects the input, but an application may not
// validate, and the lowered input-attachment read would reach the driver in a vertex shader.
constexpr std::string_view kReadInAVertexShader = R"(
               OpCapability Shader
               OpCapability TileImageColorReadAccessEXT
               OpExtension "SPV_EXT_shader_tile_image"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Vertex %main "vertex_main" %out %color
               OpDecorate %color Location 0
               OpDecorate %out Location 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
         %v4 = OpTypeVector %float 4
       %vfn = OpTypeFunction %v4
      %image = OpTypeImage %float TileImageDataEXT 0 0 0 2 Unknown
  %ptr_image = OpTypePointer TileImageEXT %image
      %color = OpVariable %ptr_image TileImageEXT
    %ptr_out = OpTypePointer Output %v4
        %out = OpVariable %ptr_out Output
       %read = OpFunction %v4 None %vfn
         %rl = OpLabel
     %loaded = OpLoad %image %color
      %texel = OpColorAttachmentReadEXT %v4 %loaded
               OpReturnValue %texel
               OpFunctionEnd
       %main = OpFunction %void None %fn
      %label = OpLabel
     %result = OpFunctionCall %v4 %read
               OpStore %out %result
               OpReturn
               OpFunctionEnd
)";

TEST(TileImagePass, AReadOutsideAFragmentShaderIsReportedWithItsEntryPoint) {
    const Result result = lower(assemble(kReadInAVertexShader), emulating_tile_image(1), {});
    ASSERT_FALSE(result.ok);
    ASSERT_EQ(result.diagnostics.size(), 1u) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().message, "\"vertex_main\", which is not a fragment shader")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpColorAttachmentReadEXT")) << messages(result);
}

TEST(TileImageUsage, ReportsLocationsAspectsAndModes) {
    const TileImageUsage usage = tile_image_usage(assemble(kEveryRead), "main");
    ASSERT_TRUE(usage.ok) << usage.error;
    EXPECT_EQ(usage.colors, (std::vector<TileImageColors>{{2, 1}, {3, 2}}));
    EXPECT_TRUE(usage.depth);
    EXPECT_TRUE(usage.stencil);
    EXPECT_TRUE(usage.coherent_color);
    EXPECT_FALSE(usage.coherent_depth);
    EXPECT_TRUE(usage.coherent_stencil);
    EXPECT_FALSE(usage.early_fragment_tests);
    EXPECT_FALSE(tile_image_usage(assemble(kEveryRead), "other").reads_anything());
    EXPECT_FALSE(tile_image_usage(assemble(kMinimalCompute), "main").reads_anything());
}

TEST(TileImageUsage, CompiledShadersReportTheirNonCoherentModes) {
    for (const CorpusModule& module : corpus()) {
        if (module.name != "color_uint_array_nc.frag.spv" && module.name != "depth.frag.spv") continue;
        const TileImageUsage usage = tile_image_usage(module.words, "main");
        ASSERT_TRUE(usage.ok) << usage.error;
        const bool array = module.name == "color_uint_array_nc.frag.spv";
        EXPECT_EQ(usage.colors, (std::vector<TileImageColors>{array ? TileImageColors{0, 2} : TileImageColors{0, 1}}));
        EXPECT_EQ(usage.coherent_color, !array);
        EXPECT_EQ(usage.depth, !array);
    }
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
