// SPV_ARM_tensors forms GLSL does not write, through the layer on a device: the capabilities for
// indexing arrays of tensors (StorageTensorArrayDynamicIndexingARM, ...NonUniformIndexingARM;
// glslang indexes such arrays without declaring them) and the memory-model tensor operands
// (MakeElementVisibleARM, MakeElementAvailableARM, NonPrivateElementARM at Device scope) under the
// Vulkan memory model. Against a CPU reference, with the canaries around the written tensor.
#include <gtest/gtest.h>

#include "arm_tensor_device.h"
#include "coopmat_assembly.h"

namespace vkpolyfill::test {
namespace {

// out[i] = tables[pick][i] (read with MakeElementVisible | NonPrivateElement) + tables[i % 4][i]
// (a non-uniform index), written with MakeElementAvailable | NonPrivateElement; 16 invocations.
constexpr char kModule[] = R"(
OpCapability Shader
OpCapability TensorsARM
OpCapability StorageTensorArrayDynamicIndexingARM
OpCapability StorageTensorArrayNonUniformIndexingARM
OpCapability ShaderNonUniform
OpCapability VulkanMemoryModel
OpCapability VulkanMemoryModelDeviceScope
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %tables %out %gid %push
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %tables DescriptorSet 0
OpDecorate %tables Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %Push Block
OpMemberDecorate %Push 0 Offset 0
OpDecorate %which NonUniform
OpDecorate %chosen NonUniform
OpDecorate %other NonUniform
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%device = OpConstant %uint 1
%tensor = OpTypeTensorARM %int %uint_1
%tables_t = OpTypeArray %tensor %uint_4
%ptr_tables = OpTypePointer UniformConstant %tables_t
%ptr_tensor = OpTypePointer UniformConstant %tensor
%tables = OpVariable %ptr_tables UniformConstant
%out = OpVariable %ptr_tensor UniformConstant
%ptr_in = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in Input
%Push = OpTypeStruct %uint
%ptr_push = OpTypePointer PushConstant %Push
%push = OpVariable %ptr_push PushConstant
%ptr_push_uint = OpTypePointer PushConstant %uint
%coords_t = OpTypeArray %uint %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%coords = OpCompositeConstruct %coords_t %i
%pick_ptr = OpAccessChain %ptr_push_uint %push %uint_0
%pick = OpLoad %uint %pick_ptr
%picked_ptr = OpAccessChain %ptr_tensor %tables %pick
%picked = OpLoad %tensor %picked_ptr
%a = OpTensorReadARM %int %picked %coords MakeElementVisibleARM|NonPrivateElementARM %device
%which = OpUMod %uint %i %uint_4
%chosen = OpAccessChain %ptr_tensor %tables %which
%other = OpLoad %tensor %chosen
%b = OpTensorReadARM %int %other %coords
%sum = OpIAdd %int %a %b
%o = OpLoad %tensor %out
OpTensorWriteARM %o %coords %sum MakeElementAvailableARM|NonPrivateElementARM %device
OpReturn
OpFunctionEnd
)";

template <typename T>
T& at(const TestTensor& t, uint64_t i) {
    return *reinterpret_cast<T*>(t.data + t.offset({i}));
}

TEST(ArmTensorsSpirvForms, IndexingCapabilitiesAndMemoryModelOperands) {
    TensorDevice device;
    std::vector<TestTensor> tables;
    std::vector<VkTensorViewARM> views;
    for (int32_t t = 0; t < 4; ++t) {
        tables.push_back(device.create(VK_FORMAT_R32_SINT, {16}));
        for (uint64_t i = 0; i < 16; ++i) at<int32_t>(tables.back(), i) = (t + 1) * 1000 + static_cast<int32_t>(i) * 3;
        views.push_back(device.view(tables.back(), VK_FORMAT_R32_SINT));
    }
    const TestTensor out = device.create(VK_FORMAT_R32_SINT, {16});
    using Binding = TensorComputePipeline::Binding;
    TensorComputePipeline pipeline(device, coopmat::assemble(kModule),
                                   {{Binding{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4}, Binding{VK_DESCRIPTOR_TYPE_TENSOR_ARM}}}, 4);
    pipeline.write_tensors(0, 0, views);
    pipeline.write_tensors(0, 1, {device.view(out, VK_FORMAT_R32_SINT)});
    const uint32_t pick = 3;
    pipeline.dispatch(1, 1, 1, std::as_bytes(std::span(&pick, 1)));
    for (uint64_t i = 0; i < 16; ++i) {
        EXPECT_EQ(at<int32_t>(out, i), at<int32_t>(tables[pick], i) + at<int32_t>(tables[i % 4], i)) << i;
    }
    EXPECT_TRUE(TensorDevice::canaries_intact(out));
}

}  // namespace
}  // namespace vkpolyfill::test
