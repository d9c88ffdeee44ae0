// The opening of the hand-written tensor-addressing modules (test_tensor_addressing_pass.cpp,
// test_tensor_layout_values.cpp): a compute entry point over one float storage buffer, in two parts
// so a test can add decorations after the first and declarations after the second before its function.
#pragma once

#include <string_view>

namespace vkpolyfill::lowering::test {

// Capabilities, extensions, the entry point and the buffer's decorations.
inline constexpr std::string_view kTensorAddressingHead = R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixTensorAddressingNV
OpCapability TensorAddressingNV
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_NV_cooperative_matrix2"
OpExtension "SPV_NV_tensor_addressing"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buffer
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %floats ArrayStride 4
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
OpDecorate %buffer Binding 0
OpDecorate %buffer DescriptorSet 0
)";

// The types and constants: a 2-D Constant layout, a transposing view, a 16x16 float accumulator, the
// buffer and an undefined matrix.
inline constexpr std::string_view kTensorAddressingTypes = R"(%void = OpTypeVoid
%void_function = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%bool = OpTypeBool
%false = OpConstantFalse %bool
%layout = OpTypeTensorLayoutNV %uint_2 %uint_1
%view = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0
%float = OpTypeFloat 32
%matrix = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
%floats = OpTypeRuntimeArray %float
%block = OpTypeStruct %floats
%block_pointer = OpTypePointer StorageBuffer %block
%buffer = OpVariable %block_pointer StorageBuffer
%float_pointer = OpTypePointer StorageBuffer %float
%undef = OpUndef %matrix
)";

}  // namespace vkpolyfill::lowering::test
