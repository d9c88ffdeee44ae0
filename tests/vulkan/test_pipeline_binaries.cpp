// VK_KHR_pipeline_binary on a device where the layer keeps cooperative-matrix modules (the plain
// driver; the native one with force_emulation). No lavapipe has the extension, so the spy layer plays
// a driver that does (tests/spy_layer/spy_pipeline_binaries.h): a key is a hash of the stage's words,
// a binary holds them, and the internal cache holds what was compiled. The driver holds one
// placeholder for every kept module, so keys of the create infos the application holds would all be
// the placeholder's: the layer asks the driver about the create info it compiles instead, so a key
// names the lowered code, matches the binary of the pipeline, and finds it in the driver's cache.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "gemm_shader_features.h"
#include "gemm_tile.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kCoopmat = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;

using Key = std::string;  // a VkPipelineBinaryKeyKHR's bytes

class BinaryDevice {
  public:
    BinaryDevice()
        : force_("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", driver_name() == "native" ? kCoopmat : nullptr),
          plays_("VKPOLYFILL_SPY_PIPELINE_BINARIES", "1"),
          spy_env_("VKPOLYFILL_SPY_DIR", spy_.path().c_str()),
          features_(true),
          context_(options()) {}
    ~BinaryDevice() {
        for (VkPipeline pipeline : pipelines_) vk().vkDestroyPipeline(context_.device, pipeline, nullptr);
        for (VkPipelineBinaryKHR binary : binaries_) vk().vkDestroyPipelineBinaryKHR(context_.device, binary, nullptr);
    }

    Context& context() { return context_; }
    const VolkDeviceTable& vk() const { return context_.vk; }

    // The create info of a compute pipeline of `module` and `layout`, whose data may be captured, or
    // with `next` chained instead.
    VkComputePipelineCreateInfo info(VkShaderModule module, VkPipelineLayout layout, const void* next = nullptr) const {
        VkComputePipelineCreateInfo info = vku::InitStructHelper(const_cast<void*>(next ? next : &capture_));
        info.stage = vku::InitStructHelper();
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout;
        return info;
    }
    Key key(const VkComputePipelineCreateInfo& compute) const {
        const VkPipelineCreateInfoKHR info = vku::InitStructHelper(const_cast<VkComputePipelineCreateInfo*>(&compute));
        VkPipelineBinaryKeyKHR key = vku::InitStructHelper();
        check(vk().vkGetPipelineKeyKHR(context_.device, &info, &key), "vkGetPipelineKeyKHR");
        return bytes(key);
    }
    VkPipeline create(const VkComputePipelineCreateInfo& info) {
        VkPipeline pipeline = VK_NULL_HANDLE;
        check(vk().vkCreateComputePipelines(context_.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateComputePipelines");
        pipelines_.push_back(pipeline);
        return pipeline;
    }
    // vkCreatePipelineBinariesKHR, one binary expected where it succeeds.
    VkResult binary(const VkPipelineBinaryCreateInfoKHR& info, VkPipelineBinaryKHR& binary) {
        VkPipelineBinaryHandlesInfoKHR handles = vku::InitStructHelper();
        handles.pipelineBinaryCount = 1;
        handles.pPipelineBinaries = &binary;
        binary = VK_NULL_HANDLE;
        const VkResult result = vk().vkCreatePipelineBinariesKHR(context_.device, &info, nullptr, &handles);
        if (result == VK_SUCCESS) {
            EXPECT_EQ(handles.pipelineBinaryCount, 1u);
            binaries_.push_back(binary);
        }
        return result;
    }
    VkPipelineBinaryKHR binary_of(VkPipeline pipeline) {
        VkPipelineBinaryCreateInfoKHR info = vku::InitStructHelper();
        info.pipeline = pipeline;
        VkPipelineBinaryKHR out;
        check(binary(info, out), "vkCreatePipelineBinariesKHR from a pipeline");
        return out;
    }
    // A binary's key and data.
    std::pair<Key, std::vector<uint8_t>> contents(VkPipelineBinaryKHR binary) const {
        VkPipelineBinaryDataInfoKHR info = vku::InitStructHelper();
        info.pipelineBinary = binary;
        VkPipelineBinaryKeyKHR key = vku::InitStructHelper();
        size_t size = 0;
        check(vk().vkGetPipelineBinaryDataKHR(context_.device, &info, &key, &size, nullptr), "vkGetPipelineBinaryDataKHR");
        std::vector<uint8_t> data(size);
        check(vk().vkGetPipelineBinaryDataKHR(context_.device, &info, &key, &size, data.data()), "vkGetPipelineBinaryDataKHR");
        return {bytes(key), data};
    }
    // The words of the modules the driver received, in order.
    std::vector<std::vector<uint32_t>> driver_modules() const {
        std::vector<std::vector<uint32_t>> words;
        for (const auto& file : spy_.files_ending_with("-module.spv")) words.push_back(read_words(file));
        return words;
    }

  private:
    ContextOptions options() {
        maintenance5_.maintenance5 = VK_TRUE;
        features_.coopmat.pNext = &maintenance5_;
        return {.spy = true,
                .device_extensions = {kCoopmat, VK_KHR_MAINTENANCE_5_EXTENSION_NAME, VK_KHR_PIPELINE_BINARY_EXTENSION_NAME},
                .device_features_next = &features_.features13};
    }
    static Key bytes(const VkPipelineBinaryKeyKHR& key) {
        EXPECT_GT(key.keySize, 0u);
        EXPECT_LE(key.keySize, VK_MAX_PIPELINE_BINARY_KEY_SIZE_KHR);
        return Key(reinterpret_cast<const char*>(key.key), std::min(key.keySize, VK_MAX_PIPELINE_BINARY_KEY_SIZE_KHR));
    }

    ScopedEnv force_;
    ScopedEnv plays_;
    TempDir spy_;
    ScopedEnv spy_env_;
    VkPhysicalDeviceMaintenance5Features maintenance5_ = vku::InitStructHelper();
    GemmShaderFeatures features_;
    Context context_;
    VkPipelineCreateFlags2CreateInfo capture_ = [] {
        VkPipelineCreateFlags2CreateInfo flags = vku::InitStructHelper();
        flags.flags = VK_PIPELINE_CREATE_2_CAPTURE_DATA_BIT_KHR;
        return flags;
    }();
    std::vector<VkPipeline> pipelines_;
    std::vector<VkPipelineBinaryKHR> binaries_;
};

TEST(PipelineBinaries, KeysNameWhatTheDriverCompilesAndBinariesRoundTrip) {
    BinaryDevice device;
    const ComputePipeline& gemm = device.context().create_compute_pipeline(read_shader("tests/coopmat_khr.comp"), kGemmTileBuffers,
                                                                           kGemmTilePushBytes);
    const ComputePipeline& composite = device.context().create_compute_pipeline(read_shader("tests/coopmat/composite_f32.comp"), 3, 0);
    const ComputePipeline& plain = device.context().create_compute_pipeline(read_shader("tests/vector_add.comp"), 3, 8);
    // What the driver received for the kept modules: one placeholder for both (the lowered code came
    // with their pipelines).
    const auto received = device.driver_modules();
    ASSERT_FALSE(received.empty());
    ASSERT_EQ(std::ranges::count(received, received.front()), 2) << "both cooperative-matrix modules should reach the driver as its placeholder";

    // What the driver would key every kept module by, were it asked about the application's create info.
    VkShaderModuleCreateInfo placeholder_code = vku::InitStructHelper();
    placeholder_code.codeSize = received[0].size() * sizeof(uint32_t);
    placeholder_code.pCode = received[0].data();
    VkComputePipelineCreateInfo placeholder_info = device.info(VK_NULL_HANDLE, gemm.layout);
    placeholder_info.stage.pNext = &placeholder_code;
    const Key placeholder = device.key(placeholder_info);

    const VkComputePipelineCreateInfo gemm_info = device.info(gemm.module, gemm.layout);
    const Key gemm_key = device.key(gemm_info);
    const Key composite_key = device.key(device.info(composite.module, composite.layout));
    EXPECT_NE(gemm_key, composite_key) << "two kept modules share a key";
    EXPECT_NE(gemm_key, placeholder);
    EXPECT_EQ(device.key(gemm_info), gemm_key) << "a key is the same for the same create info";

    // The binary of a pipeline the layer lowered carries that key.
    const auto [binary_key, data] = device.contents(device.binary_of(device.create(gemm_info)));
    EXPECT_EQ(binary_key, gemm_key);
    // A module the layer passes through is keyed by the driver alone, and alike.
    const VkComputePipelineCreateInfo plain_info = device.info(plain.module, plain.layout);
    EXPECT_EQ(device.key(plain_info), device.contents(device.binary_of(device.create(plain_info))).first);

    // The driver's internal cache, probed with the application's create info, finds the lowered code
    // it compiled; a kept module whose pipeline was never created is missing from it.
    VkPipelineBinaryCreateInfoKHR probe = vku::InitStructHelper();
    const VkPipelineCreateInfoKHR gemm_probe = vku::InitStructHelper(const_cast<VkComputePipelineCreateInfo*>(&gemm_info));
    probe.pPipelineCreateInfo = &gemm_probe;
    VkPipelineBinaryKHR cached;
    ASSERT_EQ(device.binary(probe, cached), VK_SUCCESS);
    EXPECT_EQ(device.contents(cached).first, gemm_key);
    const std::vector<uint32_t> unused_words = read_shader("tests/coopmat/composite_f16.comp");
    VkShaderModuleCreateInfo unused_code = vku::InitStructHelper();
    unused_code.codeSize = unused_words.size() * sizeof(uint32_t);
    unused_code.pCode = unused_words.data();
    VkComputePipelineCreateInfo unused_info = device.info(VK_NULL_HANDLE, composite.layout);
    unused_info.stage.pNext = &unused_code;  // maintenance5's inline code, which the layer keeps too
    const VkPipelineCreateInfoKHR unused_probe = vku::InitStructHelper(&unused_info);
    probe.pPipelineCreateInfo = &unused_probe;
    EXPECT_EQ(device.binary(probe, cached), VK_PIPELINE_BINARY_MISSING_KHR);

    // A pipeline from the binary's data (as an application stores it between runs) computes the tile.
    VkPipelineBinaryKeyKHR stored_key = vku::InitStructHelper();
    stored_key.keySize = static_cast<uint32_t>(binary_key.size());
    std::memcpy(stored_key.key, binary_key.data(), binary_key.size());
    VkPipelineBinaryDataKHR stored_data{data.size(), const_cast<uint8_t*>(data.data())};
    const VkPipelineBinaryKeysAndDataKHR stored{1, &stored_key, &stored_data};
    VkPipelineBinaryCreateInfoKHR from_data = vku::InitStructHelper();
    from_data.pKeysAndDataInfo = &stored;
    VkPipelineBinaryKHR restored;
    ASSERT_EQ(device.binary(from_data, restored), VK_SUCCESS);
    VkPipelineBinaryInfoKHR use = vku::InitStructHelper();
    use.binaryCount = 1;
    use.pPipelineBinaries = &restored;
    ComputePipeline from_binary = gemm;
    from_binary.pipeline = device.create(device.info(gemm.module, gemm.layout, &use));
    EXPECT_EQ(gemm_tile_mismatch(device.context(), from_binary), "");
}

}  // namespace
}  // namespace vkpolyfill::test
