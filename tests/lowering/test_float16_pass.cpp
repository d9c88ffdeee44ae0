// The Float16 pass (f16 arithmetic in f32 for a device without shaderFloat16) on every module of the
// corpus that declares Float16, with whatever else it uses lowered for a 32-wide GPU: the output
// must drop the capability and pass spirv-val, which without Float16 refuses any f16 value used but by
// loads, stores and conversions. What it cannot emulate is reported, not guessed.
#include <gtest/gtest.h>

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

#include "coopmat_target.h"
#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

Target without_float16(uint32_t subgroup_size) {
    Target target = emulating_coopmat(subgroup_size);
    target.distributed_matrices = target.subgroup_shuffles = true;
    target.emulate |= bit(Emulated::Float16) | bit(Emulated::ArmTensors) | bit(Emulated::IntelLongComposites);
    return target;
}

TEST(Float16Pass, EveryFloat16ModuleLowersToValidSpirvWithoutF16Arithmetic) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!(scan_emulated_capabilities(module.words) & bit(Emulated::Float16))) continue;
        SCOPED_TRACE(module.name);
        const Result result = lower(module.words, without_float16(32), {});
        // Workgroup-scope matrices over a workgroup narrower than the subgroup: reported as before.
        if (!result.ok && contains(messages(result), "is not whole subgroups of")) continue;
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(scan_emulated_capabilities(result.words), 0u);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        ++lowered;
    }
    EXPECT_GE(lowered, 20u) << "the corpus has too few f16 modules";
}

// f16 only in registers (no 16-bit storage): no f16 type is left at all.
TEST(Float16Pass, RegistersOnlyF16LeavesNoF16Type) {
    const std::vector<uint32_t> words = assemble(R"(
               OpCapability Shader
               OpCapability Float16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Out Block
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %v2half = OpTypeVector %half 2
        %Out = OpTypeStruct %float
    %out_ptr = OpTypePointer StorageBuffer %Out
  %float_ptr = OpTypePointer StorageBuffer %float
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
      %third = OpConstant %half 0x1.554p-2
      %three = OpConstant %half 3
       %pair = OpConstantComposite %v2half %third %three
        %out = OpVariable %out_ptr StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
    %product = OpFMul %v2half %pair %pair
          %x = OpCompositeExtract %half %product 0
       %wide = OpFConvert %float %x
          %p = OpAccessChain %float_ptr %out %int_0
               OpStore %p %wide
               OpReturn
               OpFunctionEnd
)");
    const Result result = lower(words, without_float16(32), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_FALSE(find_opcode(result.words, spv::OpTypeFloat, 1)) << "only f32 is left";
    EXPECT_TRUE(find_opcode(result.words, spv::OpQuantizeToF16)) << "the product is rounded to f16";
}

// A workgroup array of 4096 halves (8 KiB), written, read after a barrier and added; SHARED is replaced
// by more workgroup variables.
constexpr std::string_view kSharedHalves = R"(
               OpCapability Shader
               OpCapability Float16
               OpCapability Int16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %out %shared %id
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %Out Block
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
               OpDecorate %id BuiltIn LocalInvocationIndex
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
  %uint_4096 = OpConstant %uint 4096
     %halves = OpTypeArray %half %uint_4096
 %halves_ptr = OpTypePointer Workgroup %halves
   %half_ptr = OpTypePointer Workgroup %half
        %Out = OpTypeStruct %float
    %out_ptr = OpTypePointer StorageBuffer %Out
  %float_ptr = OpTypePointer StorageBuffer %float
     %in_ptr = OpTypePointer Input %uint
      %third = OpConstant %half 0x1.554p-2
        %out = OpVariable %out_ptr StorageBuffer
     %shared = OpVariable %halves_ptr Workgroup
         %id = OpVariable %in_ptr Input
               SHARED
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %i = OpLoad %uint %id
          %p = OpAccessChain %half_ptr %shared %i
               OpStore %p %third
               OpControlBarrier %uint_2 %uint_2 %uint_264
          %q = OpAccessChain %half_ptr %shared %uint_2
          %x = OpLoad %half %q
        %sum = OpFAdd %half %x %x
       %wide = OpFConvert %float %sum
          %o = OpAccessChain %float_ptr %out %uint_0
               OpStore %o %wide
               OpReturn
               OpFunctionEnd
)";

// The element width and length of each Workgroup variable's array, in declaration order.
std::vector<std::pair<uint32_t, uint32_t>> workgroup_arrays(const std::vector<uint32_t>& words) {
    const SpirvFacts facts = read_facts(words);
    std::vector<std::pair<uint32_t, uint32_t>> arrays;
    for (const auto& [id, definition] : facts.definitions) {
        if ((definition[0] & 0xFFFFu) != spv::OpVariable || definition[3] != spv::StorageClassWorkgroup) continue;
        const Words& array = facts.definitions.at(facts.definitions.at(definition[1])[3]);
        const Words& element = facts.definitions.at(array[2]);
        arrays.emplace_back(element[2], facts.constant(array[3]).value_or(0));
    }
    return arrays;
}

// Plain workgroup memory keeps each f16 as its 16 bits where the module may declare 16-bit integers
// (Target::shader_int16), so the shader takes the shared memory it was sized for; without, its f16
// are widened to f32, and where that passes the device's limit it is reported.
TEST(Float16Pass, SharedF16KeepsItsBitsWhereTheDeviceHasInt16) {
    const auto lowered = [](std::string_view shared, bool int16, uint32_t limit) {
        Target target = without_float16(32);
        target.shader_int16 = int16;
        target.max_shared_memory_bytes = limit;
        return lower(assemble(replaced(std::string(kSharedHalves), "SHARED", shared)), target, {});
    };
    const Result bits = lowered("", true, 12288);
    ASSERT_TRUE(bits.ok) << messages(bits);
    EXPECT_EQ(validate(bits.words, kVulkan13), "");
    EXPECT_EQ(workgroup_arrays(bits.words), (std::vector<std::pair<uint32_t, uint32_t>>{{16, 4096}}));
    EXPECT_TRUE(read_facts(bits.words).capabilities.contains(spv::CapabilityInt16));
    EXPECT_FALSE(find_opcode(bits.words, spv::OpTypeFloat, 1)) << "only f32 is left";

    const Result widened = lowered("", false, 0);
    ASSERT_TRUE(widened.ok) << messages(widened);
    EXPECT_EQ(validate(widened.words, kVulkan13), "");
    EXPECT_EQ(workgroup_arrays(widened.words), (std::vector<std::pair<uint32_t, uint32_t>>{{32, 4096}}));
    // 16 KiB widened against a 12 KiB device.
    const Result too_large = lowered("", false, 12288);
    EXPECT_FALSE(too_large.ok);
    EXPECT_TRUE(contains(messages(too_large),
                         "takes 16384 bytes instead of 8192, more than the device's 12288 (maxComputeSharedMemorySize)"))
        << messages(too_large);
    // A module over the limit before widening is the driver's to judge, as without the layer.
    const Result over_before = lowered("", false, 4096);
    ASSERT_TRUE(over_before.ok) << messages(over_before);
    EXPECT_EQ(workgroup_arrays(over_before.words), (std::vector<std::pair<uint32_t, uint32_t>>{{32, 4096}}));
}

// The module's own 16-bit integers in workgroup memory share the integer form's types (here its array
// and the pointer to one element): each access converts by what its pointer pointed at before.
TEST(Float16Pass, SharedF16BitsBesideTheModulesOwn16BitIntegers) {
    std::string text = replaced(std::string(kSharedHalves), "SHARED", R"(%ushorts = OpTypeArray %ushort %uint_4096
                                 %ushorts_ptr = OpTypePointer Workgroup %ushorts
                                 %ushort_ptr = OpTypePointer Workgroup %ushort
                                 %ushort_7 = OpConstant %ushort 7
                                 %own = OpVariable %ushorts_ptr Workgroup)");
    text = replaced(text, "%main \"main\" %out %shared %id", "%main \"main\" %out %shared %id %own");
    text = replaced(text, "          %x = OpLoad %half %q", R"(          %r = OpAccessChain %ushort_ptr %own %uint_2
                                         OpStore %r %ushort_7
                                         %x = OpLoad %half %q)");
    Target target = without_float16(32);
    target.shader_int16 = true;
    const Result result = lower(assemble(text), target, {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_EQ(workgroup_arrays(result.words), (std::vector<std::pair<uint32_t, uint32_t>>{{16, 4096}, {16, 4096}}));
    // The f16 store and load convert (a pack, an unpack); the integer store stores the constant as it is.
    const SpirvFacts facts = read_facts(result.words);
    size_t integer_stores = 0;
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFFu) == spv::OpStore && facts.opcode_of(instruction.words[2]) == spv::OpConstant) {
            ++integer_stores;
        }
    }
    EXPECT_EQ(integer_stores, 1u);
    EXPECT_EQ(facts.count(spv::OpExtInst), 2u);
}

// A specialization constant's bytes are the application's f16; float controls would apply to f32.
TEST(Float16Pass, WhatItCannotEmulateIsReported) {
    const std::string module = R"(
               OpCapability Shader
               OpCapability Float16
               OpCapability DenormPreserve
               OpExtension "SPV_KHR_float_controls"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               MODE
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %half = OpTypeFloat 16
          %c = CONSTANT
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpFAdd %half %c %c
               OpReturn
               OpFunctionEnd
)";
    const auto lowered = [&](std::string_view mode, std::string_view constant) {
        const std::string text = replaced(replaced(module, "MODE", mode), "CONSTANT", constant);
        return messages(lower(assemble(text), without_float16(32), {}));
    };
    EXPECT_EQ(lowered("", "OpConstant %half 1"), "");
    EXPECT_TRUE(contains(lowered("", "OpSpecConstant %half 1"), "16-bit float specialization constants are not emulated"));
    EXPECT_TRUE(contains(lowered("OpExecutionMode %main DenormPreserve 16", "OpConstant %half 1"),
                         "float controls for 16-bit floats are not emulated"));
}

// f16 tensors the driver runs itself (SPV_ARM_tensors not emulated): the pass cannot widen them.
TEST(Float16Pass, F16InTypesItDoesNotKnowIsReported) {
    const auto module = std::ranges::find(corpus(), std::string("elements_f16.comp.spv"), &CorpusModule::name);
    ASSERT_NE(module, corpus().end());
    Target target;
    target.emulate = bit(Emulated::Float16);
    const Result result = lower(module->words, target, {});
    EXPECT_FALSE(result.ok);
    EXPECT_TRUE(contains(messages(result), "16-bit floats in a OpTypeTensorARM are not emulated")) << messages(result);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
