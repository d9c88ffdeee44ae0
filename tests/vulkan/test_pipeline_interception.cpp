// Shader and pipeline interception: what reaches the driver (seen by the spy layer below the layer)
// on a device where the application enabled VK_KHR_cooperative_matrix and the layer emulates it (the
// plain driver; the native driver with force_emulation). Modules that need nothing reach the driver
// byte-identical; modules that use cooperative matrices are held back until pipeline creation, where
// they are lowered (and cached), or where the pipeline fails with a message naming the shader.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>
#include <vkpolyfill/lowering/validate.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "debug_messages.h"
#include "gemm_shader_features.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr const char* kCoopmat = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
constexpr const char* kLoweringId = "vkpolyfill-lowering";

// Calls `visit(opcode, operands)` for each instruction of a module.
template <typename Visit>
void for_each_instruction(std::span<const uint32_t> words, Visit visit) {
    for (size_t offset = 5; offset < words.size();) {
        const uint32_t count = words[offset] >> 16;
        if (count == 0 || count > words.size() - offset) throw std::runtime_error("malformed module");
        visit(words[offset] & 0xffffu, words.subspan(offset + 1, count - 1));
        offset += count;
    }
}

bool declares_coopmat(std::span<const uint32_t> words) {
    bool found = false;
    for_each_instruction(words, [&](uint32_t opcode, std::span<const uint32_t> operands) {
        found |= opcode == spv::OpCapability && operands[0] == spv::CapabilityCooperativeMatrixKHR;
    });
    return found;
}

std::set<uint32_t> spec_ids(std::span<const uint32_t> words) {
    std::set<uint32_t> ids;
    for_each_instruction(words, [&](uint32_t opcode, std::span<const uint32_t> operands) {
        if (opcode == spv::OpDecorate && operands[1] == spv::DecorationSpecId) ids.insert(operands[2]);
    });
    return ids;
}

// A cooperative-matrix module the layer captures (its capability section is intact) but cannot
// lower: the last instructions are cut off.
std::vector<uint32_t> broken_coopmat_module() {
    std::vector<uint32_t> words = read_shader("tests/coopmat_khr.comp");
    words.resize(words.size() - 3);
    return words;
}

// The features the test shaders need, and those for the maintenance5 and shader-object paths.
struct DeviceFeatures {
    VkPhysicalDeviceShaderObjectFeaturesEXT shader_object = vku::InitStructHelper();
    VkPhysicalDeviceMaintenance5Features maintenance5 = vku::InitStructHelper(&shader_object);
    GemmShaderFeatures gemm;  // chained first: gemm.features13 heads the chain

    explicit DeviceFeatures(bool enable_coopmat) : gemm(enable_coopmat) {
        shader_object.shaderObject = VK_TRUE;
        maintenance5.maintenance5 = VK_TRUE;
        gemm.coopmat.pNext = &maintenance5;
        gemm.features13.dynamicRendering = VK_TRUE;
    }
};

// A device (with the spy layer below the layer and a messenger hearing every layer message), where
// the layer emulates cooperative matrices when `emulated` (on the native driver through
// force_emulation) and the application enables the extension when `coopmat`.
class Device {
  public:
    explicit Device(bool emulated = true, bool coopmat = true)
        : force_("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", emulated && driver_name() == "native" ? kCoopmat : nullptr),
          spy_env_("VKPOLYFILL_SPY_DIR", spy_.path().c_str()),
          features_(coopmat),
          context_(options(coopmat)) {
        const VkDebugUtilsMessengerCreateInfoEXT info = messages_.create_info();
        check(vkCreateDebugUtilsMessengerEXT(context_.instance, &info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
        const VkPipelineLayoutCreateInfo layout = vku::InitStructHelper();
        check(vk().vkCreatePipelineLayout(device(), &layout, nullptr, &empty_layout_), "vkCreatePipelineLayout");
    }
    ~Device() {
        for (VkPipeline p : pipelines_) vk().vkDestroyPipeline(device(), p, nullptr);
        for (VkShaderModule m : modules_) vk().vkDestroyShaderModule(device(), m, nullptr);
        vk().vkDestroyPipelineLayout(device(), empty_layout_, nullptr);
        vkDestroyDebugUtilsMessengerEXT(context_.instance, messenger_, nullptr);
    }

    Context& context() { return context_; }
    VkDevice device() const { return context_.device; }
    const VolkDeviceTable& vk() const { return context_.vk; }
    const DebugMessages& messages() const { return messages_; }
    // What the spy layer recorded, by kind ("module", "stage", "shader"), in call order.
    std::vector<std::vector<uint32_t>> reached_driver(const std::string& kind) const {
        std::vector<std::vector<uint32_t>> words;
        for (const auto& file : spy_.files_ending_with("-" + kind + ".spv")) words.push_back(read_words(file));
        return words;
    }

    VkShaderModule module(std::span<const uint32_t> words, const char* name = nullptr) {
        VkShaderModuleCreateInfo info = vku::InitStructHelper();
        info.codeSize = words.size_bytes();
        info.pCode = words.data();
        VkShaderModule module;
        check(vk().vkCreateShaderModule(device(), &info, nullptr, &module), "vkCreateShaderModule");
        modules_.push_back(module);
        if (name != nullptr) {
            VkDebugUtilsObjectNameInfoEXT name_info = vku::InitStructHelper();
            name_info.objectType = VK_OBJECT_TYPE_SHADER_MODULE;
            name_info.objectHandle = reinterpret_cast<uint64_t>(module);
            name_info.pObjectName = name;
            check(vkSetDebugUtilsObjectNameEXT(device(), &name_info), "vkSetDebugUtilsObjectNameEXT");
        }
        return module;
    }

    // A compute create info with the layout `layout` (an empty one by default).
    VkComputePipelineCreateInfo pipeline_info(VkShaderModule module, VkPipelineLayout layout = VK_NULL_HANDLE) const {
        VkComputePipelineCreateInfo info = vku::InitStructHelper();
        info.stage = vku::InitStructHelper();
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout ? layout : empty_layout_;
        return info;
    }

    VkResult create(std::span<const VkComputePipelineCreateInfo> infos, std::vector<VkPipeline>& pipelines) {
        pipelines.assign(infos.size(), reinterpret_cast<VkPipeline>(~uintptr_t{0}));  // visibly unwritten
        const VkResult result = vk().vkCreateComputePipelines(device(), VK_NULL_HANDLE, static_cast<uint32_t>(infos.size()),
                                                              infos.data(), nullptr, pipelines.data());
        for (VkPipeline p : pipelines) {
            if (p != VK_NULL_HANDLE && p != reinterpret_cast<VkPipeline>(~uintptr_t{0})) pipelines_.push_back(p);
        }
        return result;
    }

  private:
    ContextOptions options(bool coopmat) {
        ContextOptions o{.spy = true,
                         .instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
                         .device_extensions = {VK_KHR_MAINTENANCE_5_EXTENSION_NAME, VK_EXT_SHADER_OBJECT_EXTENSION_NAME},
                         .device_features_next = &features_.gemm.features13};
        if (coopmat) o.device_extensions.push_back(kCoopmat);
        return o;
    }

    ScopedEnv force_;
    TempDir spy_;
    ScopedEnv spy_env_;
    DeviceFeatures features_;
    DebugMessages messages_;
    Context context_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPipelineLayout empty_layout_ = VK_NULL_HANDLE;
    std::vector<VkShaderModule> modules_;
    std::vector<VkPipeline> pipelines_;
};

bool has_error_naming(const DebugMessages& messages, const std::string& name) {
    const auto all = messages.all();
    return std::ranges::any_of(all, [&](const DebugMessage& m) {
        return m.id == kLoweringId && m.severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT &&
               m.text.starts_with(name + ": error: ");
    });
}

TEST(PipelineInterception, ModulesThatNeedNothingReachTheDriverByteIdentical) {
    const std::vector<uint32_t> spirv = read_shader("tests/vector_add.comp");
    Device device;
    ComputePipeline pipeline = device.context().create_compute_pipeline(spirv, 3, 8);
    Buffer a = device.context().create_buffer(64 * sizeof(float));
    Buffer b = device.context().create_buffer(64 * sizeof(float));
    Buffer c = device.context().create_buffer(64 * sizeof(float));
    for (uint32_t i = 0; i < 64; ++i) a.as<float>()[i] = static_cast<float>(i);
    const uint32_t push[2] = {64, 0x40000000};  // count, scale 2.0f
    const Buffer* buffers[] = {&a, &b, &c};
    device.context().dispatch(pipeline, buffers, std::as_bytes(std::span(push)), 1);
    EXPECT_EQ(c.as<float>()[63], 126.0f);
    EXPECT_EQ(device.reached_driver("module"), std::vector<std::vector<uint32_t>>{spirv});

    // maintenance5: the same code inline in the stage.
    VkShaderModuleCreateInfo code = vku::InitStructHelper();
    code.codeSize = spirv.size() * sizeof(uint32_t);
    code.pCode = spirv.data();
    VkComputePipelineCreateInfo info = device.pipeline_info(VK_NULL_HANDLE, pipeline.layout);
    info.stage.pNext = &code;
    std::vector<VkPipeline> created;
    ASSERT_EQ(device.create(std::span(&info, 1), created), VK_SUCCESS);
    EXPECT_EQ(device.reached_driver("stage"), std::vector<std::vector<uint32_t>>{spirv});
}

TEST(PipelineInterception, CooperativeMatrixModulesPassThroughWhereNotEmulated) {
    // Natively on the native driver; on the plain driver when the application did not enable it.
    const std::vector<uint32_t> spirv = read_shader("tests/coopmat_khr.comp");
    const bool native = driver_name() == "native";
    Device device(/*emulated=*/false, /*coopmat=*/native);
    device.module(spirv);
    EXPECT_EQ(device.reached_driver("module"), std::vector<std::vector<uint32_t>>{spirv});
}

TEST(PipelineInterception, EmulatedModulesLeaveAValidPlaceholderWithTheDriver) {
    Device device;
    device.module(read_shader("tests/coopmat_khr.comp"), "gemm");  // the name passes through to the placeholder
    const auto modules = device.reached_driver("module");
    ASSERT_EQ(modules.size(), 1u);
    EXPECT_FALSE(declares_coopmat(modules[0]));
    EXPECT_EQ(lowering::validate(modules[0], VK_API_VERSION_1_3), "");
}

TEST(PipelineInterception, LoweringFailureFailsThePipelineWithAMessageNamingTheShader) {
    Device device;
    const std::vector<uint32_t> broken = broken_coopmat_module();
    const VkComputePipelineCreateInfo info = device.pipeline_info(device.module(broken, "broken-gemm"));
    std::vector<VkPipeline> pipelines;
    EXPECT_EQ(device.create(std::span(&info, 1), pipelines), VK_ERROR_UNKNOWN);
    EXPECT_EQ(pipelines[0], VK_NULL_HANDLE);
    EXPECT_TRUE(has_error_naming(device.messages(), "broken-gemm")) << device.messages().dump();
    const auto all = device.messages().all();
    EXPECT_TRUE(std::ranges::any_of(all, [](const DebugMessage& m) {
        return m.id == kLoweringId && std::ranges::count(m.object_names, "broken-gemm") == 1;
    })) << "the message's objects name the module";

    // Without a debug-utils name, the handle.
    const VkComputePipelineCreateInfo unnamed = device.pipeline_info(device.module(broken));
    EXPECT_EQ(device.create(std::span(&unnamed, 1), pipelines), VK_ERROR_UNKNOWN);
    EXPECT_GE(device.messages().count(kLoweringId, "VkShaderModule 0x"), 1u) << device.messages().dump();
}

TEST(PipelineInterception, DriverFailureOnLoweredCodeIsReportedNamingTheShader) {
    Device device;
    const ComputePipeline reference = device.context().create_compute_pipeline(read_shader("tests/vector_add.comp"), 3, 8);
    const VkComputePipelineCreateInfo infos[] = {
        device.pipeline_info(device.module(read_shader("tests/coopmat_khr.comp"), "driver-fails-gemm")),
        device.pipeline_info(reference.module, reference.layout)};
    ScopedEnv failing_driver("VKPOLYFILL_SPY_FAIL_COMPUTE_PIPELINES", "1");  // the spy layer fails every creation
    std::vector<VkPipeline> pipelines;
    EXPECT_EQ(device.create(infos, pipelines), VK_ERROR_UNKNOWN);
    EXPECT_EQ(pipelines, (std::vector<VkPipeline>{VK_NULL_HANDLE, VK_NULL_HANDLE}));
    const auto all = device.messages().all();
    const auto driver_errors = std::ranges::count_if(all, [](const DebugMessage& m) {
        return m.id == "vkpolyfill-pipeline" && m.severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    });
    EXPECT_EQ(driver_errors, 1) << "only the lowered stage is the layer's to explain\n" << device.messages().dump();
    EXPECT_EQ(device.messages().count("vkpolyfill-pipeline", "driver-fails-gemm: error: "), 1u) << device.messages().dump();
    EXPECT_EQ(device.messages().count("vkpolyfill-pipeline", "returned VK_ERROR_UNKNOWN"), 1u) << device.messages().dump();
}

TEST(PipelineInterception, OneFailingCreateInfoLeavesTheOthersCreated) {
    Device device;
    // vector_add with a layout that fits it (three storage buffers, 8 bytes of push constants).
    const ComputePipeline reference = device.context().create_compute_pipeline(read_shader("tests/vector_add.comp"), 3, 8);
    const VkComputePipelineCreateInfo good = device.pipeline_info(reference.module, reference.layout);
    std::vector<VkComputePipelineCreateInfo> infos = {good, device.pipeline_info(device.module(broken_coopmat_module())), good};
    std::vector<VkPipeline> pipelines;
    EXPECT_EQ(device.create(infos, pipelines), VK_ERROR_UNKNOWN);
    EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
    EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
    EXPECT_NE(pipelines[2], VK_NULL_HANDLE);

    // With early return, nothing after the failure is created.
    infos[1].flags |= VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
    EXPECT_EQ(device.create(infos, pipelines), VK_ERROR_UNKNOWN);
    EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
    EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
    EXPECT_EQ(pipelines[2], VK_NULL_HANDLE);
}

TEST(PipelineInterception, InlineStageCodeIsInterceptedToo) {
    Device device;
    const std::vector<uint32_t> broken = broken_coopmat_module();
    VkShaderModuleCreateInfo code = vku::InitStructHelper();
    code.codeSize = broken.size() * sizeof(uint32_t);
    code.pCode = broken.data();
    VkComputePipelineCreateInfo info = device.pipeline_info(VK_NULL_HANDLE);
    info.stage.pNext = &code;
    std::vector<VkPipeline> pipelines;
    EXPECT_EQ(device.create(std::span(&info, 1), pipelines), VK_ERROR_UNKNOWN);
    EXPECT_EQ(pipelines[0], VK_NULL_HANDLE);
    EXPECT_TRUE(has_error_naming(device.messages(), "the inline VkShaderModuleCreateInfo of pCreateInfos[0]"))
        << device.messages().dump();
    EXPECT_TRUE(device.reached_driver("stage").empty()) << "the driver saw the inline cooperative-matrix code";
}

TEST(PipelineInterception, ShaderObjectsAreInterceptedToo) {
    Device device;
    const std::vector<uint32_t> good = read_shader("tests/vector_add.comp");
    const std::vector<uint32_t> broken = broken_coopmat_module();
    const ComputePipeline reference = device.context().create_compute_pipeline(good, 3, 8);  // for its set layout
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    auto shader_info = [&](const std::vector<uint32_t>& words) {
        VkShaderCreateInfoEXT info = vku::InitStructHelper();
        info.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
        info.codeSize = words.size() * sizeof(uint32_t);
        info.pCode = words.data();
        info.pName = "main";
        info.setLayoutCount = 1;
        info.pSetLayouts = &reference.set_layout;
        info.pushConstantRangeCount = 1;
        info.pPushConstantRanges = &push;
        return info;
    };
    const VkShaderCreateInfoEXT infos[] = {shader_info(good), shader_info(broken)};
    VkShaderEXT shaders[2];
    EXPECT_EQ(device.vk().vkCreateShadersEXT(device.device(), 2, infos, nullptr, shaders), VK_ERROR_UNKNOWN);
    EXPECT_EQ(shaders[0], VK_NULL_HANDLE);
    EXPECT_EQ(shaders[1], VK_NULL_HANDLE);
    EXPECT_TRUE(has_error_naming(device.messages(), "the compute shader of pCreateInfos[1]")) << device.messages().dump();
    EXPECT_TRUE(device.reached_driver("shader").empty());

    // Shaders that need nothing reach the driver as they are.
    ASSERT_EQ(device.vk().vkCreateShadersEXT(device.device(), 1, infos, nullptr, shaders), VK_SUCCESS);
    device.vk().vkDestroyShaderEXT(device.device(), shaders[0], nullptr);
    EXPECT_EQ(device.reached_driver("shader"), std::vector<std::vector<uint32_t>>{good});
}

TEST(PipelineInterception, LoweredCodeReachesTheDriverValidAndIsCached) {
    Device device;
    const ComputePipeline first = device.context().create_compute_pipeline(read_shader("tests/coopmat_khr.comp"), 3, 8);
    auto modules = device.reached_driver("module");
    ASSERT_EQ(modules.size(), 2u) << "the placeholder, then the lowered module";
    const std::vector<uint32_t> lowered = modules[1];
    EXPECT_FALSE(declares_coopmat(lowered));
    EXPECT_EQ(lowering::validate(lowered, VK_API_VERSION_1_3), "");
    EXPECT_EQ(device.messages().count(kLoweringId, "lowered entry point main"), 1u) << device.messages().dump();

    // The same pipeline again: the lowered module comes from the cache, and the driver's creation
    // feedback reaches the application's structs.
    VkPipelineCreationFeedback feedback{}, stage_feedback{};
    VkPipelineCreationFeedbackCreateInfo feedback_info = vku::InitStructHelper();
    feedback_info.pPipelineCreationFeedback = &feedback;
    feedback_info.pipelineStageCreationFeedbackCount = 1;
    feedback_info.pPipelineStageCreationFeedbacks = &stage_feedback;
    VkComputePipelineCreateInfo info = device.pipeline_info(first.module, first.layout);
    info.pNext = &feedback_info;
    std::vector<VkPipeline> pipelines;
    ASSERT_EQ(device.create(std::span(&info, 1), pipelines), VK_SUCCESS);
    EXPECT_EQ(device.messages().count(kLoweringId, "cache hit (memory)"), 1u) << device.messages().dump();
    EXPECT_EQ(device.messages().count(kLoweringId, "lowered entry point main"), 1u);
    EXPECT_TRUE(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
    modules = device.reached_driver("module");
    ASSERT_EQ(modules.size(), 3u);
    EXPECT_EQ(modules[2], lowered);
}

TEST(PipelineInterception, DiskCacheServesLaterInstancesAndIgnoresCorruptFiles) {
    TempDir cache;
    ScopedEnv cache_dir("VK_POLYFILL_EXTENSIONS_CACHE_DIR", cache.path().c_str());
    const std::vector<uint32_t> spirv = read_shader("tests/coopmat_khr.comp");
    auto create_pipeline = [&](const char* expected) {
        Device device;
        device.context().create_compute_pipeline(spirv, 3, 8);
        EXPECT_EQ(device.messages().count(kLoweringId, expected), 1u) << device.messages().dump();
    };
    create_pipeline("lowered entry point main");
    const auto files = cache.files_ending_with(".vkpolyfill-lowered");
    ASSERT_EQ(files.size(), 1u);
    create_pipeline("cache hit (disk: ");
    std::ofstream(files[0], std::ios::binary | std::ios::trunc) << "not a cache file";
    create_pipeline("lowered entry point main");
}

TEST(PipelineInterception, DumpDirGetsTheOriginalAndTheLoweredModule) {
    TempDir dumps;
    ScopedEnv dump_dir("VK_POLYFILL_EXTENSIONS_DUMP_DIR", dumps.path().c_str());
    const std::vector<uint32_t> spirv = read_shader("tests/coopmat_khr.comp");
    Device device;
    device.context().create_compute_pipeline(spirv, 3, 8);
    const auto original = dumps.files_ending_with(".original.spv");
    const auto lowered = dumps.files_ending_with(".lowered.spv");
    ASSERT_EQ(original.size(), 1u);
    ASSERT_EQ(lowered.size(), 1u);
    EXPECT_EQ(read_words(original[0]), spirv);
    EXPECT_EQ(read_words(lowered[0]), device.reached_driver("module").back());
}

TEST(PipelineInterception, MatrixShapingConstantsAreFrozenAndTheOthersStaySpecializable) {
    const std::vector<uint32_t> spirv = read_shader("tests/interception/coopmat_spec.comp");
    ASSERT_EQ(spec_ids(spirv), (std::set<uint32_t>{0, 1}));
    Device device;
    ComputePipeline pipeline = device.context().create_compute_pipeline(spirv, 2, 0);  // the defaults: 16 rows, scale 1

    struct Constants {
        uint32_t rows = 16;
        float scale = 2.0f;
    } constants;
    const VkSpecializationMapEntry entries[] = {{0, offsetof(Constants, rows), sizeof(uint32_t)},
                                                {1, offsetof(Constants, scale), sizeof(float)}};
    const VkSpecializationInfo specialization{2, entries, sizeof(constants), &constants};
    VkComputePipelineCreateInfo info = device.pipeline_info(pipeline.module, pipeline.layout);
    info.stage.pSpecializationInfo = &specialization;
    std::vector<VkPipeline> created;
    ASSERT_EQ(device.create(std::span(&info, 1), created), VK_SUCCESS) << device.messages().dump();
    EXPECT_EQ(spec_ids(device.reached_driver("module").back()), std::set<uint32_t>{1})
        << "kRows shapes the matrices (frozen); kScale does not (still specializable)";

    // The application's VkSpecializationInfo still applies to the lowered module: c = 2 * a.
    pipeline.pipeline = created[0];
    Buffer a = device.context().create_buffer(256 * sizeof(uint16_t));
    Buffer c = device.context().create_buffer(256 * sizeof(float));
    constexpr uint16_t kHalves[] = {0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800};  // 1 .. 8
    for (uint32_t i = 0; i < 256; ++i) a.as<uint16_t>()[i] = kHalves[i % 8];
    const Buffer* buffers[] = {&a, &c};
    device.context().dispatch(pipeline, buffers, {}, 1);
    for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(c.as<float>()[i], 2.0f * static_cast<float>(i % 8 + 1)) << "element " << i;
}

}  // namespace
}  // namespace vkpolyfill::test
