#include "coopmat_device.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <spirv-tools/optimizer.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vk_enum_string_helper.h>

#include "spy_records.h"

namespace vkpolyfill::test::coopmat {

std::string_view mode_name(Mode mode) {
    switch (mode) {
        case Mode::Native: return "Native";
        case Mode::Emulated: return "Emulated";
        case Mode::Forced: return "Forced";
    }
    return "?";
}

namespace {

constexpr uint32_t kCapabilityCooperativeMatrixKHR = 6022;

// What a mode puts into VkInstanceCreateInfo; lives as long as the create call needs it.
struct InstanceSetup {
    const char* forced = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
    VkLayerSettingEXT setting{kLayerName, "force_emulation", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &forced};
    VkLayerSettingsCreateInfoEXT settings = vku::InitStructHelper();
    ContextOptions options;

    InstanceSetup(Mode mode, bool debug_utils) {
        options.layer = mode != Mode::Native;
        options.spy = mode != Mode::Native;
        if (debug_utils) options.instance_extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        if (mode == Mode::Forced) {
            settings.settingCount = 1;
            settings.pSettings = &setting;
            options.instance_extensions.push_back(VK_EXT_LAYER_SETTINGS_EXTENSION_NAME);
            options.instance_next = &settings;
        }
    }
};

bool has_extension(VkPhysicalDevice physical_device, const char* layer, const char* name) {
    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical_device, layer, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(count);
    check(vkEnumerateDeviceExtensionProperties(physical_device, layer, &count, extensions.data()),
          "vkEnumerateDeviceExtensionProperties");
    return std::ranges::any_of(extensions, [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

void read_facts(VkPhysicalDevice physical_device, Mode mode, DeviceFacts& facts) {
    facts.extension = has_extension(physical_device, nullptr, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    facts.layer_advertises =
        mode != Mode::Native && has_extension(physical_device, kLayerName, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);

    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper();
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat_features = vku::InitStructHelper(&features13);
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(facts.extension ? static_cast<void*>(&coopmat_features)
                                                                                : static_cast<void*>(&features13));
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    VkPhysicalDeviceVulkan13Properties properties13 = vku::InitStructHelper();
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper(&properties13);
    VkPhysicalDeviceCooperativeMatrixPropertiesKHR coopmat_properties = vku::InitStructHelper(&subgroup);
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(facts.extension ? static_cast<void*>(&coopmat_properties)
                                                                                    : static_cast<void*>(&subgroup));
    vkGetPhysicalDeviceProperties2(physical_device, &properties);

    facts.feature = facts.extension && coopmat_features.cooperativeMatrix == VK_TRUE;
    facts.stages = facts.extension ? coopmat_properties.cooperativeMatrixSupportedStages : 0;
    facts.subgroup_size = subgroup.subgroupSize;
    facts.require_subgroup_size = features13.subgroupSizeControl && features13.computeFullSubgroups &&
                                  (properties13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    if (facts.extension) facts.configurations = query_configurations(physical_device);
}

// The features every test shader may use: cooperative matrices, 8/16-bit arithmetic and storage,
// buffer device addresses, the Vulkan memory model, and maintenance4 for LocalSizeId (workgroup sizes
// given by specialization constants).
struct FeatureChain {
    VkPhysicalDeviceVulkan13Features features13 = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features features12 = vku::InitStructHelper(&features13);
    VkPhysicalDeviceVulkan11Features features11 = vku::InitStructHelper(&features12);
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat = vku::InitStructHelper(&features11);

    explicit FeatureChain(const DeviceFacts& facts) {
        coopmat.cooperativeMatrix = VK_TRUE;
        features11.storageBuffer16BitAccess = VK_TRUE;
        features12.storageBuffer8BitAccess = VK_TRUE;
        features12.shaderFloat16 = VK_TRUE;
        features12.shaderInt8 = VK_TRUE;
        features12.bufferDeviceAddress = VK_TRUE;
        features12.vulkanMemoryModel = VK_TRUE;
        features13.maintenance4 = VK_TRUE;
        features13.subgroupSizeControl = facts.require_subgroup_size;
        features13.computeFullSubgroups = facts.require_subgroup_size;
    }
};

// Runs spirv-opt passes over a test module: specialization (freeze the constants, fold what they
// decide) and/or the performance passes (-O).
std::vector<uint32_t> transformed(const std::vector<uint32_t>& words, const PipelineSpec& spec) {
    spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_3);
    std::string errors;
    optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        errors += std::string(message) + "\n";
    });
    if (spec.specialize) {
        std::unordered_map<uint32_t, std::vector<uint32_t>> values;
        for (uint32_t i = 0; i < spec.constants.size(); ++i) values[i] = {spec.constants[i]};
        optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values))
            .RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
            .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
            .RegisterPass(spvtools::CreateDeadBranchElimPass())
            .RegisterPass(spvtools::CreateAggressiveDCEPass())
            .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
    }
    if (spec.optimize) optimizer.RegisterPerformancePasses();
    std::vector<uint32_t> out;
    // spirv-val does not take every cooperative-matrix form glslang writes (OpSelect of a matrix).
    spvtools::OptimizerOptions options;
    options.set_run_validator(false);
    if (!optimizer.Run(words.data(), words.size(), &out, options)) {
        throw std::runtime_error("spirv-opt failed on " + spec.describe() + ": " + errors);
    }
    return out;
}

bool declares_cooperative_matrix(const std::vector<uint32_t>& words) {
    for (size_t i = 5; i < words.size();) {
        const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
        if (count == 0) break;
        if (opcode == 17 && count == 2 && i + 1 < words.size() && words[i + 1] == kCapabilityCooperativeMatrixKHR) return true;
        i += count;
    }
    return false;
}

}  // namespace

DeviceFacts probe(Mode mode) {
    check(volkInitialize(), "volkInitialize");
    InstanceSetup setup(mode, false);
    std::vector<const char*> layers;
    if (setup.options.layer) layers.push_back(kLayerName);
    VkApplicationInfo app = vku::InitStructHelper();
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info = vku::InitStructHelper();
    info.pNext = setup.options.instance_next;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(setup.options.instance_extensions.size());
    info.ppEnabledExtensionNames = setup.options.instance_extensions.data();
    VkInstance instance = VK_NULL_HANDLE;
    check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance (probe)");
    volkLoadInstance(instance);
    DeviceFacts facts;
    try {
        uint32_t count = 1;
        VkPhysicalDevice physical_device = VK_NULL_HANDLE;
        const VkResult result = vkEnumeratePhysicalDevices(instance, &count, &physical_device);
        if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) throw std::runtime_error("no physical device");
        read_facts(physical_device, mode, facts);
    } catch (...) {
        vkDestroyInstance(instance, nullptr);
        throw;
    }
    vkDestroyInstance(instance, nullptr);
    return facts;
}

std::string PipelineSpec::describe() const {
    std::ostringstream out;
    out << (words.empty() ? shader : "an assembled module") << (specialize ? " (specialized offline)" : "")
        << (optimize ? " (spirv-opt -O)" : "") << " with constants [";
    for (size_t i = 0; i < constants.size(); ++i) out << (i ? ", " : "") << constants[i];
    out << "]";
    return out.str();
}

CoopmatDevice::CoopmatDevice(Mode mode, const DeviceFacts& facts) : mode_(mode), facts_(facts) {
    const bool layer = mode != Mode::Native;
    if (layer) {
        spy_dir_ = std::make_unique<TempDir>();
        spy_env_ = std::make_unique<ScopedEnv>("VKPOLYFILL_SPY_DIR", spy_dir_->path().c_str());
    }
    InstanceSetup setup(mode, layer);
    FeatureChain features(facts);
    ContextOptions options = setup.options;
    options.device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME};
    options.device_features_next = &features.coopmat;
    options.device_features.shaderInt16 = VK_TRUE;  // 16-bit arithmetic types (uint16_t arrays) declare Int16
    context_ = std::make_unique<Context>(options);
    if (layer) {
        // What the layer says while lowering goes into failure messages.
        const VkDebugUtilsMessengerCreateInfoEXT info = messages_.create_info();
        check(vkCreateDebugUtilsMessengerEXT(context_->instance, &info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
    }
}

CoopmatDevice::~CoopmatDevice() {
    const Context& c = *context_;
    c.vk.vkDeviceWaitIdle(c.device);
    for (const ComputePipeline& p : pipelines_) {
        c.vk.vkDestroyPipeline(c.device, p.pipeline, nullptr);
        c.vk.vkDestroyPipelineLayout(c.device, p.layout, nullptr);
        c.vk.vkDestroyDescriptorSetLayout(c.device, p.set_layout, nullptr);
        c.vk.vkDestroyShaderModule(c.device, p.module, nullptr);
    }
    for (const Buffer& b : buffers_) {
        c.vk.vkDestroyBuffer(c.device, b.buffer, nullptr);
        c.vk.vkFreeMemory(c.device, b.memory, nullptr);
    }
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(c.instance, messenger_, nullptr);
}

Buffer CoopmatDevice::buffer(VkDeviceSize size) {
    const Context& c = *context_;
    Buffer& b = buffers_.emplace_back();  // destroyed with the device, even when this throws
    b.size = size;
    VkBufferCreateInfo info = vku::InitStructHelper();
    info.size = size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    check(c.vk.vkCreateBuffer(c.device, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    c.vk.vkGetBufferMemoryRequirements(c.device, b.buffer, &requirements);
    VkMemoryAllocateFlagsInfo flags = vku::InitStructHelper();
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate = vku::InitStructHelper(&flags);
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = find_host_visible_memory(c.physical_device, requirements.memoryTypeBits);
    check(c.vk.vkAllocateMemory(c.device, &allocate, nullptr, &b.memory), "vkAllocateMemory");
    check(c.vk.vkBindBufferMemory(c.device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(c.vk.vkMapMemory(c.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    std::memset(b.mapped, 0, size);
    return b;
}

VkDeviceAddress CoopmatDevice::address(const Buffer& buffer) const {
    VkBufferDeviceAddressInfo info = vku::InitStructHelper();
    info.buffer = buffer.buffer;
    return context_->vk.vkGetBufferDeviceAddress(context_->device, &info);
}

ComputePipeline CoopmatDevice::pipeline(const PipelineSpec& spec) {
    const Context& c = *context_;
    std::vector<uint32_t> words = spec.words.empty() ? read_shader(spec.shader) : spec.words;
    if (spec.specialize || spec.optimize) words = transformed(words, spec);

    ComputePipeline& p = pipelines_.emplace_back();  // destroyed with the device, even when this throws
    p.storage_buffers = spec.buffers;
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    check(c.vk.vkCreateShaderModule(c.device, &module_info, nullptr, &p.module), "vkCreateShaderModule");

    std::vector<VkDescriptorSetLayoutBinding> bindings(spec.buffers);
    for (uint32_t i = 0; i < spec.buffers; ++i) {
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.bindingCount = spec.buffers;
    set_info.pBindings = bindings.data();
    check(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &p.set_layout), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, spec.push_constant_bytes};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &p.set_layout;
    layout_info.pushConstantRangeCount = spec.push_constant_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &p.layout), "vkCreatePipelineLayout");

    std::vector<VkSpecializationMapEntry> entries;
    for (uint32_t i = 0; i < spec.constants.size(); ++i) {
        entries.push_back({i, static_cast<uint32_t>(i * sizeof(uint32_t)), sizeof(uint32_t)});
    }
    const VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(),
                                              spec.constants.size() * sizeof(uint32_t), spec.constants.data()};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_size = vku::InitStructHelper();
    subgroup_size.requiredSubgroupSize = facts_.subgroup_size;
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = vku::InitStructHelper(facts_.require_subgroup_size ? &subgroup_size : nullptr);
    info.stage.flags = facts_.require_subgroup_size ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = p.module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = p.layout;
    const VkResult result = c.vk.vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline);
    if (result != VK_SUCCESS) {
        throw PipelineCreationError("vkCreateComputePipelines failed (" + std::string(string_VkResult(result)) + ") for " +
                                 spec.describe() + (mode_ != Mode::Native ? "\nlayer messages:\n" + messages_.dump() : ""));
    }
    if (mode_ != Mode::Native) check_lowered(spec);
    return p;
}

void CoopmatDevice::check_lowered(const PipelineSpec& spec) const {
    // The newest SPIR-V the driver received (a module, or a stage's inline module) is what the
    // pipeline was made from.
    std::vector<std::filesystem::path> records = spy_dir_->files_ending_with(".spv");
    if (records.empty()) throw std::runtime_error("the spy layer recorded no SPIR-V for " + spec.describe());
    std::ranges::sort(records);
    if (declares_cooperative_matrix(read_words(records.back()))) {
        throw std::runtime_error("the module reached the driver still declaring CooperativeMatrixKHR: the layer did not "
                                 "lower " + spec.describe() + " (" + std::string(mode_name(mode_)) + " mode)");
    }
}

void CoopmatDevice::dispatch(const ComputePipeline& pipeline, std::span<const Buffer* const> buffers,
                             std::span<const std::byte> push_constants, uint32_t groups_x) {
    context_->dispatch(pipeline, buffers, push_constants, groups_x);
}

std::vector<std::vector<std::byte>> CoopmatDevice::run(const PipelineSpec& spec,
                                                       const std::vector<std::vector<std::byte>>& contents,
                                                       std::span<const std::byte> push_constants, uint32_t groups_x) {
    const ComputePipeline p = pipeline(spec);
    std::vector<Buffer> buffers;
    std::vector<const Buffer*> bound;
    for (const std::vector<std::byte>& data : contents) {
        buffers.push_back(buffer(data.size()));
        std::memcpy(buffers.back().mapped, data.data(), data.size());
    }
    for (const Buffer& b : buffers) bound.push_back(&b);
    dispatch(p, bound, push_constants, groups_x);
    std::vector<std::vector<std::byte>> after;
    for (const Buffer& b : buffers) {
        const auto* bytes = static_cast<const std::byte*>(b.mapped);
        after.emplace_back(bytes, bytes + b.size);
    }
    return after;
}

}  // namespace vkpolyfill::test::coopmat
