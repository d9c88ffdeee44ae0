// lower(), scan_emulated_capabilities(), the pass runner, format(), validate() and disassemble().
#include <gtest/gtest.h>

#include <optional>

#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "pass_runner.h"
#include "passes/pass.h"
#include "spirv_corpus.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan10 = 1u << 22;
constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);
constexpr EmulatedSet kEverySet = 0x3F;

// The OpCapability CooperativeMatrixKHR, found without the library's help.
std::optional<size_t> coopmat_capability_offset(const std::vector<uint32_t>& words) {
    for (size_t n = 0;; ++n) {
        const auto offset = find_opcode(words, spv::OpCapability, n);
        if (!offset || words[*offset + 1] == spv::CapabilityCooperativeMatrixKHR) return offset;
    }
}

bool uses_coopmat(const CorpusModule& module) { return coopmat_capability_offset(module.words).has_value(); }

Target emulating(EmulatedSet sets) {
    Target target;
    target.emulate = sets;
    return target;
}

TEST(Lower, ModulesWithoutEmulatedCapabilitiesPassThroughUnchanged) {
    ASSERT_FALSE(corpus().empty());
    for (const CorpusModule& module : corpus()) {
        SCOPED_TRACE(module.name);
        // Nothing emulated; every set the module does not use emulated.
        for (EmulatedSet emulate : {EmulatedSet{0}, kEverySet & ~scan_emulated_capabilities(module.words)}) {
            const Result result = lower(module.words, emulating(emulate), {});
            EXPECT_TRUE(result.ok) << (result.diagnostics.empty() ? "" : format(result.diagnostics[0], module.name));
            EXPECT_FALSE(result.changed);
            EXPECT_EQ(result.words, module.words);
            EXPECT_TRUE(result.diagnostics.empty());
        }
    }
}

// A set whose pass does not exist yet (each capability issue adds its own) is reported, not guessed.
TEST(PassRunner, AnEmulatedSetWithoutItsPassIsAnError) {
    static constexpr uint32_t kCapabilities[] = {spv::CapabilityCooperativeMatrixKHR};
    static constexpr std::string_view kExtensions[] = {"SPV_KHR_cooperative_matrix"};
    const EmulatedSetInfo sets[] = {
        {Emulated::KhrCooperativeMatrix, "SPV_KHR_cooperative_matrix", kCapabilities, kExtensions, nullptr}};
    for (const CorpusModule& corpus_module : corpus()) {
        if (!uses_coopmat(corpus_module)) continue;
        SCOPED_TRACE(corpus_module.name);
        Diagnostics diagnostics;
        const auto module = ir::parse(corpus_module.words, diagnostics);
        ASSERT_NE(module, nullptr);
        EXPECT_FALSE(run_emulation_passes(*module, emulating(bit(Emulated::KhrCooperativeMatrix)), {}, sets, diagnostics));
        ASSERT_EQ(diagnostics.list().size(), 1u);
        const Diagnostic& diagnostic = diagnostics.list()[0];
        EXPECT_EQ(diagnostic.severity, Diagnostic::Severity::Error);
        EXPECT_EQ(diagnostic.message,
                  "SPV_KHR_cooperative_matrix is not implemented by this build "
                  "(the module declares capability CooperativeMatrixKHR)");
        EXPECT_EQ(diagnostic.instruction, "OpCapability CooperativeMatrixKHR");
        EXPECT_EQ(diagnostic.word_offset, coopmat_capability_offset(corpus_module.words).value_or(0));
    }
}

TEST(Lower, MalformedModulesGiveADiagnostic) {
    const Result result = lower(std::vector<uint32_t>{ir::kMagicNumber, 0x10000}, emulating(kEverySet), {});
    EXPECT_FALSE(result.ok);
    ASSERT_EQ(result.diagnostics.size(), 1u);
    EXPECT_NE(result.diagnostics[0].message.find("truncated"), std::string::npos);
}

TEST(Lower, ScanFindsCooperativeMatricesInTheCorpus) {
    size_t found = 0;
    for (const CorpusModule& module : corpus()) {
        SCOPED_TRACE(module.name);
        const EmulatedSet scanned = scan_emulated_capabilities(module.words);
        EXPECT_EQ((scanned & bit(Emulated::KhrCooperativeMatrix)) != 0, uses_coopmat(module));
        found += uses_coopmat(module);
    }
    EXPECT_GT(found, 0u);
}

std::vector<uint32_t> with_word(std::vector<uint32_t> words, size_t index, uint32_t value) {
    words.at(index) = value;
    return words;
}

TEST(Lower, ScanReadsCapabilitiesAndExtensions) {
    const auto words = assemble(R"(
OpCapability Shader
OpCapability TileImageColorReadAccessEXT
OpCapability CooperativeMatrixReductionsNV
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_INTEL_long_composites"
OpMemoryModel Logical GLSL450
)");
    EXPECT_EQ(scan_emulated_capabilities(words), bit(Emulated::ExtShaderTileImage) |
                                                     bit(Emulated::NvCooperativeMatrix2) | bit(Emulated::ArmTensors) |
                                                     bit(Emulated::IntelLongComposites));
    // Malformed modules report nothing: lower() will say why.
    EXPECT_EQ(scan_emulated_capabilities({}), 0u);
    EXPECT_EQ(scan_emulated_capabilities(std::span(words).first(6)), 0u);
    EXPECT_EQ(scan_emulated_capabilities(with_word(words, 5, spv::OpCapability)), 0u);  // word count 0
    EXPECT_EQ(scan_emulated_capabilities(with_word(words, 0, 0x03022307)), 0u);       // byte-swapped
}

// A stand-in pass: drops the set's declarations (a real pass would rewrite the instructions too).
class DropDeclarations final : public Pass {
  public:
    std::string_view name() const override { return "drop declarations"; }
    bool run(PassContext& context) override {
        std::erase_if(context.module.capabilities,
                      [](const auto& i) { return i->word(1) == spv::CapabilityCooperativeMatrixKHR; });
        std::erase_if(context.module.extensions, [](const auto& i) {
            return ir::decode_literal_string(i->operand_words()) == "SPV_KHR_cooperative_matrix";
        });
        return true;
    }
};

class DoNothing final : public Pass {
  public:
    std::string_view name() const override { return "do nothing"; }
    bool run(PassContext&) override { return false; }
};

template <typename P>
std::unique_ptr<Pass> make() {
    return std::make_unique<P>();
}

constexpr uint32_t kCoopmatCapabilities[] = {spv::CapabilityCooperativeMatrixKHR};
constexpr std::string_view kCoopmatExtensions[] = {"SPV_KHR_cooperative_matrix"};

std::unique_ptr<ir::Module> coopmat_module() {
    for (const CorpusModule& module : corpus()) {
        if (!uses_coopmat(module)) continue;
        Diagnostics diagnostics;
        return ir::parse(module.words, diagnostics);
    }
    ADD_FAILURE() << "no coopmat module in the corpus";
    return nullptr;
}

TEST(PassRunner, RunsTheDeclaredSetsPasses) {
    const EmulatedSetInfo sets[] = {{Emulated::KhrCooperativeMatrix, "SPV_KHR_cooperative_matrix", kCoopmatCapabilities,
                                     kCoopmatExtensions, &make<DropDeclarations>}};
    auto module = coopmat_module();
    ASSERT_NE(module, nullptr);
    ASSERT_EQ(declared_sets(*module, sets).size(), 1u);
    Diagnostics diagnostics;
    EXPECT_TRUE(run_emulation_passes(*module, emulating(bit(Emulated::KhrCooperativeMatrix)), {}, sets, diagnostics));
    EXPECT_TRUE(diagnostics.list().empty());
    EXPECT_TRUE(declared_sets(*module, sets).empty());

    // Not emulated: the pass does not run.
    module = coopmat_module();
    EXPECT_FALSE(run_emulation_passes(*module, emulating(0), {}, sets, diagnostics));
    EXPECT_EQ(declared_sets(*module, sets).size(), 1u);
}

TEST(PassRunner, ASetStillDeclaredAfterItsPassIsAnError) {
    const EmulatedSetInfo sets[] = {{Emulated::KhrCooperativeMatrix, "SPV_KHR_cooperative_matrix", kCoopmatCapabilities,
                                     kCoopmatExtensions, &make<DoNothing>}};
    auto module = coopmat_module();
    ASSERT_NE(module, nullptr);
    Diagnostics diagnostics;
    EXPECT_FALSE(run_emulation_passes(*module, emulating(bit(Emulated::KhrCooperativeMatrix)), {}, sets, diagnostics));
    ASSERT_EQ(diagnostics.list().size(), 1u);
    EXPECT_EQ(diagnostics.list()[0].message, "SPV_KHR_cooperative_matrix is still declared after its pass ran");
}

TEST(Format, OneLinePerDiagnostic) {
    Diagnostic diagnostic;
    diagnostic.message = "something is wrong";
    EXPECT_EQ(format(diagnostic, "module 0x1234"), "module 0x1234: error: something is wrong");
    diagnostic.severity = Diagnostic::Severity::Warning;
    diagnostic.word_offset = 42;
    diagnostic.instruction = "%5 = OpTypeInt 32 0";
    EXPECT_EQ(format(diagnostic, "shader"), "shader: warning: something is wrong at word 42: %5 = OpTypeInt 32 0");
    diagnostic.severity = Diagnostic::Severity::Info;
    EXPECT_EQ(format(diagnostic, ""), "info: something is wrong at word 42: %5 = OpTypeInt 32 0");
}

TEST(Validate, AcceptsTheCorpusAndRejectsBrokenModules) {
    for (const CorpusModule& module : corpus()) {
        // SPIRV-Tools 2026.4 rejects some valid cooperative-matrix code (OpSelect of matrices); what
        // the layer validates is the lowered output, which CooperativeMatrixPass tests check.
        if (uses_coopmat(module)) continue;
        SCOPED_TRACE(module.name);
        EXPECT_EQ(validate(module.words, kVulkan13), "");
    }
    const auto words = assemble(kMinimalCompute);  // SPIR-V 1.6
    EXPECT_EQ(validate(words, kVulkan13), "");
    auto broken = words;
    broken.resize(broken.size() - 1);  // no OpFunctionEnd
    EXPECT_NE(validate(broken, kVulkan13), "");
    // The environment follows the Vulkan version: SPIR-V 1.6 is too new for Vulkan 1.0, 1.0 is fine.
    EXPECT_NE(validate(words, kVulkan10).find("Invalid SPIR-V binary version 1.6"), std::string::npos);
    EXPECT_EQ(validate(with_word(words, 1, 0x00010000), kVulkan10), "");
}

TEST(Disassemble, FriendlyNames) {
    const std::string text = disassemble(assemble(kMinimalCompute));
    EXPECT_NE(text.find("OpCapability Shader"), std::string::npos) << text;
    EXPECT_NE(text.find("%main = OpFunction %void None"), std::string::npos) << text;
    EXPECT_NE(disassemble(std::vector<uint32_t>{1, 2, 3}).find("spirv-dis failed"), std::string::npos);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
