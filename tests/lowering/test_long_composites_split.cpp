// SPV_INTEL_long_composites, part two: what does not fit SPIR-V's limits is split into nested structs
// and arrays. Every lowered module passes spirv-val; explicit layouts keep every member's byte offset;
// specialization constants stay specializable; layouts that cannot be nested are reported.
#include <gtest/gtest.h>

#include <format>
#include <map>
#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "long_composites_lowering.h"
#include "long_composites_modules.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

namespace modules = vkpolyfill::test::long_composites;

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);
constexpr uint32_t kMaxStructMembers = 16383;

// Lowers `words`, which must succeed, and checks the output as the layer would (spirv-val).
std::unique_ptr<ir::Module> lower_valid(const std::vector<uint32_t>& words, const Options& options = {}) {
    const Result result = lower(words, emulating_long_composites(), options);
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
    Diagnostics diagnostics;
    return ir::parse(result.words, diagnostics);
}

size_t count_opcode(const ir::Module& module, uint32_t opcode) {
    size_t count = 0;
    module.for_each_instruction([&](const ir::Instruction& i) { count += i.opcode() == opcode; });
    return count;
}

uint32_t named(const ir::Module& module, std::string_view name) {
    for (const auto& instruction : module.debug_names) {
        if (instruction->opcode() == spv::OpName && ir::decode_literal_string(instruction->words().subspan(2)) == name) {
            return instruction->word(1);
        }
    }
    return 0;
}

// Every member's byte offset in struct `id`, the members of nested structs in place of their struct.
std::vector<uint32_t> flattened_offsets(const ir::Module& module, uint32_t id, uint32_t base = 0) {
    std::map<uint32_t, uint32_t> offsets;
    for (const auto& a : module.annotations) {
        if (a->opcode() == spv::OpMemberDecorate && a->word(1) == id && a->word(3) == spv::DecorationOffset) {
            offsets[a->word(2)] = a->word(4);
        }
    }
    std::vector<uint32_t> flat;
    const auto members = module.find_definition(id)->operand_words();
    for (uint32_t m = 0; m < members.size(); ++m) {
        if (module.find_definition(members[m])->opcode() == spv::OpTypeStruct) {
            const auto inner = flattened_offsets(module, members[m], base + offsets.at(m));
            flat.insert(flat.end(), inner.begin(), inner.end());
        } else {
            flat.push_back(base + offsets.at(m));
        }
    }
    return flat;
}

// The member name `name` of some struct: (struct, member index).
std::pair<uint32_t, uint32_t> member_named(const ir::Module& module, std::string_view name) {
    for (const auto& instruction : module.debug_names) {
        if (instruction->opcode() == spv::OpMemberName && ir::decode_literal_string(instruction->words().subspan(3)) == name) {
            return {instruction->word(1), instruction->word(2)};
        }
    }
    return {0, 0};
}

TEST(LongCompositesSplit, EveryGeneratedModuleLowersToValidSpirv) {
    for (const char* name : {"struct", "struct_runtime_array", "table", "table_in_buffer", "construct", "spec"}) {
        SCOPED_TRACE(name);
        const auto module = lower_valid(modules::read_module(name));
        ASSERT_NE(module, nullptr);
        module->for_each_instruction([](const ir::Instruction& i) {
            if (i.opcode() == spv::OpTypeStruct) {
                EXPECT_LE(i.operand_words().size(), kMaxStructMembers);
            }
        });
    }
}

TEST(LongCompositesSplit, StructMembersKeepTheirOffsetsNamesAndDecorations) {
    const auto module = lower_valid(modules::read_module("struct_runtime_array"));
    ASSERT_NE(module, nullptr);
    const uint32_t big = named(*module, "Big");
    std::vector<uint32_t> expected(modules::kStructMembers + 1);
    for (uint32_t k = 0; k < expected.size(); ++k) expected[k] = 4 * k;
    EXPECT_EQ(flattened_offsets(*module, big), expected);

    // "first" and "last" now name members of the first and the last chunk; the runtime array stays
    // the Block's own last member, where Vulkan needs it.
    const auto outer = module->find_definition(big)->operand_words();
    EXPECT_EQ(member_named(*module, "first"), std::pair(outer.front(), 0u));
    const auto [last_struct, last_index] = member_named(*module, "last");
    EXPECT_EQ(last_struct, outer[outer.size() - 2]);
    EXPECT_EQ(last_index + 1, module->find_definition(last_struct)->operand_words().size());
    EXPECT_EQ(member_named(*module, "tail"), std::pair(big, static_cast<uint32_t>(outer.size() - 1)));
    EXPECT_EQ(module->find_definition(outer.back())->opcode(), spv::OpTypeRuntimeArray);
}

uint32_t decoration_value(const ir::Module& module, uint32_t id, spv::Decoration decoration) {
    for (const auto& a : module.annotations) {
        if (a->opcode() == spv::OpDecorate && a->word(1) == id && a->word(2) == decoration) return a->word(3);
    }
    return 0;
}

uint32_t constant_value(const ir::Module& module, uint32_t id) { return module.find_definition(id)->word(3); }

// The table's type is also a storage buffer's array (ArrayStride 4): it splits evenly, the chunks keep
// the stride and the outer array steps over whole chunks, so every element stays at 4 * i.
TEST(LongCompositesSplit, ArraysWithAnArrayStrideKeepEveryElementsOffset) {
    const auto module = lower_valid(modules::read_module("table_in_buffer"));
    ASSERT_NE(module, nullptr);
    uint32_t stored = 0;  // the Block at binding 2
    for (const auto& a : module->annotations) {
        if (a->opcode() == spv::OpDecorate && a->word(2) == spv::DecorationBinding && a->word(3) == 2) stored = a->word(1);
    }
    const uint32_t pointer = module->type_of(stored);
    const uint32_t block = module->find_definition(pointer)->word(3);
    const uint32_t outer = module->find_definition(block)->operand_words()[0];
    const uint32_t inner = module->find_definition(outer)->word(2);
    const uint32_t chunks = constant_value(*module, module->find_definition(outer)->word(3));
    const uint32_t chunk_length = constant_value(*module, module->find_definition(inner)->word(3));
    EXPECT_EQ(chunks * chunk_length, modules::kTableElements);
    EXPECT_EQ(decoration_value(*module, inner, spv::DecorationArrayStride), 4u);
    EXPECT_EQ(decoration_value(*module, outer, spv::DecorationArrayStride), 4u * chunk_length);
}

TEST(LongCompositesSplit, SpecializationConstantCompositesStaySpecializable) {
    const std::vector<uint32_t> words = modules::read_module("spec");
    const auto module = lower_valid(words);
    ASSERT_NE(module, nullptr);
    EXPECT_EQ(count_opcode(*module, spv::OpSpecConstant), 3u);
    EXPECT_EQ(count_opcode(*module, spv::OpSpecConstantOp), 1u);
    EXPECT_EQ(count_opcode(*module, spv::OpSpecConstantComposite), 3u);  // the outer one and two chunks
    size_t spec_ids = 0;
    for (const auto& a : module->annotations) spec_ids += a->opcode() == spv::OpDecorate && a->word(2) == spv::DecorationSpecId;
    EXPECT_EQ(spec_ids, 3u);
    // The pipeline's values are left to the driver: the output does not depend on them.
    Options options;
    options.specialization = {{0, {0xD2, 0x04, 0, 0}}, {2, {0x2E, 0x16, 0, 0}}};
    EXPECT_EQ(lower(words, emulating_long_composites(), options).words, lower(words, emulating_long_composites(), {}).words);
}

// "%id %id ... %id", `count` times.
std::string repeated(std::string_view id, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) (text += ' ') += id;
    return text;
}

// A compute shader over a StorageBuffer Block %Big of members `types` (%float, %v4float or %farr) at
// `offsets`, copying the float member `from` to the float member `to`.
std::vector<uint32_t> block_module(const std::vector<std::string>& types, const std::vector<uint32_t>& offsets, uint32_t from,
                                   uint32_t to, const std::string& annotations = {}) {
    std::string text(kLongCompositesHeader);
    text += "OpEntryPoint GLCompute %main \"main\" %buf\nOpExecutionMode %main LocalSize 1 1 1\nOpName %Big \"Big\"\n";
    text += "OpDecorate %Big Block\nOpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\nOpDecorate %farr ArrayStride 4\n";
    for (size_t m = 0; m < offsets.size(); ++m) text += std::format("OpMemberDecorate %Big {} Offset {}\n", m, offsets[m]);
    text += annotations;
    text += R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%farr = OpTypeRuntimeArray %float
%int = OpTypeInt 32 1
%Big = OpTypeStruct)";
    for (const std::string& type : types) (text += ' ') += type;
    text += std::format(R"(
%ptr = OpTypePointer StorageBuffer %Big
%buf = OpVariable %ptr StorageBuffer
%pfloat = OpTypePointer StorageBuffer %float
%from = OpConstant %int {}
%to = OpConstant %int {}
%main = OpFunction %void None %fn
%entry = OpLabel
%pa = OpAccessChain %pfloat %buf %from
%va = OpLoad %float %pa
%pb = OpAccessChain %pfloat %buf %to
OpStore %pb %va
OpReturn
OpFunctionEnd
)",
                        from, to);
    return assemble(text);
}

// std430 offsets of %float (4 bytes), %v4float (16) and a last %farr.
std::vector<uint32_t> std430_offsets(const std::vector<std::string>& types) {
    std::vector<uint32_t> offsets;
    uint32_t next = 0;
    for (const std::string& type : types) {
        const uint32_t size = type == "%v4float" ? 16 : 4;
        next = (next + size - 1) / size * size;
        offsets.push_back(next);
        next += size;
    }
    return offsets;
}

// Every fifth member a vec4: a nested struct holding one is 16-byte aligned, so chunks may only start
// at 16-byte offsets.
TEST(LongCompositesSplit, ChunksOfAnExplicitLayoutStartWhereANestedStructCan) {
    std::vector<std::string> types;
    for (uint32_t m = 0; m < 40002; ++m) types.push_back(m % 5 == 1 ? "%v4float" : "%float");  // a vec4 last
    types.push_back("%farr");
    const std::vector<uint32_t> offsets = std430_offsets(types);
    const auto module = lower_valid(block_module(types, offsets, 39999, 16385));
    ASSERT_NE(module, nullptr);
    const uint32_t big = named(*module, "Big");
    EXPECT_EQ(flattened_offsets(*module, big), offsets);
    EXPECT_EQ(module->find_definition(big)->operand_words().size(), 4u);  // three chunks and the runtime array
}

TEST(LongCompositesSplit, LayoutsThatCannotBeNestedAreReported) {
    std::vector<std::string> types(20000, "%float");
    std::vector<uint32_t> offsets = std430_offsets(types);
    std::swap(offsets[100], offsets[101]);
    EXPECT_TRUE(lowering_error(block_module(types, offsets, 0, 1)).message
                    .ends_with("member 101's Offset 400 is not past member 100's (404); chunks need members in offset order"));

    // A vec4 in the last chunk aligns it to 16: a runtime array 4 bytes after a float would start in
    // its padding.
    types.back() = "%v4float";
    types.push_back("%float");
    types.push_back("%farr");
    EXPECT_TRUE(lowering_error(block_module(types, std430_offsets(types), 0, 1)).message
                    .ends_with("its runtime array's Offset 80020 is not a multiple of 16, so it could start inside the last "
                               "chunk's padding"));

    types.assign(20000, "%float");
    const std::string group_error = lowering_error(block_module(types, std430_offsets(types), 0, 1,
                                                               "OpDecorate %group NonWritable\n%group = OpDecorationGroup\n"
                                                               "OpGroupMemberDecorate %group %Big 7\n"))
                                        .message;
    EXPECT_TRUE(group_error.starts_with("OpGroupMemberDecorate on struct %")) << group_error;
    EXPECT_TRUE(group_error.ends_with(", which must be split, is not supported")) << group_error;
}

// A Private uint table of `length` elements (7, 9, 7, 9, ...) with `decorations`, read at a dynamic
// signed index (results[0] as an int), at constant index 65536, by OpCompositeExtract and by
// OpSpecConstantOp CompositeExtract; the sum goes to results[0].
std::vector<uint32_t> table_module(uint32_t length, const std::string& decorations = {}) {
    std::string constituents;
    for (uint32_t i = 0; i < length; ++i) constituents += i % 2 ? " %k9" : " %k7";
    constexpr size_t kHeadConstituents = 65532;  // the rest goes to a continuation
    constituents.insert(kHeadConstituents * std::string_view(" %k7").size(), "\nOpConstantCompositeContinuedINTEL");
    std::string text(kLongCompositesHeader);
    text += R"(OpEntryPoint GLCompute %main "main" %tab %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Out Block
OpMemberDecorate %Out 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
)" + decorations + std::format(R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%n = OpConstant %uint {}
%Table = OpTypeArray %uint %n
%k7 = OpConstant %uint 7
%k9 = OpConstant %uint 9
%table = OpConstantComposite %Table{}
%late = OpSpecConstantOp %uint CompositeExtract %table 65535
%ptable = OpTypePointer Private %Table
%puint = OpTypePointer Private %uint
%tab = OpVariable %ptable Private %table
%rt = OpTypeRuntimeArray %uint
%Out = OpTypeStruct %rt
%pout = OpTypePointer StorageBuffer %Out
%out = OpVariable %pout StorageBuffer
%psb = OpTypePointer StorageBuffer %uint
%int_0 = OpConstant %int 0
%int_65536 = OpConstant %int 65536
%main = OpFunction %void None %fn
%entry = OpLabel
%p0 = OpAccessChain %psb %out %int_0 %int_0
%raw = OpLoad %uint %p0
%index = OpBitcast %int %raw
%pd = OpAccessChain %puint %tab %index
%dynamic = OpLoad %uint %pd
%pc = OpAccessChain %puint %tab %int_65536
%constant = OpLoad %uint %pc
%extracted = OpCompositeExtract %uint %table 65534
%s1 = OpIAdd %uint %dynamic %constant
%s2 = OpIAdd %uint %s1 %extracted
%s3 = OpIAdd %uint %s2 %late
OpStore %p0 %s3
OpReturn
OpFunctionEnd
)",
                                       length, constituents);
    return assemble(text);
}

// 65,537 is prime: no even split exists, so the last chunk is padded (the array has no explicit layout,
// so its size is nobody else's). A signed dynamic index divides as signed.
TEST(LongCompositesSplit, ArraysSplitEvenlyOrPadTheLastChunk) {
    const auto padded = lower_valid(table_module(65537));
    ASSERT_NE(padded, nullptr);
    EXPECT_EQ(count_opcode(*padded, spv::OpSDiv), 1u);
    EXPECT_EQ(count_opcode(*padded, spv::OpSRem), 1u);
    EXPECT_EQ(count_opcode(*padded, spv::OpConstantNull), 1u);

    const auto even = lower_valid(table_module(65540));  // two chunks of 32,770
    ASSERT_NE(even, nullptr);
    EXPECT_EQ(count_opcode(*even, spv::OpConstantNull), 0u);

    const std::string error = lowering_error(table_module(65537, "OpDecorate %Table ArrayStride 4\n")).message;
    EXPECT_TRUE(error.starts_with("cannot split array %")) << error;
    EXPECT_TRUE(error.ends_with(" of 65537 elements with an ArrayStride: no chunk length of at most 65532 divides it, "
                                "and padding would change its size"))
        << error;
}

// A Block of 20,000 floats is chunked at 16-byte boundaries (16,380 members), a struct without layout
// at 16,383: OpCopyLogical between them would need them nested alike.
TEST(LongCompositesSplit, OpCopyLogicalBetweenTypesSplitDifferentlyIsReported) {
    std::string text(kLongCompositesHeader);
    text += "OpEntryPoint GLCompute %main \"main\" %buf\nOpExecutionMode %main LocalSize 1 1 1\n"
            "OpDecorate %Big Block\nOpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\n";
    for (uint32_t m = 0; m < 20000; ++m) text += std::format("OpMemberDecorate %Big {} Offset {}\n", m, 4 * m);
    text += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n";
    text += "%Big = OpTypeStruct" + repeated("%float", 20000) + "\n%Twin = OpTypeStruct" + repeated("%float", 20000);
    text += R"(
%ptr = OpTypePointer StorageBuffer %Big
%buf = OpVariable %ptr StorageBuffer
%ptwin = OpTypePointer Function %Twin
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptwin Function
%whole = OpLoad %Big %buf
%copy = OpCopyLogical %Twin %whole
OpStore %local %copy
OpReturn
OpFunctionEnd
)";
    EXPECT_EQ(lowering_error(assemble(text)).message,
              "OpCopyLogical between types that must be split differently is not supported");
}

// Types nested alike, each level a struct of two of the one below, 40 deep (2^40 paths): the
// comparison behind OpCopyLogical meets each pair of types once (it took hours), and finds them alike.
TEST(LongCompositesSplit, OpCopyLogicalComparesSharedTypesOnce) {
    std::string text(kLongCompositesHeader);
    text += "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n";
    text += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n";
    text += "%Big = OpTypeStruct" + repeated("%float", 20000) + "\n%A0 = OpTypeStruct %float %float\n%B0 = OpTypeStruct %float %float\n";
    for (int k = 1; k < 40; ++k) {
        text += std::format("%A{0} = OpTypeStruct %A{1} %A{1}\n%B{0} = OpTypeStruct %B{1} %B{1}\n", k, k - 1);
    }
    text += R"(
%pbig = OpTypePointer Private %Big
%big = OpVariable %pbig Private
%pa = OpTypePointer Function %A39
%pb = OpTypePointer Function %B39
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %pa Function
%b = OpVariable %pb Function
%whole = OpLoad %A39 %a
%copy = OpCopyLogical %B39 %whole
OpStore %b %copy
%all = OpLoad %Big %big
OpStore %big %all
OpReturn
OpFunctionEnd
)";
    // Not lower_valid: spirv-val itself takes exponential time on these types.
    const Result result = lower(assemble(text), emulating_long_composites(), {});
    EXPECT_TRUE(result.ok) << messages(result);
}

// A split struct whose first member nests arrays 400,000 deep: the alignment bound of its members
// stops at ir::kMostNesting levels with the largest alignment there is (it recursed per level and
// overflowed the stack).
TEST(LongCompositesSplit, AlignmentOfMembersNestedPastTheStackIsBounded) {
    constexpr int kLevels = 400000;
    constexpr uint32_t kMembers = 16384;
    std::string text(kLongCompositesHeader);
    text += "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n";
    for (uint32_t m = 0; m < kMembers; ++m) text += std::format("OpMemberDecorate %S {} Offset {}\n", m, m == 0 ? 0 : 0x10000000 + 16 * m);
    text += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n";
    text += "%a0 = OpTypeArray %uint %one\n";
    for (int k = 1; k <= kLevels; ++k) text += std::format("%a{} = OpTypeArray %a{} %one\n", k, k - 1);
    text += std::format("%S = OpTypeStruct %a{}", kLevels) + repeated("%uint", kMembers - 1) + "\n";
    text += "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    const Result result = lower(assemble(text), emulating_long_composites(), {});
    EXPECT_TRUE(result.ok) << messages(result);
}

// Replicates of a split array (a constant and a construct) stay replicates, chunk by chunk: spelled
// out, each took the array's 70,000 words (3,000 of them made an 840 MB module of a 328 KB one).
TEST(LongCompositesSplit, ReplicatesOfASplitArrayStayReplicates) {
    std::string text = R"(OpCapability Shader
OpCapability LongCompositesINTEL
OpCapability ReplicatedCompositesEXT
OpExtension "SPV_INTEL_long_composites"
OpExtension "SPV_EXT_replicated_composites"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %v
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%c7 = OpConstant %uint 7
%len = OpConstant %uint 70000
%arr = OpTypeArray %uint %len
)";
    text += "%big = OpConstantComposite %arr" + repeated("%c0", 60000) + "\nOpConstantCompositeContinuedINTEL" + repeated("%c0", 10000);
    text += R"(
%rep = OpConstantCompositeReplicateEXT %arr %c7
%parr = OpTypePointer Private %arr
%v = OpVariable %parr Private
%main = OpFunction %void None %fn
%entry = OpLabel
%built = OpCompositeConstructReplicateEXT %arr %c7
OpStore %v %big
OpStore %v %rep
OpStore %v %built
OpReturn
OpFunctionEnd
)";
    const std::vector<uint32_t> words = assemble(text);
    const Result result = lower(words, emulating_long_composites(), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_LT(result.words.size(), words.size() + 1000);
    Diagnostics diagnostics;
    const auto module = ir::parse(result.words, diagnostics);
    ASSERT_NE(module, nullptr);
    // Each replicate a composite of chunks, every chunk a replicate of %c7 (the array splits in two).
    EXPECT_EQ(count_opcode(*module, spv::OpConstantCompositeReplicateEXT), 2u);
    EXPECT_EQ(count_opcode(*module, spv::OpCompositeConstructReplicateEXT), 2u);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
