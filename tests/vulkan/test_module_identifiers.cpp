// VK_EXT_shader_module_identifier on a device where the layer keeps cooperative-matrix modules (the
// plain driver; the native one with force_emulation). No lavapipe has the extension, so the spy layer
// plays a driver that does (tests/spy_layer/spy_module_identifiers.h): identifiers are a hash of the
// words the driver received, and a pipeline from an identifier alone is created only from its cache.
// The driver holds one placeholder for every kept module, so its identifier cannot tell them apart:
// kept modules get the layer's own, and every other module keeps the driver's.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "gemm_shader_features.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kCoopmat = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
constexpr const char* kIdentifiers = VK_EXT_SHADER_MODULE_IDENTIFIER_EXTENSION_NAME;
constexpr std::string_view kDriverTag = "spy:drv:";  // how the spy's identifiers begin

class IdentifierDevice {
  public:
    // With VK_KHR_cooperative_matrix enabled (and emulated) when `coopmat`.
    explicit IdentifierDevice(bool coopmat = true)
        : force_("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", coopmat && driver_name() == "native" ? kCoopmat : nullptr),
          plays_("VKPOLYFILL_SPY_MODULE_IDENTIFIERS", "1"),
          spy_env_("VKPOLYFILL_SPY_DIR", spy_.path().c_str()),
          features_(coopmat),
          context_(options(coopmat)) {}

    Context& context() { return context_; }
    const VolkDeviceTable& vk() const { return context_.vk; }

    std::string identifier(VkShaderModule module) const {
        VkShaderModuleIdentifierEXT out = vku::InitStructHelper();
        vk().vkGetShaderModuleIdentifierEXT(context_.device, module, &out);
        return bytes(out);
    }
    std::string identifier(std::span<const uint32_t> words) const {
        VkShaderModuleCreateInfo info = vku::InitStructHelper();
        info.codeSize = words.size_bytes();
        info.pCode = words.data();
        VkShaderModuleIdentifierEXT out = vku::InitStructHelper();
        vk().vkGetShaderModuleCreateInfoIdentifierEXT(context_.device, &info, &out);
        return bytes(out);
    }
    // The words of the modules the driver received, in order.
    std::vector<std::vector<uint32_t>> driver_modules() const {
        std::vector<std::vector<uint32_t>> words;
        for (const auto& file : spy_.files_ending_with("-module.spv")) words.push_back(read_words(file));
        return words;
    }

    // A pipeline like `like`'s, from `identifier` alone, as the extension requires
    // (VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT); destroyed at once if created.
    VkResult create_from(const std::string& identifier, const ComputePipeline& like, VkPipeline* pipeline) {
        VkPipelineShaderStageModuleIdentifierCreateInfoEXT by_identifier = vku::InitStructHelper();
        by_identifier.identifierSize = static_cast<uint32_t>(identifier.size());
        by_identifier.pIdentifier = reinterpret_cast<const uint8_t*>(identifier.data());
        VkComputePipelineCreateInfo info = vku::InitStructHelper();
        info.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
        info.stage = vku::InitStructHelper(&by_identifier);
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.pName = "main";
        info.layout = like.layout;
        *pipeline = reinterpret_cast<VkPipeline>(~uintptr_t{0});  // visibly unwritten
        const VkResult result = vk().vkCreateComputePipelines(context_.device, VK_NULL_HANDLE, 1, &info, nullptr, pipeline);
        if (result == VK_SUCCESS) vk().vkDestroyPipeline(context_.device, *pipeline, nullptr);
        return result;
    }

  private:
    ContextOptions options(bool coopmat) {
        ContextOptions o{.spy = true, .device_extensions = {kIdentifiers}, .device_features_next = &features_.features13};
        if (coopmat) o.device_extensions.push_back(kCoopmat);
        return o;
    }
    static std::string bytes(const VkShaderModuleIdentifierEXT& out) {
        EXPECT_GT(out.identifierSize, 0u);
        EXPECT_LE(out.identifierSize, VK_MAX_SHADER_MODULE_IDENTIFIER_SIZE_EXT);
        return std::string(reinterpret_cast<const char*>(out.identifier), std::min(out.identifierSize, VK_MAX_SHADER_MODULE_IDENTIFIER_SIZE_EXT));
    }

    ScopedEnv force_;
    ScopedEnv plays_;
    TempDir spy_;
    ScopedEnv spy_env_;
    GemmShaderFeatures features_;
    Context context_;
};

TEST(ModuleIdentifiers, KeptModulesAreNamedApartAndOtherModulesByTheDriver) {
    IdentifierDevice device;
    const std::vector<uint32_t> gemm = read_shader("tests/coopmat_khr.comp");
    const std::vector<uint32_t> composite = read_shader("tests/coopmat/composite_f32.comp");
    const std::vector<uint32_t> plain = read_shader("tests/vector_add.comp");
    const ComputePipeline& gemm_pipeline = device.context().create_compute_pipeline(gemm, 3, 8);
    const ComputePipeline& composite_pipeline = device.context().create_compute_pipeline(composite, 3, 0);
    const ComputePipeline& plain_pipeline = device.context().create_compute_pipeline(plain, 3, 8);

    // What the driver received for the kept modules (one placeholder for both; the lowered code comes
    // with their pipelines) and its identifier.
    const auto received = device.driver_modules();
    ASSERT_FALSE(received.empty());
    ASSERT_EQ(std::ranges::count(received, received.front()), 2) << "both cooperative-matrix modules should reach the driver as its placeholder";
    ASSERT_EQ(received.back(), plain);
    const std::string placeholder = device.identifier(received.front());
    ASSERT_TRUE(placeholder.starts_with(kDriverTag));

    const std::string gemm_id = device.identifier(gemm_pipeline.module);
    const std::string composite_id = device.identifier(composite_pipeline.module);
    EXPECT_NE(gemm_id, composite_id) << "two kept modules share an identifier";
    EXPECT_NE(gemm_id, placeholder);
    EXPECT_FALSE(gemm_id.starts_with(kDriverTag));
    // The same code names the same module, by handle or by create info (the extension's promise).
    EXPECT_EQ(device.identifier(gemm), gemm_id);
    EXPECT_EQ(device.identifier(composite), composite_id);

    // A module the layer passes through keeps the driver's identifier, by handle and by create info.
    const std::string plain_id = device.identifier(plain_pipeline.module);
    EXPECT_TRUE(plain_id.starts_with(kDriverTag));
    EXPECT_EQ(device.identifier(plain), plain_id);

    // Pipelines from identifiers alone: the driver's cache holds the pass-through module's code; a
    // kept module's identifier is not the driver's, so it finds nothing and says so.
    VkPipeline pipeline;
    EXPECT_EQ(device.create_from(plain_id, plain_pipeline, &pipeline), VK_SUCCESS);
    EXPECT_EQ(device.create_from(gemm_id, gemm_pipeline, &pipeline), VK_PIPELINE_COMPILE_REQUIRED);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
}

// Where the application enables no emulated extension the layer keeps nothing, and a cooperative-matrix
// module's identifier is the driver's (the native driver runs it; the plain one would fail its pipeline).
TEST(ModuleIdentifiers, AreTheDriversWhereNothingIsEmulated) {
    IdentifierDevice device(false);
    const std::vector<uint32_t> gemm = read_shader("tests/coopmat_khr.comp");
    VkShaderModuleCreateInfo info = vku::InitStructHelper();
    info.codeSize = gemm.size() * sizeof(uint32_t);
    info.pCode = gemm.data();
    VkShaderModule module;
    check(device.vk().vkCreateShaderModule(device.context().device, &info, nullptr, &module), "vkCreateShaderModule");
    const std::string id = device.identifier(module);
    device.vk().vkDestroyShaderModule(device.context().device, module, nullptr);
    EXPECT_EQ(device.driver_modules(), std::vector<std::vector<uint32_t>>{gemm});
    EXPECT_TRUE(id.starts_with(kDriverTag));
    EXPECT_EQ(device.identifier(gemm), id);
}

}  // namespace
}  // namespace vkpolyfill::test
