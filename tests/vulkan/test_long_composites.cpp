// SPV_INTEL_long_composites through the layer: the generated modules (tests/long_composites) run on a
// device where the application enabled no extension at all — no Vulkan extension names this one, so
// the layer lowers it on every device — and their results match the CPU's.
#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>
#include <vkpolyfill/lowering/validate.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <format>
#include <string>

#include "debug_messages.h"
#include "long_composites_modules.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "triangle_draw.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

namespace modules = long_composites;

// Invocation x looks up element index_of(x): a spread over the whole table.
constexpr uint32_t kInvocations = 4096;
uint32_t index_of(uint32_t x, uint32_t size) { return static_cast<uint32_t>((x * 2654435761ull) % size); }

Buffer index_buffer(Context& context, uint32_t size) {
    Buffer indices = context.create_buffer(kInvocations * sizeof(uint32_t));
    for (uint32_t x = 0; x < kInvocations; ++x) indices.as<uint32_t>()[x] = index_of(x, size);
    return indices;
}

// SpecId 0..2 set to `values` (4-byte unsigned integers).
struct Specialization {
    explicit Specialization(const std::array<uint32_t, 3>& values) : data(values) {
        for (uint32_t id = 0; id < 3; ++id) entries[id] = {id, id * 4u, 4};
        info = {3, entries.data(), sizeof(data), data.data()};
    }
    std::array<uint32_t, 3> data;
    std::array<VkSpecializationMapEntry, 3> entries{};
    VkSpecializationInfo info{};
};

bool declares_long_composites(std::span<const uint32_t> words) {
    for (size_t offset = 5; offset < words.size() && (words[offset] >> 16) != 0; offset += words[offset] >> 16) {
        const bool capability = (words[offset] & 0xFFFFu) == spv::OpCapability;
        if (capability && words[offset + 1] == spv::CapabilityLongCompositesINTEL) return true;
    }
    return false;
}

// Members rewritten through access chains, and two written from a constant of the Block's own type
// (OpCompositeExtract, and OpCompositeInsert into a copy): every member in place, to the byte.
TEST(LongComposites, StructOf70000MembersIsReadAndWrittenInAStorageBuffer) {
    constexpr uint32_t n = modules::kStructMembers;
    Context context({});
    Buffer src = context.create_buffer(n * sizeof(uint32_t));
    Buffer dst = context.create_buffer(n * sizeof(uint32_t));
    for (uint32_t k = 0; k < n; ++k) src.as<uint32_t>()[k] = 7 * k + 1;
    ComputePipeline pipeline = context.create_compute_pipeline(modules::read_module("struct"), 2, 0);
    const Buffer* buffers[] = {&src, &dst};
    context.dispatch(pipeline, buffers, {}, 1);

    std::vector<uint32_t> expected(n, 0);
    for (uint32_t k = 0; k < n; ++k) {
        if (modules::struct_member_touched(k, n)) expected[k] = (7 * k + 1) * 3 + k;
    }
    expected[n / 2] = modules::struct_constant_member(n / 2);
    expected[n / 2 + 1] = modules::struct_constant_member(n - 3) + 1;
    for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(dst.as<uint32_t>()[k], expected[k]) << "member " << k;
}

// A runtime array after the 70,000 members: OpArrayLength sees the buffer's own length.
TEST(LongComposites, StructWithARuntimeArrayKeepsItsLength) {
    constexpr uint32_t n = modules::kStructMembers;
    constexpr uint32_t kTail = 5;
    Context context({});
    Buffer src = context.create_buffer((n + kTail) * sizeof(uint32_t));
    Buffer dst = context.create_buffer((n + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < n; ++k) src.as<uint32_t>()[k] = 7 * k + 1;
    ComputePipeline pipeline = context.create_compute_pipeline(modules::read_module("struct_runtime_array"), 2, 0);
    const Buffer* buffers[] = {&src, &dst};
    context.dispatch(pipeline, buffers, {}, 1);
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t expected = modules::struct_member_touched(k, n) ? (7 * k + 1) * 3 + k : 0;
        ASSERT_EQ(dst.as<uint32_t>()[k], expected) << "member " << k;
    }
    EXPECT_EQ(dst.as<uint32_t>()[n], kTail);
}

// The table constant is read at the sample indexes; the dynamic lookups read a storage buffer whose
// array has the table's own type, so it is split too (keeping every element's offset). Lavapipe would
// compile lookups into the constant itself (a Private variable) element by element: minutes already at
// a few thousand elements (docs/long_composites.md, Lavapipe and long tables).
TEST(LongComposites, ConstantTableOf100000FloatsIsLookedUp) {
    constexpr uint32_t n = modules::kTableElements;
    Context context({});
    Buffer indices = index_buffer(context, n);
    Buffer results = context.create_buffer(kInvocations * sizeof(float));
    Buffer stored = context.create_buffer(n * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) stored.as<float>()[i] = modules::table_value(i);
    const std::vector<uint32_t> samples = modules::samples(n);
    Buffer sampled = context.create_buffer(samples.size() * sizeof(float));
    ComputePipeline pipeline = context.create_compute_pipeline(modules::read_module("table_in_buffer"), 4, 0);
    const Buffer* buffers[] = {&indices, &results, &stored, &sampled};
    context.dispatch(pipeline, buffers, {}, kInvocations / 64);
    for (uint32_t x = 0; x < kInvocations; ++x) {
        ASSERT_EQ(results.as<float>()[x], modules::table_result(index_of(x, n), n, modules::kTableLookups)) << "invocation " << x;
    }
    for (size_t s = 0; s < samples.size(); ++s) {
        EXPECT_EQ(sampled.as<float>()[s], modules::table_value(samples[s])) << "element " << samples[s];
    }
}

TEST(LongComposites, CompositeConstructOfMoreThan65535Constituents) {
    constexpr uint32_t n = modules::kConstructElements;
    Context context({});
    Buffer indices = context.create_buffer(sizeof(uint32_t));
    indices.as<uint32_t>()[0] = 1000;
    const std::vector<uint32_t> samples = modules::samples(n);
    Buffer results = context.create_buffer(samples.size() * sizeof(uint32_t));
    ComputePipeline pipeline = context.create_compute_pipeline(modules::read_module("construct"), 2, 0);
    const Buffer* buffers[] = {&indices, &results};
    context.dispatch(pipeline, buffers, {}, 1);
    for (size_t s = 0; s < samples.size(); ++s) {
        const uint32_t expected = samples[s] == n - 2 ? 777 : 1000 + samples[s] % 16;  // n - 2 was inserted
        EXPECT_EQ(results.as<uint32_t>()[s], expected) << "element " << samples[s];
    }
}

// The same module with the defaults and with SpecId 0 and 2 overridden: the driver specializes the
// lowered module's nested composite.
TEST(LongComposites, SpecializationConstantCompositeIsSpecializedAtPipelineCreation) {
    constexpr uint32_t n = modules::kSpecElements;
    Context context({});
    const std::vector<uint32_t> spirv = modules::read_module("spec");
    const std::vector<uint32_t> samples = modules::samples(n);
    const Specialization overridden({1234, modules::kSpecDefaults[1], 5678});
    for (const Specialization* specialization : {static_cast<const Specialization*>(nullptr), &overridden}) {
        const std::array<uint32_t, 3> values = specialization ? specialization->data : modules::kSpecDefaults;
        SCOPED_TRACE(specialization ? "overridden" : "defaults");
        Buffer sampled = context.create_buffer(samples.size() * sizeof(uint32_t));
        ComputePipeline pipeline =
            context.create_compute_pipeline(spirv, 1, 0, specialization ? &specialization->info : nullptr);
        const Buffer* buffers[] = {&sampled};
        context.dispatch(pipeline, buffers, {}, 1);
        for (size_t s = 0; s < samples.size(); ++s) {
            EXPECT_EQ(sampled.as<uint32_t>()[s], modules::spec_element(samples[s], values)) << "element " << samples[s];
        }
    }
}

// Continuations of things that fit one instruction are merged; the driver never sees the extension
// (the spy layer below records what reaches it).
TEST(LongComposites, ContinuationsThatFitRunAsOneInstruction) {
    TempDir spy;
    ScopedEnv spy_env("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    Context context({.spy = true});
    Buffer indices = context.create_buffer(sizeof(uint32_t));
    indices.as<uint32_t>()[0] = 100;
    Buffer results = context.create_buffer(16 * sizeof(uint32_t));
    const Specialization specialization({42, 0, 0});
    ComputePipeline pipeline = context.create_compute_pipeline(modules::read_module("fits"), 2, 0, &specialization.info);
    const Buffer* buffers[] = {&indices, &results};
    context.dispatch(pipeline, buffers, {}, 1);
    const std::vector<uint32_t> expected{100, 100, 101, 102, 103, 104, 10, 20, 30, 40, 50, 60, 42, 8, 9, 42};
    EXPECT_EQ(std::vector<uint32_t>(results.as<uint32_t>().begin(), results.as<uint32_t>().end()), expected);

    const auto reached = spy.files_ending_with(".spv");
    EXPECT_FALSE(reached.empty());
    for (const auto& file : reached) {
        const std::vector<uint32_t> words = read_words(file);
        EXPECT_FALSE(declares_long_composites(words)) << file;
        EXPECT_EQ(lowering::validate(words, VK_API_VERSION_1_3), "") << file;
    }
}

// A continuation after the wrong instruction: pipeline creation fails, and the application's
// messenger hears which instruction is wrong. The driver never sees the module.
TEST(LongComposites, AMalformedContinuationFailsThePipelineWithAMessage) {
    DebugMessages messages;
    Context context({.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME}});
    const VkDebugUtilsMessengerCreateInfoEXT messenger_info = messages.create_info();
    VkDebugUtilsMessengerEXT messenger;
    check(vkCreateDebugUtilsMessengerEXT(context.instance, &messenger_info, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
    const std::vector<uint32_t> spirv = modules::read_module("broken_order");
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = spirv.size() * sizeof(uint32_t);
    module_info.pCode = spirv.data();
    VkShaderModule module;
    check(context.vk.vkCreateShaderModule(context.device, &module_info, nullptr, &module), "vkCreateShaderModule");
    const VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    VkPipelineLayout layout;
    check(context.vk.vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(context.vk.vkCreateComputePipelines(context.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_ERROR_UNKNOWN);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
    EXPECT_EQ(messages.count("vkpolyfill-lowering",
                             "error: OpConstantCompositeContinuedINTEL must directly follow the OpConstantComposite it continues"),
              1u)
        << messages.dump();
    context.vk.vkDestroyPipelineLayout(context.device, layout, nullptr);
    context.vk.vkDestroyShaderModule(context.device, module, nullptr);
    vkDestroyDebugUtilsMessengerEXT(context.instance, messenger, nullptr);
}

// Draws with `fragment` (of the generated "fragment" module, or code lowered from it) through a
// graphics pipeline; "" when every pixel's color is the four table elements the module reads, else the
// first that is not.
std::string fragment_mismatch(Context& context, std::span<const uint32_t> fragment) {
    constexpr uint32_t kSize = 4;
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    VkPipelineLayout layout;
    check(context.vk.vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    const std::vector<uint32_t> vertex = read_shader("tests/tensors/fullscreen.vert");
    const std::vector<std::byte> texels = draw_triangle(
        context, {.vertex = vertex, .fragment = fragment, .layout = layout, .format = VK_FORMAT_R32G32B32A32_SFLOAT, .texel_bytes = 16, .size = kSize});
    context.vk.vkDestroyPipelineLayout(context.device, layout, nullptr);
    std::vector<float> colors(texels.size() / sizeof(float));
    std::memcpy(colors.data(), texels.data(), texels.size());
    const std::array<uint32_t, 4> samples = modules::fragment_samples(modules::kFragmentElements);
    for (uint32_t pixel = 0; pixel < kSize * kSize; ++pixel) {
        for (uint32_t c = 0; c < 4; ++c) {
            if (colors[pixel * 4 + c] != modules::table_value(samples[c])) {
                return std::format("pixel {} component {}: {} where the table has {}", pixel, c, colors[pixel * 4 + c],
                                   modules::table_value(samples[c]));
            }
        }
    }
    return "";
}

// A fragment shader of the extension in a graphics pipeline, on a device that emulates nothing else
// (no tile images, no tensors): its color is four elements of a 70,000-element constant table, one of
// them in a continuation, at every pixel.
TEST(LongComposites, AFragmentShaderReadsItsConstantTableInAGraphicsPipeline) {
    Context context({});
    EXPECT_EQ(fragment_mismatch(context, modules::read_module("fragment")), "");
}

// The same fragment shader as a shader object (VK_EXT_shader_object): the driver gets valid code
// without the extension, which draws the same colors in a pipeline of a device without the layer.
TEST(LongComposites, AFragmentShaderObjectIsLowered) {
    TempDir spy;
    ScopedEnv spy_env("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    VkPhysicalDeviceShaderObjectFeaturesEXT shader_object = vku::InitStructHelper();
    shader_object.shaderObject = VK_TRUE;
    Context context({.spy = true, .device_extensions = {VK_EXT_SHADER_OBJECT_EXTENSION_NAME}, .device_features_next = &shader_object});
    const std::vector<uint32_t> fragment = modules::read_module("fragment");
    const VkShaderCreateInfoEXT info = spirv_shader_info(VK_SHADER_STAGE_FRAGMENT_BIT, fragment);
    VkShaderEXT shader = VK_NULL_HANDLE;
    ASSERT_EQ(context.vk.vkCreateShadersEXT(context.device, 1, &info, nullptr, &shader), VK_SUCCESS);
    context.vk.vkDestroyShaderEXT(context.device, shader, nullptr);

    const auto reached = spy.files_ending_with("-shader.spv");
    ASSERT_EQ(reached.size(), 1u);
    const std::vector<uint32_t> lowered = read_words(reached[0]);
    EXPECT_FALSE(declares_long_composites(lowered));
    EXPECT_EQ(lowering::validate(lowered, VK_API_VERSION_1_3), "");
    Context without_layer({.layer = false});
    EXPECT_EQ(fragment_mismatch(without_layer, lowered), "");
}

// A ray-tracing pipeline (one ray generation shader) whose stage uses the extension: every launch
// writes the four table elements. Given a deferred operation, the layer declines to defer the call
// that lowered (its temporary modules would not outlive it).
TEST(LongComposites, ARayGenerationShaderReadsItsTableInARayTracingPipeline) {
    constexpr uint32_t kLaunches = 8;
    VkPhysicalDeviceAccelerationStructureFeaturesKHR acceleration = vku::InitStructHelper();
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR ray_tracing = vku::InitStructHelper(&acceleration);
    ray_tracing.rayTracingPipeline = VK_TRUE;
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&ray_tracing);
    features12.bufferDeviceAddress = VK_TRUE;
    Context context({.device_extensions = {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                                           VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME},
                     .device_features_next = &features12});
    const VolkDeviceTable& vk = context.vk;

    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_RAYGEN_BIT_KHR, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    VkDescriptorSetLayout set_layout;
    check(vk.vkCreateDescriptorSetLayout(context.device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    VkPipelineLayout layout;
    check(vk.vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    const VkShaderModule module = context.create_module(modules::read_module("ray_generation"));

    VkPipelineShaderStageCreateInfo stage = vku::InitStructHelper();
    stage.stage = VK_SHADER_STAGE_RAYGEN_BIT_KHR;
    stage.module = module;
    stage.pName = "main";
    VkRayTracingShaderGroupCreateInfoKHR group = vku::InitStructHelper();
    group.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
    group.generalShader = 0;
    group.closestHitShader = group.anyHitShader = group.intersectionShader = VK_SHADER_UNUSED_KHR;
    VkRayTracingPipelineCreateInfoKHR info = vku::InitStructHelper();
    info.stageCount = 1;
    info.pStages = &stage;
    info.groupCount = 1;
    info.pGroups = &group;
    info.maxPipelineRayRecursionDepth = 1;
    info.layout = layout;
    VkDeferredOperationKHR deferred;
    check(vk.vkCreateDeferredOperationKHR(context.device, nullptr, &deferred), "vkCreateDeferredOperationKHR");
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vk.vkCreateRayTracingPipelinesKHR(context.device, deferred, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
              VK_OPERATION_NOT_DEFERRED_KHR);
    vk.vkDestroyDeferredOperationKHR(context.device, deferred, nullptr);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);

    // The shader binding table: the ray generation group's handle, at the base alignment.
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR properties = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties2 = vku::InitStructHelper(&properties);
    vkGetPhysicalDeviceProperties2(context.physical_device, &properties2);
    std::vector<uint8_t> handle(properties.shaderGroupHandleSize);
    check(vk.vkGetRayTracingShaderGroupHandlesKHR(context.device, pipeline, 0, 1, handle.size(), handle.data()),
          "vkGetRayTracingShaderGroupHandlesKHR");
    const VkDeviceSize base = properties.shaderGroupBaseAlignment;
    const Buffer table = context.create_buffer(2 * base + handle.size(),
                                               VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    const VkDeviceAddress aligned = (context.address(table) + base - 1) / base * base;
    std::memcpy(static_cast<uint8_t*>(table.mapped) + (aligned - context.address(table)), handle.data(), handle.size());
    const VkDeviceSize stride =
        (properties.shaderGroupHandleSize + properties.shaderGroupHandleAlignment - 1) / properties.shaderGroupHandleAlignment *
        properties.shaderGroupHandleAlignment;
    const VkStridedDeviceAddressRegionKHR raygen{aligned, stride, stride}, none{};

    const Buffer results = context.create_buffer(kLaunches * 4 * sizeof(float));
    const Buffer* buffers[] = {&results};
    const VkDescriptorSet set = context.storage_buffer_set(set_layout, buffers);
    context.run([&](VkCommandBuffer cb) {
        vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipeline);
        vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, layout, 0, 1, &set, 0, nullptr);
        vk.vkCmdTraceRaysKHR(cb, &raygen, &none, &none, &none, kLaunches, 1, 1);
    });
    const std::array<uint32_t, 4> samples = modules::fragment_samples(modules::kFragmentElements);
    for (uint32_t x = 0; x < kLaunches; ++x) {
        for (uint32_t c = 0; c < 4; ++c) {
            EXPECT_EQ(results.as<float>()[x * 4 + c], modules::table_value(samples[c])) << "launch " << x << " element " << c;
        }
    }
    vk.vkDestroyPipeline(context.device, pipeline, nullptr);
    vk.vkDestroyShaderModule(context.device, module, nullptr);
    vk.vkDestroyPipelineLayout(context.device, layout, nullptr);
    vk.vkDestroyDescriptorSetLayout(context.device, set_layout, nullptr);
}

// The price of lowering on every device: shader and pipeline creation are the layer's even where the
// application enabled nothing, and only they. The driver is loaded once for both devices, so its entry
// points have one address; the loader's trampolines are not in play for device commands.
TEST(LongComposites, ADeviceThatEnabledNothingInterceptsShaderCreationOnly) {
    Context with_layer({});
    Context without_layer({.layer = false});
    const auto same = [&](const char* name) {
        return vkGetDeviceProcAddr(with_layer.device, name) == vkGetDeviceProcAddr(without_layer.device, name);
    };
    for (const char* name : {"vkCreateShaderModule", "vkDestroyShaderModule", "vkCreateComputePipelines", "vkCreateGraphicsPipelines"}) {
        EXPECT_FALSE(same(name)) << name;
    }
    for (const char* name : {"vkCreateBuffer", "vkAllocateMemory", "vkQueueSubmit", "vkCmdDispatch",
                             "vkCmdBindPipeline", "vkCmdPipelineBarrier", "vkUpdateDescriptorSets", "vkDestroyPipeline"}) {
        EXPECT_TRUE(same(name)) << name;
    }
}

}  // namespace
}  // namespace vkpolyfill::test
