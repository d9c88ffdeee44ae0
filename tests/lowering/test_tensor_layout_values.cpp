// TensorLayoutValues: the words of a tensor layout a module fixes, followed from a load back through
// the tensor-addressing instructions, a Function variable, phis and a switch on a specialization
// constant (as llama.cpp's flash attention picks its block sizes), against the values the module
// sets by hand. What the lowering then emits is checked on lavapipe by the coopmat2 tensor suites.
#include <gtest/gtest.h>

#include <cstdint>
#include <format>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "ir/parser.h"
#include "ir/type_manager.h"
#include "passes/cooperative_matrix/tensor_layout_values.h"
#include "passes/cooperative_matrix/tensor_types.h"
#include "passes/pass.h"
#include "spirv_text.h"
#include "tensor_addressing_text.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// A layout kept in a Function variable: created with block sizes 1 x %block_size (a phi over a switch on
// SpecId 0: 1, 32 or 4) and sized, strided again on every pass of a loop, sliced by a run-time
// offset, then loaded through (%100). A store in a branch on a constant false (SpecId 1 at its
// default) sets blocks of 7. The second load (%101) goes through a variable whose pointer the
// module copies.
const std::string kLayouts = std::string(test::kTensorAddressingHead) + R"(
OpDecorate %type SpecId 0
OpDecorate %never SpecId 1
)" + std::string(test::kTensorAddressingTypes) + R"(
%uint_4 = OpConstant %uint 4
%uint_7 = OpConstant %uint 7
%uint_32 = OpConstant %uint 32
%uint_64 = OpConstant %uint 64
%type = OpSpecConstant %uint 0
%never = OpSpecConstantFalse %bool
%layout_pointer = OpTypePointer Function %layout
%uint_pointer = OpTypePointer StorageBuffer %uint
%main = OpFunction %void None %void_function
%entry = OpLabel
%kept = OpVariable %layout_pointer Function
%copied = OpVariable %layout_pointer Function
%copy = OpVariable %layout_pointer Function
%created = OpCreateTensorLayoutNV %layout
OpStore %copied %created
OpSelectionMerge %switch_merge None
OpSwitch %type %case_1 1 %case_32 2 %case_4
%case_1 = OpLabel
OpBranch %switch_merge
%case_32 = OpLabel
OpBranch %switch_merge
%case_4 = OpLabel
OpBranch %switch_merge
%switch_merge = OpLabel
%block_size = OpPhi %uint %uint_1 %case_1 %uint_32 %case_32 %uint_4 %case_4
%blocked = OpTensorLayoutSetBlockSizeNV %layout %created %uint_1 %block_size
%sized = OpTensorLayoutSetDimensionNV %layout %blocked %uint_64 %uint_64
OpStore %kept %sized
OpSelectionMerge %never_merge None
OpBranchConditional %never %sevens %never_merge
%sevens = OpLabel
%before_sevens = OpLoad %layout %kept
%seven = OpTensorLayoutSetBlockSizeNV %layout %before_sevens %uint_7 %uint_7
OpStore %kept %seven
OpBranch %never_merge
%never_merge = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %never_merge %next %body
%more = OpULessThan %bool %i %uint_4
OpLoopMerge %exit %body None
OpBranchConditional %more %body %exit
%body = OpLabel
%before_stride = OpLoad %layout %kept
%strided = OpTensorLayoutSetStrideNV %layout %before_stride %uint_64 %uint_1
OpStore %kept %strided
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
%row_pointer = OpAccessChain %uint_pointer %buffer %uint_0 %uint_0
%row_bits = OpLoad %uint %row_pointer
%final = OpLoad %layout %kept
%100 = OpTensorLayoutSliceNV %layout %final %row_bits %uint_32 %uint_0 %uint_16
%first = OpAccessChain %float_pointer %buffer %uint_0 %uint_0
%loaded = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %100 None None
OpCopyMemory %copy %copied
%from_copied = OpLoad %layout %copied
%101 = OpTensorLayoutSliceNV %layout %from_copied %uint_0 %uint_32 %uint_0 %uint_16
%again = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %101 None None
OpReturn
OpFunctionEnd
)";

// The words TensorLayoutValues finds for each of `layouts` (layout values loads take) in `text`,
// with SpecId 0 = `type`.
std::vector<TensorLayoutValues::Words> follow(const std::string& text, std::vector<uint32_t> layouts, uint32_t type = 0) {
    const std::vector<uint32_t> words = test::assemble(text);
    Diagnostics diagnostics;
    const auto module = ir::parse(words, diagnostics);
    if (!module) {
        ADD_FAILURE() << "the test module does not parse";
        return std::vector<TensorLayoutValues::Words>(layouts.size());
    }
    ir::TypeManager types(*module);
    const Target target;
    const std::vector<SpecializationValue> specialization{{0, {static_cast<uint8_t>(type), 0, 0, 0}}};
    PassContext context{*module, types, target, diagnostics, specialization};
    TensorTypes tensors;
    EXPECT_TRUE(tensors.collect(context));
    TensorLayoutValues values;
    values.collect(*module, tensors, specialization);
    std::vector<TensorLayoutValues::Words> found;
    for (uint32_t layout : layouts) {
        const TensorLayoutValues::Words* words_of = values.of(layout);
        if (!words_of) ADD_FAILURE() << "the layout of a load, %" << layout << ", was not followed";
        found.push_back(words_of ? *words_of : TensorLayoutValues::Words(11));
    }
    return found;
}

struct Followed {
    TensorLayoutValues::Words direct, copied;
};

Followed follow(uint32_t type) {
    const std::vector<TensorLayoutValues::Words> found = follow(kLayouts, {100, 101}, type);
    return {found[0], found[1]};
}

// Two dimensions: blockSize[2], layoutDimension[2], stride[2], offset[2], span[2], clampValue.
constexpr uint32_t kBlock0 = 0, kBlock1 = 1, kDimension0 = 2, kStride0 = 4, kOffset0 = 6, kOffset1 = 7,
                   kSpan0 = 8, kSpan1 = 9;

TEST(TensorLayoutValues, WordsSetAlongEveryReachedPathAreKnown) {
    const Followed followed = follow(1);
    const TensorLayoutValues::Words& w = followed.direct;
    ASSERT_EQ(w.size(), 11u);
    EXPECT_EQ(w[kBlock1], 32u) << "the switch on SpecId 0 = 1 reaches only the case of 32";
    EXPECT_EQ(w[kBlock0], 1u) << "the store of blocks of 7 is never reached";
    EXPECT_EQ(w[kDimension0], 64u) << "the loop's stores keep it";
    EXPECT_EQ(w[kStride0], std::nullopt) << "the variable holds SetDimension's packed strides and the loop's 64";
    EXPECT_EQ(w[kOffset0], std::nullopt) << "sliced by a value read from memory";
    EXPECT_EQ(w[kOffset1], 0u);
    EXPECT_EQ(w[kSpan0], 32u);
    EXPECT_EQ(w[kSpan1], 16u);
}

TEST(TensorLayoutValues, ThePipelinesSpecializationPicksTheSwitchCase) {
    EXPECT_EQ(follow(0).direct[kBlock1], 1u);
    EXPECT_EQ(follow(2).direct[kBlock1], 4u);
    EXPECT_EQ(follow(9).direct[kBlock1], 1u) << "no case of 9: the default";
}

TEST(TensorLayoutValues, NothingIsKnownOfAVariableWhosePointerIsPassedOn) {
    const Followed followed = follow(0);
    const TensorLayoutValues::Words& w = followed.copied;
    ASSERT_EQ(w.size(), 11u);
    EXPECT_EQ(w[kBlock0], std::nullopt);
    EXPECT_EQ(w[kBlock1], std::nullopt);
    EXPECT_EQ(w[kSpan0], 32u) << "the slice after the variable sets it";
}

// A layout created, then strided `steps` times in a chain, sliced and loaded through (%100).
std::string strided_chain(uint32_t steps) {
    std::string text = std::string(test::kTensorAddressingHead) + std::string(test::kTensorAddressingTypes) +
                       "%main = OpFunction %void None %void_function\n%entry = OpLabel\n%s0 = OpCreateTensorLayoutNV %layout\n";
    for (uint32_t i = 1; i <= steps; ++i) text += std::format("%s{} = OpTensorLayoutSetStrideNV %layout %s{} %uint_16 %uint_1\n", i, i - 1);
    text += std::format("%100 = OpTensorLayoutSliceNV %layout %s{} %uint_0 %uint_16 %uint_0 %uint_16\n", steps);
    text += "%first = OpAccessChain %float_pointer %buffer %uint_0 %uint_0\n"
            "%loaded = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %100 None None\nOpReturn\nOpFunctionEnd\n";
    return text;
}

// The walk recurses once a value (a native stack frame each), so it follows a chain only as deep as
// the lowering follows any nesting (ir::kMostNesting); past that nothing is known, and a module
// that chains its layout further costs the application's thread no more stack.
TEST(TensorLayoutValues, ChainsDeeperThanTheLoweringFollowsAreNotKnown) {
    const TensorLayoutValues::Words shallow = follow(strided_chain(200), {100})[0];
    EXPECT_EQ(shallow[kBlock0], 1u);
    EXPECT_EQ(shallow[kStride0], 16u);
    const TensorLayoutValues::Words deep = follow(strided_chain(300), {100})[0];
    EXPECT_EQ(deep[kBlock0], std::nullopt);
    EXPECT_EQ(deep[kSpan0], 16u) << "the slice's own spans are known without the chain";
}

// An invalid module whose 2-D layouts are built from 3-D values (the lowering reports the access
// later): the values of another layout type are not known, and reading them is not attempted.
TEST(TensorLayoutValues, ValuesOfAnotherLayoutTypeAreNotKnown) {
    const std::string text = std::string(test::kTensorAddressingHead) + std::string(test::kTensorAddressingTypes) + R"(
%layout3 = OpTypeTensorLayoutNV %uint_3 %uint_1
%main = OpFunction %void None %void_function
%entry = OpLabel
%created3 = OpCreateTensorLayoutNV %layout3
%created2 = OpCreateTensorLayoutNV %layout
%from3 = OpTensorLayoutSetStrideNV %layout %created3 %uint_16 %uint_1
%sliced3 = OpTensorLayoutSliceNV %layout3 %created2 %uint_0 %uint_16 %uint_0 %uint_16 %uint_0 %uint_16
%from_sliced3 = OpTensorLayoutSetStrideNV %layout %sliced3 %uint_16 %uint_1
%first = OpAccessChain %float_pointer %buffer %uint_0 %uint_0
%100 = OpTensorLayoutSetClampValueNV %layout %from3 %uint_0
%a = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %100 None None
%101 = OpTensorLayoutSetClampValueNV %layout %from_sliced3 %uint_0
%b = OpCooperativeMatrixLoadTensorNV %matrix %first %undef %101 None None
OpReturn
OpFunctionEnd
)";
    for (const TensorLayoutValues::Words& w : follow(text, {100, 101})) {
        ASSERT_EQ(w.size(), 11u);
        EXPECT_EQ(w[kBlock0], std::nullopt);
        EXPECT_EQ(w[kStride0], 16u) << "set by the access's own chain";
    }
}

}  // namespace
}  // namespace vkpolyfill::lowering::cooperative_matrix
