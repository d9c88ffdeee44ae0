// SPV_NV_tensor_addressing in the cooperative-matrix pass: the tensor-addressing test shaders lower
// to valid SPIR-V for every clamp mode at the subgroup sizes real devices have, and what cannot be
// lowered is reported naming the instruction (tests/vulkan/test_cooperative_matrix2_tensor.cpp runs
// the lowered shaders against the spec's pseudo-code); the same for decode functions, scalar and
// vector (SPV_NV_cooperative_matrix_decode_vector).
#include <format>
#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>

#include <string>
#include <tuple>

#include "coopmat_target.h"
#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "tensor_addressing_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

TEST(TensorAddressingPass, EveryClampModeLowersToValidSpirvAtEverySubgroupSize) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!module.name.starts_with("tensor_addressing_")) continue;
        for (uint32_t subgroup_size : {8u, 32u}) {
            for (uint8_t mode = 0; mode <= 4; ++mode) {
                SCOPED_TRACE(module.name + " at subgroup size " + std::to_string(subgroup_size) + ", clamp mode " + std::to_string(mode));
                Options options;
                options.specialization.push_back({1, {mode, 0, 0, 0}});
                const Result result = lower(module.words, emulating_coopmat(subgroup_size), options);
                if (!result.ok && contains(messages(result), "is not whole subgroups of")) continue;
                ASSERT_TRUE(result.ok) << messages(result);
                EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
                EXPECT_EQ(validate(result.words, kVulkan13), "");
                ++lowered;
            }
        }
    }
    EXPECT_GE(lowered, 15u) << "the corpus lacks the tensor-addressing shaders";
}

// A tensor load through a view and a store, as glslang writes them; the tests below damage it.
const std::string kLoadAndStore = std::string(kTensorAddressingHead) + std::string(kTensorAddressingTypes) + R"(%main = OpFunction %void None %void_function
%entry = OpLabel
%created = OpCreateTensorLayoutNV %layout
%sized = OpTensorLayoutSetDimensionNV %layout %created %uint_16 %uint_16
%sliced = OpTensorLayoutSliceNV %layout %sized %uint_1 %uint_8 %uint_2 %uint_8
%clamped = OpTensorLayoutSetClampValueNV %layout %sliced %uint_3
%a_view = OpCreateTensorViewNV %view
%clipped = OpTensorViewSetClipNV %view %a_view %uint_1 %uint_8 %uint_0 %uint_16
%first = OpAccessChain %float_pointer %buffer %uint_0 %uint_0
%loaded = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %clamped None TensorView %clipped
OpCooperativeMatrixStoreTensorNV %first %loaded %clamped None None
OpReturn
OpFunctionEnd
)";

TEST(TensorAddressingPass, HandWrittenLoadAndStoreLowerToValidSpirv) {
    const Result result = lower(assemble(kLoadAndStore), emulating_coopmat(8), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
}

// kLoadAndStore with its slice in the matrix's shape (16 x 16, blocks of one element) and its load
// without the view; `layout_type` replaces the layout type (another clamp mode) and `spans` the
// slice's spans.
size_t functions_lowered(std::string_view layout_type, std::string_view spans) {
    std::string text = replaced(kLoadAndStore, "%sliced = OpTensorLayoutSliceNV %layout %sized %uint_1 %uint_8 %uint_2 %uint_8",
                                std::format("%sliced = OpTensorLayoutSliceNV %layout %sized %uint_1 {} %uint_2 {}", spans, spans));
    text = replaced(text, "%clamped None TensorView %clipped", "%clamped None None");
    text = replaced(text, "%layout = OpTypeTensorLayoutNV %uint_2 %uint_1", std::format("%layout = {}", layout_type));
    const Result result = lower(assemble(text), emulating_coopmat(8), {});
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    return read_facts(result.words).count(spv::OpFunction);
}

// Where the module fixes a layout's blocks (one element) and its slice's spans (the matrix's shape),
// and the clamp mode sends no element to the general path, the lowering links the addressing's
// direct path alone: the spec's general computation (span coordinates, clamping, linearization)
// stays out of the module. A ClampToEdge load, or spans of another shape, link it. What each
// computes is checked on lavapipe (CooperativeMatrix2Tensor*.FixedSlice2D* and the rest).
TEST(TensorAddressingPass, LayoutsTheModuleFixesLinkTheDirectPathAlone) {
    const std::string_view constant = "OpTypeTensorLayoutNV %uint_2 %uint_1", clamp_to_edge = "OpTypeTensorLayoutNV %uint_2 %uint_2";
    const size_t direct = functions_lowered(constant, "%uint_16");
    EXPECT_LT(direct, functions_lowered(clamp_to_edge, "%uint_16"));
    EXPECT_LT(direct, functions_lowered(constant, "%uint_8"));
}

// A module whose entry point loads the 16x16 matrix from the buffer through its first element, a
// pointer of type `pointer`, with a 16x16 layout: the tests below change its types.
std::string load_16x16(std::string_view pointer) {
    return std::string(kTensorAddressingHead) + std::string(kTensorAddressingTypes) + std::format(R"(%main = OpFunction %void None %void_function
%entry = OpLabel
%created = OpCreateTensorLayoutNV %layout
%sized = OpTensorLayoutSetDimensionNV %layout %created %uint_16 %uint_16
%first = OpAccessChain {} %buffer %uint_0 %uint_0
%loaded = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %sized None None
OpReturn
OpFunctionEnd
)", pointer);
}

// A tensor load of a 16x16 matrix of `component` (f16 or f32) from a buffer declared as bytes
// (llama.cpp's attention kernels declare theirs so), read-only or not, in a module that may declare
// 16-bit storage access, its layout of `clamp_mode`; lowered for a subgroup of 8 (of SIMD lanes, or
// not): how many 8-bit loads the lowered module has, and how many variables share the binding.
struct BytesLowered {
    size_t byte_loads;
    size_t bound_variables;
};
BytesLowered load_from_bytes(std::string_view component, bool read_only, bool storage_16bit = true,
                             std::string_view clamp_mode = "%uint_2", bool simd_lanes = false, bool blocks_of_one = true) {
    std::string text = load_16x16("%byte_pointer");
    text = replaced(text, "OpCapability Shader\n", "OpCapability Shader\nOpCapability Int8\nOpCapability Float16\nOpCapability StorageBuffer8BitAccess\n");
    if (storage_16bit) text = replaced(text, "OpCapability Shader\n", "OpCapability Shader\nOpCapability StorageBuffer16BitAccess\n");
    text = replaced(text, "OpExtension \"SPV_KHR_cooperative_matrix\"\n", "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_KHR_8bit_storage\"\n");
    text = replaced(text, "OpDecorate %floats ArrayStride 4", "OpDecorate %floats ArrayStride 1");
    if (read_only) text = replaced(text, "OpMemberDecorate %block 0 Offset 0\n", "OpMemberDecorate %block 0 Offset 0\nOpMemberDecorate %block 0 NonWritable\n");
    if (!blocks_of_one) {  // the addressing's general path
        text = replaced(text, "%first = OpAccessChain", "%blocked = OpTensorLayoutSetBlockSizeNV %layout %sized %uint_2 %uint_2\n%first = OpAccessChain");
        text = replaced(text, "%undef %sized None None", "%undef %blocked None None");
    }
    text = replaced(text, "%floats = OpTypeRuntimeArray %float", "%uchar = OpTypeInt 8 0\n%floats = OpTypeRuntimeArray %uchar");
    text = replaced(text, "%float_pointer = OpTypePointer StorageBuffer %float", "%byte_pointer = OpTypePointer StorageBuffer %uchar");
    text = replaced(text, "%matrix = OpTypeCooperativeMatrixKHR %float", std::format("%half = OpTypeFloat 16\n%matrix = OpTypeCooperativeMatrixKHR {}", component));
    text = replaced(text, "%layout = OpTypeTensorLayoutNV %uint_2 %uint_1", std::format("%layout = OpTypeTensorLayoutNV %uint_2 {}", clamp_mode));
    const Result result = lower(assemble(text), emulating_coopmat(8, simd_lanes), {});
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    BytesLowered counts{0, 0};
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFF) != spv::OpLoad) continue;
        const Words& type = facts.definitions.at(instruction.words[1]);
        if ((type[0] & 0xFFFF) == spv::OpTypeInt && type[2] == 8) ++counts.byte_loads;
    }
    for (const auto& [id, words] : facts.definitions) {
        if ((words[0] & 0xFFFF) == spv::OpVariable && facts.decoration(id, spv::DecorationBinding) == 0u) ++counts.bound_variables;
    }
    return counts;
}

// Components wider than the buffer's bytes are read whole where the buffer is read-only and every
// element is read (here ClampToEdge, and Constant on the addressing's direct path, which reads an
// element outside at the tensor's first): a tensor load's pointer is 16-byte aligned, so each component
// lies at a multiple of its size, and a second variable on the same descriptor views the buffer as
// elements of the component's width (16-bit ones where the module declares 16-bit storage access). A
// writable buffer, f16 without 16-bit storage or on SIMD lanes (lavapipe, where a 16-bit gather is
// written out lane by lane), or a Constant layout on the general path (blocks of 2x2: elements tested
// one by one) keeps a load per byte; f32 is read whole on SIMD lanes too. What the views give is checked on lavapipe
// (CooperativeMatrix2TensorSubgroup.ThroughBytesMatchesCpu reads a read-only buffer,
// ...Workgroup.ThroughBytesMatchesCpu a writable one; llama.cpp's flash attention by scripts/engine-ops.sh).
TEST(TensorAddressingPass, ComponentsWiderThanAReadOnlyByteArrayAreReadWhole) {
    for (const std::string_view component : {"%half", "%float"}) {
        SCOPED_TRACE(component);
        const BytesLowered whole = load_from_bytes(component, true), bytes = load_from_bytes(component, false);
        EXPECT_EQ(whole.byte_loads, 0u);
        EXPECT_EQ(whole.bound_variables, 2u);
        EXPECT_GT(bytes.byte_loads, 0u);
        EXPECT_EQ(bytes.bound_variables, 1u);
    }
    EXPECT_EQ(load_from_bytes("%float", true, true, "%uint_2", true).byte_loads, 0u);
    EXPECT_EQ(load_from_bytes("%half", true, true, "%uint_1").byte_loads, 0u);
    for (const BytesLowered kept : {load_from_bytes("%half", true, false), load_from_bytes("%float", true, true, "%uint_1", false, false),
                                    load_from_bytes("%half", true, true, "%uint_2", true)}) {
        EXPECT_GT(kept.byte_loads, 0u);
        EXPECT_EQ(kept.bound_variables, 1u);
    }
}

// A tensor load of a 16x16 matrix of `component` (f16 or f32) from a buffer of them, and with
// `store` its store back, lowered for a subgroup of `subgroup_size`: its loops, how many of them ask
// to stay rolled (DontUnroll), whether it declares f16 pairs (the words of a load that takes them two
// at a time), and how many variables hold arrays of 2-component chunks (a word or a chunk an iteration)
// and of how many.
struct LoopsLowered {
    size_t loops;
    size_t rolled;
    bool pairs;
    size_t chunk_arrays;
    uint32_t chunks;
};
LoopsLowered load_loops(std::string_view component, uint32_t subgroup_size, LongNarrowLoads long_narrow_loads, bool chunked = false,
                        bool store = false) {
    std::string text = load_16x16("%float_pointer");
    if (component == "%half") {
        text = replaced(text, "OpCapability Shader\n", "OpCapability Shader\nOpCapability Float16\nOpCapability StorageBuffer16BitAccess\n");
        text = replaced(text, "%float = OpTypeFloat 32", "%float = OpTypeFloat 32\n%half = OpTypeFloat 16");
        text = replaced(text, "%matrix = OpTypeCooperativeMatrixKHR %float", "%matrix = OpTypeCooperativeMatrixKHR %half");
        text = replaced(text, "%floats = OpTypeRuntimeArray %float", "%floats = OpTypeRuntimeArray %half");
        text = replaced(text, "%float_pointer = OpTypePointer StorageBuffer %float", "%float_pointer = OpTypePointer StorageBuffer %half");
        text = replaced(text, "OpDecorate %floats ArrayStride 4", "OpDecorate %floats ArrayStride 2");
    }
    if (store) text = replaced(text, "%undef %sized None None\n", "%undef %sized None None\nOpCooperativeMatrixStoreTensorNV %first %loaded %sized None None\n");
    Target target = emulating_coopmat(subgroup_size);
    target.long_narrow_loads = long_narrow_loads;
    target.chunked_element_loops = chunked;
    const Result result = lower(assemble(text), target, {});
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    LoopsLowered counts{0, 0, false, 0, 0};
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFF) != spv::OpLoopMerge) continue;
        ++counts.loops;
        if (instruction.words[3] & spv::LoopControlDontUnrollMask) ++counts.rolled;
    }
    const auto pair = [&](uint32_t id) { return facts.opcode_of(id) == spv::OpTypeVector && facts.definitions.at(id)[3] == 2; };
    for (const auto& [id, words] : facts.definitions) {
        if (pair(id) && facts.opcode_of(words[2]) == spv::OpTypeFloat && facts.definitions.at(words[2])[2] == 16) counts.pairs = true;
        if ((words[0] & 0xFFFF) != spv::OpVariable) continue;
        const Words& pointee = facts.definitions.at(facts.definitions.at(words[1])[3]);
        if ((pointee[0] & 0xFFFF) != spv::OpTypeArray || !pair(pointee[2])) continue;
        ++counts.chunk_arrays;
        counts.chunks = facts.constant(pointee[3]).value_or(0);
    }
    return counts;
}

// A load of more narrow components an invocation than Mesa's drivers unroll (64 f16 at a subgroup
// of 4) takes a 32-bit word's worth an iteration, written whole, its loop asking to stay rolled
// with RolledWords (NAK: see Target::long_narrow_loads); with Elements it takes them one by one.
// Fewer components (32 at a subgroup of 8), or 32-bit ones, are taken one by one. What the words
// hold is checked on lavapipe 26, which takes words (the CooperativeMatrix2Decode* tests on the
// native driver: their f16 tiles hold more than 32 components an invocation there).
TEST(TensorAddressingPass, NarrowComponentsOfALongLoadAreReadAWordAnIteration) {
    const LoopsLowered rolled = load_loops("%half", 4, LongNarrowLoads::RolledWords), words = load_loops("%half", 4, LongNarrowLoads::Words),
                       elements = load_loops("%half", 4, LongNarrowLoads::Elements);
    EXPECT_TRUE(rolled.pairs);
    EXPECT_EQ(rolled.rolled, 1u);
    EXPECT_TRUE(words.pairs);
    EXPECT_EQ(words.rolled, 0u);
    EXPECT_EQ(words.chunks, 32u);
    EXPECT_FALSE(elements.pairs);
    EXPECT_EQ(elements.rolled, 0u);
    EXPECT_EQ(rolled.loops, words.loops);
    EXPECT_EQ(elements.loops, words.loops);
    for (const LoopsLowered& plain : {load_loops("%half", 8, LongNarrowLoads::RolledWords), load_loops("%float", 4, LongNarrowLoads::RolledWords)}) {
        EXPECT_FALSE(plain.pairs);
        EXPECT_EQ(plain.rolled, 0u);
        EXPECT_EQ(plain.chunk_arrays, 0u);
        EXPECT_GT(plain.loops, 0u);
    }
}

// Where the target asks (Target::chunked_element_loops: NVK), a tensor load or store of more
// components an invocation than Mesa's drivers unroll (64 f32 at a subgroup of 4) takes two an
// iteration through an array of 32 pairs that the loop indexes by its counter (NIR unrolls such a
// loop whatever its size), neither asking to stay rolled; 32 f32 (a subgroup of 8) are taken one by
// one, 32 f16 a pair an iteration. A long f16 load still takes words, kept rolled with RolledWords,
// and its store chunks. What the chunks hold runs on lavapipe
// (vulkan.plain@subgroup4@distributed@chunked_tensor_loops.*).
TEST(TensorAddressingPass, LongLoadsAndStoresTakeChunksWhereTheTargetAsks) {
    const LoopsLowered load = load_loops("%float", 4, LongNarrowLoads::Words, true),
                       both = load_loops("%float", 4, LongNarrowLoads::Words, true, true),
                       unchunked = load_loops("%float", 4, LongNarrowLoads::Words, false, true),
                       short_loops = load_loops("%float", 8, LongNarrowLoads::Words, true, true),
                       narrow = load_loops("%half", 4, LongNarrowLoads::RolledWords, true, true);
    EXPECT_EQ(load.chunk_arrays, 1u);
    EXPECT_EQ(load.chunks, 32u);
    EXPECT_EQ(load.rolled, 0u);
    EXPECT_EQ(both.chunk_arrays, 2u);
    EXPECT_EQ(both.chunks, 32u);
    EXPECT_EQ(both.rolled, 0u);
    EXPECT_EQ(unchunked.chunk_arrays, 0u);
    EXPECT_EQ(unchunked.loops, both.loops);
    EXPECT_EQ(short_loops.chunk_arrays, 0u);
    EXPECT_EQ(narrow.chunk_arrays, 2u);
    EXPECT_EQ(narrow.rolled, 1u);
    EXPECT_TRUE(narrow.pairs);
    const LoopsLowered short_narrow = load_loops("%half", 8, LongNarrowLoads::RolledWords, true, true);
    EXPECT_EQ(short_narrow.chunk_arrays, 2u);
    EXPECT_EQ(short_narrow.chunks, 16u);
    EXPECT_EQ(short_narrow.rolled, 0u);
}

struct BadInput {
    const char* from;
    const char* to;
    const char* instruction;  // what the diagnostic names
    const char* why;          // a part of its message
};

// `text` with the bad input's replacement fails to lower, its first diagnostic naming the instruction.
void expect_refused(const std::string& text, const BadInput& bad) {
    const Result result = lower(assemble(replaced(text, bad.from, bad.to)), emulating_coopmat(8), {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    const Diagnostic& first = result.diagnostics.front();
    EXPECT_TRUE(contains(first.message, bad.why)) << messages(result);
    EXPECT_TRUE(contains(first.message + first.instruction, bad.instruction)) << messages(result);
}

TEST(TensorAddressingPass, WhatCannotBeLoweredIsReportedNamingTheInstruction) {
    const BadInput cases[] = {
        {"%layout = OpTypeTensorLayoutNV %uint_2 %uint_1", "%layout = OpTypeTensorLayoutNV %uint_8 %uint_1", "OpTypeTensorLayoutNV",
         "8 dimensions"},
        {"%layout = OpTypeTensorLayoutNV %uint_2 %uint_1", "%layout = OpTypeTensorLayoutNV %uint_2 %uint_16", "OpTypeTensorLayoutNV",
         "clamp mode 16"},
        {"%view = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0", "%view = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_1",
         "OpTypeTensorViewNV", "not a permutation"},
        {"%view = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0",
         "%view = OpTypeTensorViewNV %uint_3 %false %uint_1 %uint_0 %uint_2", "OpCooperativeMatrixLoadTensorNV", "too few"},
        {"%clamped None None", "%clamped None DecodeFunc %main", "OpCooperativeMatrixStoreTensorNV", "DecodeFunc is not allowed"},
        {"%sized = OpTensorLayoutSetDimensionNV %layout %created %uint_16 %uint_16",
         "%sized = OpTensorLayoutSetDimensionNV %layout %created %uint_16", "OpTensorLayoutSetDimensionNV", "one operand per dimension"},
    };
    for (const BadInput& bad : cases) {
        SCOPED_TRACE(bad.to);
        expect_refused(kLoadAndStore, bad);
    }
}

// A load whose DecodeFunc reads a float through its PhysicalStorageBuffer pointer, from a
// StorageBuffer descriptor (as glslang writes it, dead code stripped).
constexpr std::string_view kDecode = R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability PhysicalStorageBufferAddresses
OpCapability CooperativeMatrixTensorAddressingNV
OpCapability CooperativeMatrixBlockLoadsNV
OpCapability TensorAddressingNV
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_NV_cooperative_matrix2"
OpExtension "SPV_NV_tensor_addressing"
OpMemoryModel PhysicalStorageBuffer64 Vulkan
OpEntryPoint GLCompute %4 "main" %43
OpExecutionMode %4 LocalSize 8 1 1
OpDecorate %8 Block
OpMemberDecorate %8 0 Offset 0
OpDecorate %13 Aliased
OpDecorate %40 ArrayStride 4
OpDecorate %41 Block
OpMemberDecorate %41 0 Offset 0
OpDecorate %43 Binding 0
OpDecorate %43 DescriptorSet 0
%2 = OpTypeVoid
%3 = OpTypeFunction %2
OpTypeForwardPointer %6 PhysicalStorageBuffer
%7 = OpTypeFloat 32
%8 = OpTypeStruct %7
%6 = OpTypePointer PhysicalStorageBuffer %8
%9 = OpTypeInt 32 0
%10 = OpConstant %9 1
%11 = OpTypeArray %9 %10
%12 = OpTypeFunction %7 %6 %11 %11
%18 = OpTypeInt 32 1
%19 = OpConstant %18 0
%20 = OpTypePointer PhysicalStorageBuffer %7
%25 = OpConstant %9 0
%26 = OpTypeTensorLayoutNV %10 %25
%32 = OpConstant %9 256
%34 = OpConstant %9 3
%35 = OpConstant %9 16
%36 = OpConstant %9 2
%37 = OpTypeCooperativeMatrixKHR %7 %34 %35 %35 %36
%40 = OpTypeRuntimeArray %7
%41 = OpTypeStruct %40
%42 = OpTypePointer StorageBuffer %41
%43 = OpVariable %42 StorageBuffer
%44 = OpTypePointer StorageBuffer %7
%47 = OpUndef %37
%4 = OpFunction %2 None %3
%5 = OpLabel
%30 = OpCreateTensorLayoutNV %26
%33 = OpTensorLayoutSetDimensionNV %26 %30 %32
%45 = OpAccessChain %44 %43 %19 %25
%48 = OpCooperativeMatrixLoadTensorNV %37 %45 %47 %33 None DecodeFunc %16
OpCooperativeMatrixStoreKHR %45 %48 %19 %35 None
OpReturn
OpFunctionEnd
%16 = OpFunction %7 None %12
%13 = OpFunctionParameter %6
%14 = OpFunctionParameter %11
%15 = OpFunctionParameter %11
%17 = OpLabel
%21 = OpAccessChain %20 %13 %19
%22 = OpLoad %7 %21 Aligned 4
OpReturnValue %22
OpFunctionEnd
)";

TEST(TensorAddressingPass, DecodeFunctionOfAStorageBufferLowersToValidSpirv) {
    const Result result = lower(assemble(kDecode), emulating_coopmat(8), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
}

// A decode function that never reads through its pointer needs no size for its block, which may then
// be a runtime array, as in llama.cpp's MUL_MAT_ID GEMM (tensor_decode_gather.comp: through a view with
// a DecodeVectorFunc beside, and without a view, calling it); bad_input/ has one that reads through it.
TEST(TensorAddressingPass, DecodeFunctionsNeverReadingTheirUnsizedBlockLowerToValidSpirv) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!module.name.starts_with("tensor_decode_gather.")) continue;
        for (uint32_t subgroup_size : {8u, 32u}) {
            for (uint8_t op : {0, 1}) {
                SCOPED_TRACE(std::format("{} at subgroup size {}, OP {}", module.name, subgroup_size, op));
                Options options;
                options.specialization.push_back({0, {op, 0, 0, 0}});
                const Result result = lower(module.words, emulating_coopmat(subgroup_size), options);
                ASSERT_TRUE(result.ok) << messages(result);
                EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
                EXPECT_EQ(validate(result.words, kVulkan13), "");
                ++lowered;
            }
        }
    }
    EXPECT_EQ(lowered, 8u) << "the corpus lacks tensor_decode_gather.comp, or its optimized version";
}

TEST(TensorAddressingPass, DecodeFunctionsTheLoweringCannotFollowAreReported) {
    const BadInput cases[] = {
        {"OpReturnValue %22", "OpStore %21 %22 Aligned 4\nOpReturnValue %22", "OpCooperativeMatrixLoadTensorNV",
         "its pointer reaches OpStore"},
        {"%12 = OpTypeFunction %7 %6 %11 %11", "%12 = OpTypeFunction %7 %6 %11 %9", "OpCooperativeMatrixLoadTensorNV",
         "two uint[1] arrays"},
        {"%22 = OpLoad %7 %21 Aligned 4", "%22 = OpFunctionCall %7 %21", "OpCooperativeMatrixLoadTensorNV",
         "as the function to call"},  // invalid, but the clone kept the call to an id it removed (a fuzz find)
    };
    for (const BadInput& bad : cases) {
        SCOPED_TRACE(bad.to);
        expect_refused(std::string(kDecode), bad);
    }
}

// A legal module the lowering cannot follow: the decode function loads a whole float[2^28] through
// its pointer (read by byte address one number at a time, ByteAddress::kMostScalars).
TEST(TensorAddressingPass, DecodeFunctionLoadingAHugeArrayIsReported) {
    std::string text = replaced(std::string(kDecode), "%7 = OpTypeFloat 32\n%8 = OpTypeStruct %7\n",
                                "%7 = OpTypeFloat 32\n%9 = OpTypeInt 32 0\n%60 = OpConstant %9 268435456\n%61 = OpTypeArray %7 %60\n"
                                "%8 = OpTypeStruct %61\n");
    text = replaced(text, "%9 = OpTypeInt 32 0\n%10", "%10");
    text = replaced(text, "OpDecorate %40 ArrayStride 4", "OpDecorate %40 ArrayStride 4\nOpDecorate %61 ArrayStride 4");
    text = replaced(text, "%20 = OpTypePointer PhysicalStorageBuffer %7", "%20 = OpTypePointer PhysicalStorageBuffer %7\n%62 = OpTypePointer PhysicalStorageBuffer %61");
    text = replaced(text, "%21 = OpAccessChain %20 %13 %19\n%22 = OpLoad %7 %21 Aligned 4",
                    "%21 = OpAccessChain %62 %13 %19\n%63 = OpLoad %61 %21 Aligned 4\n%22 = OpCompositeExtract %7 %63 0");
    const std::vector<uint32_t> words = assemble(text);
    ASSERT_EQ(validate(words, kVulkan13), "");
    const Result result = lower(words, emulating_coopmat(8), {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "more than 4096 numbers")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpCooperativeMatrixLoadTensorNV")) << messages(result);
}

// kDecode whose decode function passes its pointer down a chain of `helpers` functions (%1000...),
// the last of which loads the float, or, with `recursive`, calls itself as well.
std::string with_call_chain(int helpers, bool recursive) {
    std::string text = replaced(std::string(kDecode), "%12 = OpTypeFunction %7 %6 %11 %11",
                                "%12 = OpTypeFunction %7 %6 %11 %11\n%70 = OpTypeFunction %7 %6");
    text = replaced(text, "%21 = OpAccessChain %20 %13 %19\n%22 = OpLoad %7 %21 Aligned 4", "%22 = OpFunctionCall %7 %1000 %13");
    for (int i = 0; i < helpers; ++i) {
        const int id = 1000 + 4 * i, parameter = id + 1, label = id + 2, value = id + 3;
        text += std::format("%{} = OpFunction %7 None %70\n%{} = OpFunctionParameter %6\n%{} = OpLabel\n", id, parameter, label);
        if (i + 1 < helpers) {
            text += std::format("%{} = OpFunctionCall %7 %{} %{}\n", value, id + 4, parameter);
        } else {
            if (recursive) text += std::format("%{} = OpFunctionCall %7 %{} %{}\n", value + 4 * helpers, id, parameter);
            text += std::format("%{} = OpAccessChain %20 %{} %19\n%{} = OpLoad %7 %{} Aligned 4\n", value + 8 * helpers,
                                parameter, value, value + 8 * helpers);
        }
        text += std::format("OpReturnValue %{}\nOpFunctionEnd\n", value);
    }
    return text;
}

// Each function a decode function passes its pointer to is cloned inside its caller's clone: spirv-val
// accepts recursion (Vulkan does not) and a function declaring fewer parameters than its type, and the
// depth is bounded; all three are reported.
TEST(TensorAddressingPass, DecodeCallChainsAreFollowedToABoundedDepth) {
    const std::vector<uint32_t> chain = assemble(with_call_chain(63, false));  // with the decode function, 64 deep
    ASSERT_EQ(validate(chain, kVulkan13), "");
    const Result deepest = lower(chain, emulating_coopmat(8), {});
    ASSERT_TRUE(deepest.ok) << messages(deepest);
    EXPECT_EQ(validate(deepest.words, kVulkan13), "");
    // A callee declaring one parameter of the two its type has: its clone's type would come from the one.
    std::string fewer = replaced(with_call_chain(1, false), "%70 = OpTypeFunction %7 %6", "%70 = OpTypeFunction %7 %6 %6");
    fewer = replaced(fewer, "%22 = OpFunctionCall %7 %1000 %13", "%22 = OpFunctionCall %7 %1000 %13 %13");
    const std::tuple<std::string, const char*> cases[] = {{with_call_chain(64, false), "more than 64 nested calls"},
                                                          {with_call_chain(3, true), "(recursion)"},
                                                          {fewer, "%1000 declares 1 parameters where its type has 2"}};
    for (const auto& [text, why] : cases) {
        SCOPED_TRACE(why);
        const std::vector<uint32_t> words = assemble(text);
        EXPECT_EQ(validate(words, kVulkan13), "");
        const Result result = lower(words, emulating_coopmat(8), {});
        ASSERT_FALSE(result.ok);
        ASSERT_FALSE(result.diagnostics.empty());
        EXPECT_TRUE(contains(result.diagnostics.front().message, why)) << messages(result);
        EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpCooperativeMatrixLoadTensorNV")) << messages(result);
    }
}

// kDecode whose decode function reads (by byte address) an array type nested `levels` deep, or whose
// block's struct nests `levels` structs (`shared`: each of two of the one below, both at offset 0):
// the walks of both recurse once per level.
std::string with_nested_types(int levels, bool block_struct, bool shared = false) {
    std::string types, decorations;
    for (int k = 0; k < levels; ++k) {
        const std::string inner = k == 0 ? "%7" : std::format("%{}", 100000 + k - 1);
        types += block_struct ? std::format("%{} = OpTypeStruct {}{}\n", 100000 + k, inner, shared ? " " + inner : "")
                              : std::format("%{} = OpTypeArray {} %10\n", 100000 + k, inner);
        decorations += block_struct ? std::format("OpMemberDecorate %{} 0 Offset 0\n", 100000 + k)
                                    : std::format("OpDecorate %{} ArrayStride 4\n", 100000 + k);
        if (shared) decorations += std::format("OpMemberDecorate %{} 1 Offset 0\n", 100000 + k);
    }
    const std::string outer = std::format("%{}", 100000 + levels - 1);
    std::string text = replaced(std::string(kDecode), "OpDecorate %40 ArrayStride 4\n", "OpDecorate %40 ArrayStride 4\n" + decorations);
    if (block_struct) {
        text = replaced(text, "%7 = OpTypeFloat 32\n%8 = OpTypeStruct %7\n", "%7 = OpTypeFloat 32\n" + types + "%8 = OpTypeStruct " + outer + "\n");
        return text;
    }
    text = replaced(text, "%12 = OpTypeFunction %7 %6 %11 %11\n", "%12 = OpTypeFunction %7 %6 %11 %11\n" + types +
                                                                      "%99 = OpTypePointer PhysicalStorageBuffer " + outer + "\n");
    return replaced(text, "%21 = OpAccessChain %20 %13 %19\n%22 = OpLoad %7 %21 Aligned 4",
                    "%21 = OpBitcast %99 %13\n%98 = OpLoad " + outer + " %21 Aligned 4\n%22 = OpUndef %7");
}

// Types nested past ir::kMostNesting (60,000 levels overflowed the stack) are reported.
TEST(TensorAddressingPass, DecodeTypesNestedTooDeepAreReported) {
    for (const auto& [block_struct, why] : {std::pair{false, "whose arrays and structs nest more than 255 deep"},
                                         std::pair{true, "a decode block's structs nest more than 255 deep"}}) {
        SCOPED_TRACE(why);
        const Result result = lower(assemble(with_nested_types(60000, block_struct)), emulating_coopmat(8), {});
        ASSERT_FALSE(result.ok);
        ASSERT_FALSE(result.diagnostics.empty());
        EXPECT_TRUE(contains(result.diagnostics.front().message, why)) << messages(result);
    }
    const Result shallow = lower(assemble(with_nested_types(200, false)), emulating_coopmat(8), {});
    EXPECT_TRUE(shallow.ok) << messages(shallow);
}

// A decode block of structs each holding two of the one below, 48 deep (2^48 paths): its layout
// sizes each type once (it walked every path). Not validated: spirv-val takes exponential time here.
TEST(TensorAddressingPass, DecodeBlockLayoutsSizeSharedTypesOnce) {
    const Result result = lower(assemble(with_nested_types(48, true, true)), emulating_coopmat(8), {});
    EXPECT_TRUE(result.ok) << messages(result);
}

// kDecode whose matrix has as many rows as a spec-constant expression `levels` deep: each level ORs
// the one below with itself (`shared`: 2^levels paths to the 16 at the bottom) or with zero.
std::string with_rows_expression(int levels, bool shared) {
    std::string expression;
    for (int k = 0; k < levels; ++k) {
        const std::string below = k == 0 ? "%35" : std::format("%{}", 100000 + k - 1);
        expression += std::format("%{} = OpSpecConstantOp %9 BitwiseOr {} {}\n", 100000 + k, below, shared ? below : "%25");
    }
    return replaced(std::string(kDecode), "%37 = OpTypeCooperativeMatrixKHR %7 %34 %35 %35 %36",
                    expression + std::format("%37 = OpTypeCooperativeMatrixKHR %7 %34 %{} %35 %36", 100000 + levels - 1));
}

// Spec-constant expressions are a DAG evaluated once per id (64 shared levels took 2^64 steps), and
// one nested past the evaluator's bound (60,000 levels, one stack frame each) is reported.
TEST(TensorAddressingPass, SpecConstantExpressionsAreEvaluatedOnceAndToABoundedDepth) {
    const Result shared = lower(assemble(with_rows_expression(64, true)), emulating_coopmat(8), {});
    ASSERT_TRUE(shared.ok) << messages(shared);
    EXPECT_EQ(validate(shared.words, kVulkan13), "");
    const Result deep = lower(assemble(with_rows_expression(60000, false)), emulating_coopmat(8), {});
    ASSERT_FALSE(deep.ok);
    ASSERT_FALSE(deep.diagnostics.empty());
    EXPECT_TRUE(contains(deep.diagnostics.front().message, "constant the lowering can evaluate")) << messages(deep);
}

// kDecode with a DecodeVectorFunc beside its DecodeFunc (%90, two floats a call, read through its
// own pointer type), of a matrix of `use`.
std::string with_vector_decode(const char* use) {
    std::string text = replaced(std::string(kDecode), "OpCapability CooperativeMatrixKHR",
                                "OpCapability CooperativeMatrixKHR\nOpCapability CooperativeMatrixDecodeVectorNV");
    text = replaced(text, "OpExtension \"SPV_NV_tensor_addressing\"",
                    "OpExtension \"SPV_NV_tensor_addressing\"\nOpExtension \"SPV_NV_cooperative_matrix_decode_vector\"");
    text = replaced(text, "%37 = OpTypeCooperativeMatrixKHR %7 %34 %35 %35 %36", std::string("%37 = OpTypeCooperativeMatrixKHR %7 %34 %35 %35 ") + use);
    text = replaced(text, "%20 = OpTypePointer PhysicalStorageBuffer %7",
                    "%20 = OpTypePointer PhysicalStorageBuffer %7\n%80 = OpTypeVector %7 2\n%81 = OpTypeFunction %80 %6 %11 %11");
    text = replaced(text, "None DecodeFunc %16", "None DecodeFunc|DecodeVectorFunc %16 %90");
    return text + R"(
%90 = OpFunction %80 None %81
%91 = OpFunctionParameter %6
%92 = OpFunctionParameter %11
%93 = OpFunctionParameter %11
%94 = OpLabel
%95 = OpAccessChain %20 %91 %19
%96 = OpLoad %7 %95 Aligned 4
%97 = OpCompositeConstruct %80 %96 %96
OpReturnValue %97
OpFunctionEnd
)";
}

// An A matrix, whose rows an invocation holds whole, calls the vector function; an accumulator, whose
// columns are dealt over the invocations, the scalar one. Both lower whole.
TEST(TensorAddressingPass, DecodeVectorFunctionsLowerToValidSpirv) {
    for (const char* use : {"%25", "%36"}) {  // MatrixAKHR, MatrixAccumulatorKHR
        SCOPED_TRACE(use);
        const Result result = lower(assemble(with_vector_decode(use)), emulating_coopmat(8), {});
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
    }
}

TEST(TensorAddressingPass, MalformedDecodeVectorFunctionsAreReported) {
    const BadInput cases[] = {
        {"%80 = OpTypeVector %7 2", "%80 = OpTypeVector %7 3", "OpCooperativeMatrixLoadTensorNV", "a vector of 2, 4 or 8"},
        {"%81 = OpTypeFunction %80 %6 %11 %11", "%81 = OpTypeFunction %7 %6 %11 %11", "OpCooperativeMatrixLoadTensorNV",
         "a vector of 2, 4 or 8"},
        {"%81 = OpTypeFunction %80 %6 %11 %11", "%81 = OpTypeFunction %80 %6 %11 %9", "OpCooperativeMatrixLoadTensorNV",
         "DecodeVectorFunc must take a PhysicalStorageBuffer pointer and two uint[1] arrays"},
        {"None DecodeFunc|DecodeVectorFunc %16 %90", "None DecodeVectorFunc %90", "OpCooperativeMatrixLoadTensorNV",
         "needs a DecodeFunc beside it"},
    };
    for (const char* use : {"%25", "%36"}) {  // both whether or not the lowering calls the function
        for (const BadInput& bad : cases) {
            SCOPED_TRACE(std::string(use) + ": " + bad.to);
            std::string text = with_vector_decode(use);
            if (std::string_view(bad.to).starts_with("%81") && !std::string_view(bad.to).starts_with("%81 = OpTypeFunction %80")) {
                text = replaced(text, "%90 = OpFunction %80", "%90 = OpFunction %7");  // the function's type is its return type
                text = replaced(text, "OpReturnValue %97", "OpReturnValue %96");
            }
            expect_refused(text, bad);
        }
    }
}

TEST(TensorAddressingPass, DecodeVectorFunctionOnAStoreIsReported) {
    expect_refused(kLoadAndStore, {"%clamped None None", "%clamped None DecodeVectorFunc %main",
                                                "OpCooperativeMatrixStoreTensorNV", "DecodeVectorFunc is not allowed with a store"});
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
