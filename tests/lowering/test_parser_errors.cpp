// Malformed input gives one diagnostic naming the problem and where it is, and never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "spirv_corpus.h"
#include "spirv_text.h"

namespace vkpolyfill::lowering::test {
namespace {

struct ParseOutcome {
    bool ok;
    Diagnostic diagnostic;  // the first one, if any
};

ParseOutcome parse(const std::vector<uint32_t>& words) {
    Diagnostics diagnostics;
    const bool ok = ir::parse(words, diagnostics) != nullptr;
    EXPECT_EQ(ok, diagnostics.list().empty());
    EXPECT_LE(diagnostics.list().size(), 1u);
    return {ok, diagnostics.list().empty() ? Diagnostic{} : diagnostics.list()[0]};
}

// Parsing `words` fails with a message containing `needle`, at `offset` when one is given.
void expect_error(const std::vector<uint32_t>& words, std::string_view needle, std::optional<size_t> offset = {}) {
    const ParseOutcome outcome = parse(words);
    ASSERT_FALSE(outcome.ok) << "expected: " << needle;
    EXPECT_NE(outcome.diagnostic.message.find(needle), std::string::npos) << outcome.diagnostic.message;
    if (offset) {
        EXPECT_EQ(outcome.diagnostic.word_offset, *offset) << outcome.diagnostic.message;
    }
}

std::vector<uint32_t> minimal() { return assemble(kMinimalCompute); }

size_t offset_of(const std::vector<uint32_t>& words, uint32_t opcode, size_t n = 0) {
    const auto offset = find_opcode(words, opcode, n);
    EXPECT_TRUE(offset.has_value()) << "no opcode " << opcode;
    return offset.value_or(0);
}

TEST(ParserErrors, TheMinimalModuleParses) { EXPECT_TRUE(parse(minimal()).ok); }

TEST(ParserErrors, Header) {
    expect_error({}, "truncated module", 0);
    expect_error({ir::kMagicNumber, 0x10000, 0, 10}, "truncated module", 0);
    auto words = minimal();
    words[0] = 0x12345678;
    expect_error(words, "bad magic number", 0);
    for (uint32_t& word : words) word = __builtin_bswap32(word);
    words[0] = 0x03022307;
    expect_error(words, "byte-swapped", 0);
    words = minimal();
    words[3] = 0;
    expect_error(words, "id bound 0", 3);
    words[3] = ir::kMaxIdBound + 2;
    expect_error(words, "id bound", 3);
}

TEST(ParserErrors, InstructionSizes) {
    auto words = minimal();
    const size_t type_int = offset_of(words, spv::OpTypeInt);
    words[type_int] &= 0xFFFFu;  // word count 0
    expect_error(words, "word count 0", type_int);

    words = minimal();
    words.back() = (100u << 16) | spv::OpFunctionEnd;
    expect_error(words, "runs past the end", words.size() - 1);

    words = minimal();
    words.resize(words.size() - 1);  // no OpFunctionEnd
    expect_error(words, "ends inside function %1", words.size());
}

TEST(ParserErrors, UnknownOpcode) {
    auto words = minimal();
    const size_t add = offset_of(words, spv::OpIAdd);
    words[add] = (words[add] & 0xFFFF0000u) | 0xFFFEu;
    expect_error(words, "unknown opcode 65534", add);
}

TEST(ParserErrors, OperandsThatDoNotMatchTheGrammar) {
    auto words = minimal();
    const size_t type_int = offset_of(words, spv::OpTypeInt);
    words[type_int] = (3u << 16) | spv::OpTypeInt;  // drops the signedness: "%4 = OpTypeInt 32" then garbage
    expect_error(words, "malformed OpTypeInt: missing LiteralInteger operand", type_int);

    words = minimal();
    const size_t type_void = offset_of(words, spv::OpTypeVoid);
    words.insert(words.begin() + static_cast<ptrdiff_t>(type_void) + 2, 0);
    words[type_void] = (3u << 16) | spv::OpTypeVoid;
    expect_error(words, "1 word(s) beyond", type_void);

    words = minimal();
    const size_t entry = offset_of(words, spv::OpEntryPoint);
    words[entry + 3] = 0x6E69616D;  // "main" loses its nul word: "main" runs into the next word
    words[entry] = (4u << 16) | spv::OpEntryPoint;
    expect_error(words, "string without a terminating nul", entry);

    words = minimal();
    words[offset_of(words, spv::OpCapability) + 1] = 0xFFFFFF;
    expect_error(words, "unknown Capability value 16777215", 5);
}

TEST(ParserErrors, Ids) {
    auto words = minimal();
    const size_t type_int = offset_of(words, spv::OpTypeInt);
    words[type_int + 1] = 0;
    expect_error(words, "id 0 is outside", type_int);
    words[type_int + 1] = words[3];
    expect_error(words, "is outside 1..", type_int);
    words[type_int + 1] = 2;  // %2 is the OpTypeVoid
    expect_error(words, "%2 is defined twice", type_int);
}

// Passes expand vectors into their components: a count SPIR-V does not have is refused (a fuzzed vector
// of 711 million components once made a pass unroll them all).
TEST(ParserErrors, VectorSizes) {
    const std::string head = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeFloat 32\n";
    for (const uint32_t count : {2u, 3u, 4u, 8u, 16u}) {
        EXPECT_TRUE(parse(assemble(head + "%2 = OpTypeVector %1 " + std::to_string(count) + "\n")).ok) << count;
    }
    for (const uint32_t count : {0u, 1u, 5u, 711725903u}) {
        expect_error(assemble(head + "%2 = OpTypeVector %1 " + std::to_string(count) + "\n"),
                     "a vector of " + std::to_string(count) + " components (SPIR-V allows 2, 3, 4, 8 and 16)");
    }
}

TEST(ParserErrors, Layout) {
    const std::string_view header = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
    expect_error(assemble("OpMemoryModel Logical GLSL450\nOpCapability Shader\n"),
                 "OpCapability belongs in the capabilities section, which ends before the memory model section", 8);
    expect_error(assemble("OpCapability Shader\n%1 = OpTypeVoid\n"), "OpTypeVoid comes before OpMemoryModel", 7);
    expect_error(assemble("OpCapability Shader\n"), "no OpMemoryModel", 7);
    expect_error(assemble(std::string(header) + "OpMemoryModel Logical GLSL450\n"), "a second OpMemoryModel");
    expect_error(assemble(std::string(header) + "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 1\n%3 = OpIAdd %1 %2 %2\n"),
                 "OpIAdd must be inside a function");
    expect_error(assemble(std::string(header) + R"(
%1 = OpTypeVoid
%2 = OpTypeFunction %1
%3 = OpFunction %1 None %2
%4 = OpLabel
%5 = OpTypeInt 32 0
OpReturn
OpFunctionEnd
)"),
                 "OpTypeInt cannot appear inside a function");
    expect_error(assemble(std::string(header) + R"(
%1 = OpTypeVoid
%2 = OpTypeFunction %1
%3 = OpFunction %1 None %2
%4 = OpLabel
%5 = OpLabel
OpReturn
OpFunctionEnd
)"),
                 "block %4 ends without a branch or return before this OpLabel");
    expect_error(assemble(std::string(header) + R"(
%1 = OpTypeVoid
%2 = OpTypeFunction %1
%6 = OpTypeInt 32 0
%7 = OpConstant %6 1
%3 = OpFunction %1 None %2
%8 = OpIAdd %6 %7 %7
OpFunctionEnd
)"),
                 "OpIAdd must be inside a block");
    expect_error(assemble(std::string(header) + R"(
%1 = OpTypeVoid
%2 = OpTypeFunction %1
%3 = OpFunction %1 None %2
OpFunctionEnd
%6 = OpTypeInt 32 0
)"),
                 "OpTypeInt belongs in the types, constants and global variables section");
}

TEST(ParserErrors, UsesBeforeDefinitions) {
    const std::string_view header = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
    expect_error(assemble(std::string(header) +
                          "%1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 2\n%3 = OpConstantComposite %2 %4 %4\n%4 = OpConstant %1 0\n"),
                 "%4 is used before its definition at word 23", 18);
    expect_error(assemble(std::string(header) + "%1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 2\n%3 = OpConstantComposite %2 %4 %4\n"),
                 "%4 is used but never defined");
    expect_error(assemble(std::string(header) + "OpName %9 \"nothing\"\n"), "%9 is used but never defined");
}

// A type's members, elements, pointee and parameters are types (passes walk them as such).
TEST(ParserErrors, TypeOperandsThatAreNotTypes) {
    const std::string header = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 4\n";
    expect_error(assemble(header + "%3 = OpTypeStruct %1 %2\n"), "%2 in OpTypeStruct is not a type declared before it");
    expect_error(assemble(header + "%3 = OpTypeArray %2 %2\n"), "%2 in OpTypeArray is not a type declared before it");
    expect_error(assemble(header + "%3 = OpTypePointer Function %2\n"), "%2 in OpTypePointer is not a type declared before it");
    expect_error(assemble(header + "%3 = OpTypeFunction %1 %2\n"), "%2 in OpTypeFunction is not a type declared before it");
    // A later label (which other instructions may name before its definition) is no type either.
    expect_error(assemble(header + "%3 = OpTypeStruct %1 %9\n%4 = OpTypeVoid\n%5 = OpTypeFunction %4\n%6 = OpFunction %4 None %5\n"
                                   "%9 = OpLabel\nOpReturn\nOpFunctionEnd\n"),
                 "%9 in OpTypeStruct is not a type declared before it");
}

// OpExecutionModeId's operands are constants (passes freeze LocalSizeId's).
TEST(ParserErrors, ExecutionModeIdOperandsThatAreNotConstants) {
    const auto module = [](const char* size) {
        return std::string("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %1 \"main\"\n"
                           "OpExecutionModeId %1 LocalSizeId ") +
               size +
               "\n%2 = OpTypeVoid\n%3 = OpTypeFunction %2\n%4 = OpTypeInt 32 0\n%5 = OpConstant %4 1\n"
               "%6 = OpSpecConstant %4 8\n%7 = OpTypeRuntimeArray %4\n%1 = OpFunction %2 None %3\n%8 = OpLabel\nOpReturn\n"
               "OpFunctionEnd\n";
    };
    expect_error(assemble(module("%7 %5 %5")), "operand %7 of OpExecutionModeId is not a constant");
    expect_error(assemble(module("%5 %5 %8")), "operand %8 of OpExecutionModeId is not a constant");
    EXPECT_TRUE(parse(assemble(module("%6 %5 %5"))).ok);
}

// What SPIR-V lets come before its definition: names, decorations, entry points, OpPhi, branch and
// merge targets, a called function, a forward-declared pointer, non-semantic debug info.
TEST(ParserErrors, AllowedForwardReferences) {
    const auto words = assemble(R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_non_semantic_info"
OpExtension "SPV_KHR_physical_storage_buffer"
%50 = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
OpName %20 "later"
OpDecorate %21 ArrayStride 4
OpTypeForwardPointer %22 PhysicalStorageBuffer
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
%5 = OpConstant %4 0
%6 = OpConstant %4 1
%7 = OpTypeBool
%23 = OpTypeStruct %4 %22
%22 = OpTypePointer PhysicalStorageBuffer %23
%21 = OpTypeRuntimeArray %4
%51 = OpExtInst %2 %50 DebugInfoNone
%1 = OpFunction %2 None %3
%8 = OpLabel
%9 = OpFunctionCall %2 %20
OpBranch %10
%10 = OpLabel
%11 = OpPhi %4 %5 %8 %12 %13
OpLoopMerge %14 %13 None
OpBranch %13
%13 = OpLabel
%12 = OpIAdd %4 %11 %6
%15 = OpULessThan %7 %12 %6
OpBranchConditional %15 %10 %14
%14 = OpLabel
OpReturn
OpFunctionEnd
%20 = OpFunction %2 None %3
%30 = OpLabel
OpReturn
OpFunctionEnd
)");
    const ParseOutcome outcome = parse(words);
    EXPECT_TRUE(outcome.ok) << outcome.diagnostic.message;
}

TEST(ParserErrors, ExtendedInstructionSets) {
    const std::string_view header = "OpCapability Shader\n";
    // spirv-as refuses unknown imports: rename a known one of the same length instead.
    auto renamed =
        assemble(std::string(header) + "%1 = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n");
    std::vector<uint32_t> name;
    ir::append_literal_string(name, "Vendor.Thing");
    std::ranges::copy(name, renamed.begin() + 9);
    expect_error(renamed, "unknown extended instruction set \"Vendor.Thing\"", 7);
    auto words = assemble(std::string(header) + R"(
OpExtension "SPV_KHR_non_semantic_info"
%1 = OpExtInstImport "NonSemantic.Vendor.Thing.3"
OpMemoryModel Logical GLSL450
%2 = OpTypeVoid
%3 = OpExtInst %2 %1 42 %2
)");
    EXPECT_TRUE(parse(words).ok);  // unknown non-semantic sets are fine, their operands are ids
    words = assemble(std::string(header) + R"(
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
%2 = OpTypeFloat 32
%3 = OpConstant %2 1
%4 = OpTypeVoid
%5 = OpTypeFunction %4
%6 = OpFunction %4 None %5
%7 = OpLabel
%8 = OpExtInst %2 %1 Sqrt %3
OpReturn
OpFunctionEnd
)");
    EXPECT_TRUE(parse(words).ok);
    words[offset_of(words, spv::OpExtInst) + 4] = 9999;
    expect_error(words, "malformed OpExtInst: instruction 9999 is not in GLSL.std.450",
                 offset_of(words, spv::OpExtInst));
}

TEST(ParserErrors, DiagnosticsCarryTheInstructionText) {
    auto words = minimal();
    const size_t type_int = offset_of(words, spv::OpTypeInt);
    words[type_int + 1] = 2;
    const ParseOutcome outcome = parse(words);
    EXPECT_EQ(outcome.diagnostic.instruction, "%2 = OpTypeInt 32 0");
}

TEST(ParserErrors, InstructionTextOfALongInstructionIsShortened) {
    // A constant array of 40 constituents whose last one is an id past the bound.
    std::string text(kMinimalCompute);
    std::string constituents;
    for (int i = 0; i < 40; ++i) constituents += " %5";
    text.replace(text.find("%1 = OpFunction"), 0,
                 "%20 = OpConstant %4 40\n%21 = OpTypeArray %4 %20\n%22 = OpConstantComposite %21" + constituents + "\n");
    auto words = assemble(text);
    const size_t composite = offset_of(words, spv::OpConstantComposite);
    words[composite + (words[composite] >> 16) - 1] = 9999;
    const ParseOutcome outcome = parse(words);
    ASSERT_FALSE(outcome.ok);
    std::string shown = "%22 = OpConstantComposite %21";
    for (int i = 0; i < 23; ++i) shown += " %5";
    EXPECT_EQ(outcome.diagnostic.instruction, shown + " ... (17 more operands)");
}

// Truncations and random word damage of every corpus module: a result or a diagnostic, never a crash.
TEST(ParserErrors, DamagedCorpusModulesNeverCrash) {
    ASSERT_FALSE(corpus().empty());
    std::mt19937 random(1234);
    for (const CorpusModule& module : corpus()) {
        SCOPED_TRACE(module.name);
        std::set<size_t> boundaries;  // a module cut between instructions may still be whole
        for (size_t offset = 5; offset < module.words.size(); offset += module.words[offset] >> 16) {
            boundaries.insert(offset);
        }
        for (size_t size = 0; size < module.words.size(); size += 1 + size / 16) {
            const std::vector<uint32_t> truncated(module.words.begin(),
                                                  module.words.begin() + static_cast<ptrdiff_t>(size));
            const bool ok = parse(truncated).ok;
            if (!boundaries.contains(size)) {
                EXPECT_FALSE(ok) << "truncated to " << size;
            }
        }
        for (int round = 0; round < 300; ++round) {
            std::vector<uint32_t> damaged = module.words;
            const size_t at = 5 + random() % (damaged.size() - 5);
            switch (round % 4) {
                case 0: damaged[at] = random(); break;
                case 1: damaged[at] ^= 1u << (random() % 32); break;
                case 2: damaged[at] = (damaged[at] & 0xFFFFu) | (random() % 8) << 16; break;
                default: damaged[at] = random() % 64; break;
            }
            parse(damaged);  // either outcome; EXPECTs inside check one diagnostic at most
        }
    }
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
