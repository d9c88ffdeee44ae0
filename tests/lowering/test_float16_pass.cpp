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
