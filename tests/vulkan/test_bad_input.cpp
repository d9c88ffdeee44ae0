// The bad-input corpus (tests/bad_input/) through the layer: every compute module of it, handed to
// vkCreateComputePipelines on a device with every extension the layer provides (emulated even where
// the driver has one: force_emulation=all), fails with an error VkResult and no pipeline, and a
// debug-utils message names the shader (by its debug-utils name) and the instruction.
#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <memory>

#include "coopmat_assembly.h"
#include "corpus.h"
#include "debug_messages.h"
#include "scoped_env.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

// A device with what the corpus's modules declare: 16-bit and 8-bit types, the memory model, both
// cooperative-matrix extensions, tensors, tile images.
class EveryExtensionDevice {
  public:
    EveryExtensionDevice() {
        tile_image_ = vku::InitStructHelper();
        tile_image_.shaderTileImageColorReadAccess = VK_TRUE;
        tensors_ = vku::InitStructHelper(&tile_image_);
        tensors_.tensors = VK_TRUE;
        tensors_.shaderTensorAccess = VK_TRUE;
        coopmat2_ = vku::InitStructHelper(&tensors_);
        for (VkBool32* bit : {&coopmat2_.cooperativeMatrixWorkgroupScope, &coopmat2_.cooperativeMatrixReductions,
                              &coopmat2_.cooperativeMatrixPerElementOperations, &coopmat2_.cooperativeMatrixTensorAddressing}) {
            *bit = VK_TRUE;
        }
        coopmat_ = vku::InitStructHelper(&coopmat2_);
        coopmat_.cooperativeMatrix = VK_TRUE;
        v12_ = vku::InitStructHelper(&coopmat_);
        v12_.shaderFloat16 = VK_TRUE;
        v12_.vulkanMemoryModel = VK_TRUE;
        context_ = std::make_unique<Context>(ContextOptions{
            .instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
            .device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME,
                                  VK_ARM_TENSORS_EXTENSION_NAME, VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME},
            .device_features_next = &v12_});
        messenger_ = std::make_unique<ScopedMessenger>(context_->instance, messages);
    }

    Context& context() { return *context_; }
    DebugMessages messages;

  private:
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image_{};
    VkPhysicalDeviceTensorFeaturesARM tensors_{};
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2_{};
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat_{};
    VkPhysicalDeviceVulkan12Features v12_{};
    std::unique_ptr<Context> context_;
    std::unique_ptr<ScopedMessenger> messenger_;
};

// vkCreateComputePipelines of `words`, the module named `name` through debug utils.
VkResult create_pipeline(Context& context, const std::vector<uint32_t>& words, const std::string& name, VkPipeline& pipeline) {
    const VolkDeviceTable& vk = context.vk;
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    VkShaderModule module;
    check(vk.vkCreateShaderModule(context.device, &module_info, nullptr, &module), "vkCreateShaderModule");
    VkDebugUtilsObjectNameInfoEXT name_info = vku::InitStructHelper();
    name_info.objectType = VK_OBJECT_TYPE_SHADER_MODULE;
    name_info.objectHandle = reinterpret_cast<uint64_t>(module);
    name_info.pObjectName = name.c_str();
    check(vkSetDebugUtilsObjectNameEXT(context.device, &name_info), "vkSetDebugUtilsObjectNameEXT");
    const VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    VkPipelineLayout layout;
    check(vk.vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    info.layout = layout;
    const VkResult result = vk.vkCreateComputePipelines(context.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    vk.vkDestroyPipelineLayout(context.device, layout, nullptr);
    vk.vkDestroyShaderModule(context.device, module, nullptr);
    return result;
}

bool is_compute(const std::vector<uint32_t>& words) {
    for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
        if ((words[i] & 0xFFFFu) == 15 /* OpEntryPoint */ && i + 1 < words.size()) return words[i + 1] == 5 /* GLCompute */;
    }
    return false;
}

TEST(BadInput, EveryComputeModuleFailsItsPipelineWithAMessageNamingShaderAndInstruction) {
    const ScopedEnv force("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", "all");
    EveryExtensionDevice device;
    size_t checked = 0;
    for (const BadInput& input : bad_inputs([](const std::string& text) { return coopmat::assemble(text); })) {
        if (input.damaged || !is_compute(input.words)) continue;  // damage is the lowering tests' (test_bad_input there)
        SCOPED_TRACE(input.name + ": " + input.why);
        ++checked;
        VkPipeline pipeline = VK_NULL_HANDLE;
        const VkResult result = create_pipeline(device.context(), input.words, input.name, pipeline);
        EXPECT_LT(result, 0);
        EXPECT_EQ(pipeline, VK_NULL_HANDLE);
        // "<shader>: error: <message> at word N: <instruction>"
        const std::vector<DebugMessage> messages = device.messages.all();
        EXPECT_TRUE(std::ranges::any_of(messages, [&](const DebugMessage& m) {
            return m.id == "vkpolyfill-lowering" && m.text.starts_with(input.name + ": error: ") &&
                   m.text.find(input.expect) != std::string::npos && m.text.find(" at word ") != std::string::npos;
        })) << device.messages.dump();
    }
    EXPECT_GE(checked, 12u);
}

}  // namespace
}  // namespace vkpolyfill::test
