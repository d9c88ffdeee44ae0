// A small Vulkan harness for the tests: an instance and device on the driver under test (through
// the real loader, with or without the layer), buffers, compute dispatches and readback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

namespace vkpolyfill::test {

inline constexpr char kLayerName[] = "VK_LAYER_POLYFILL_extensions";
inline constexpr char kSpyLayerName[] = "VK_LAYER_VKPOLYFILL_spy";
inline constexpr char kValidationLayerName[] = "VK_LAYER_KHRONOS_validation";

// Whether this run puts the Khronos validation layer nearest the driver, under every context's other
// layers (VKPOLYFILL_TEST_VALIDATION=1, ctest's validation.* tests), so that it checks what reaches the
// driver: the layer's own calls and what it rewrites. It reports on stdout, which those tests watch.
bool validation_requested();

// "plain" (lavapipe 25, none of the seed extensions) or "native" (lavapipe 26, native coopmat).
const std::string& driver_name();

// Throws std::runtime_error naming `what` unless result is VK_SUCCESS.
void check(VkResult result, const char* what);

// A host-visible, coherent memory type among `type_bits`; throws if there is none.
uint32_t find_host_visible_memory(VkPhysicalDevice physical_device, uint32_t type_bits);

// Whether vkEnumerateDeviceExtensionProperties lists `extension` (with whatever layers are enabled).
bool lists_device_extension(VkPhysicalDevice physical_device, std::string_view extension);

// Test shaders whose workgroup is one subgroup declare its size as this specialization constant
// (`layout(local_size_x = 8, local_size_x_id = 90) in;`): Context::create_compute_pipeline and the
// library lowering of the tests (library_lowering.h) give it the device's subgroup size, so the shaders
// run at lavapipe's every subgroup size (4, 8, 16 with LP_NATIVE_VECTOR_WIDTH 128, 256, 512).
inline constexpr uint32_t kSubgroupWorkgroupConstant = 90;

// Whether `spirv` decorates a specialization constant with SpecId `spec_id`.
bool declares_spec_id(std::span<const uint32_t> spirv, uint32_t spec_id);

// A pipeline's specialization: the caller's constants (`given`, may be null), and the subgroup size as
// kSubgroupWorkgroupConstant where the module declares that one and the caller did not give it (only
// then: other pipelines keep the application's exact info).
class Specialization {
  public:
    Specialization(std::span<const uint32_t> spirv, const VkSpecializationInfo* given, uint32_t subgroup_size);
    Specialization(const Specialization&) = delete;
    Specialization& operator=(const Specialization&) = delete;
    VkSpecializationInfo info{};

  private:
    std::vector<VkSpecializationMapEntry> entries_;
    std::vector<std::byte> data_;
};

struct ContextOptions {
    bool layer = true;  // VK_LAYER_POLYFILL_extensions
    bool spy = false;   // the recording layer below it (tests/spy_layer)
    std::vector<const char*> instance_extensions{};
    std::vector<const char*> device_extensions{};
    const void* instance_next = nullptr;  // chained to VkInstanceCreateInfo
    void* device_features_next = nullptr;  // chained behind VkPhysicalDeviceFeatures2 at vkCreateDevice
    VkPhysicalDeviceFeatures device_features{};  // VkPhysicalDeviceFeatures2::features at vkCreateDevice
    uint32_t api_version = VK_API_VERSION_1_3;
};

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr;

    template <typename T>
    std::span<T> as() const {
        return {static_cast<T*>(mapped), static_cast<size_t>(size / sizeof(T))};
    }
};

struct ComputePipeline {
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    uint32_t storage_buffers = 0;
};

class Context {
  public:
    explicit Context(const ContextOptions& options);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VolkDeviceTable vk{};
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    uint32_t subgroup_size = 0;  // VkPhysicalDeviceSubgroupProperties::subgroupSize

    // Host-visible, coherent storage buffer (also for `extra_usage`; with a device address where that
    // has VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT).
    Buffer create_buffer(VkDeviceSize size, VkBufferUsageFlags extra_usage = 0);
    // The device address of a buffer made with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.
    VkDeviceAddress address(const Buffer& buffer) const;
    // A shader module of `spirv`, for the caller to destroy.
    VkShaderModule create_module(std::span<const uint32_t> spirv);
    // A descriptor set of `layout` from the context's pool, bindings 0..n-1 the storage buffers
    // `buffers` (freed with the pool, or by the caller).
    VkDescriptorSet storage_buffer_set(VkDescriptorSetLayout layout, std::span<const Buffer* const> buffers);
    // A compute pipeline whose set 0 has `storage_buffers` storage buffers at bindings 0..n-1,
    // specialized as Specialization says.
    ComputePipeline create_compute_pipeline(std::span<const uint32_t> spirv, uint32_t storage_buffers,
                                            uint32_t push_constant_bytes,
                                            const VkSpecializationInfo* specialization = nullptr,
                                            VkPipelineCreateFlags flags = 0);
    // Records with `record` into a fresh command buffer (then a barrier making every write visible to
    // the host), submits it and waits.
    void run(const std::function<void(VkCommandBuffer)>& record);
    // Binds the buffers in order, pushes the constants, dispatches and waits.
    void dispatch(const ComputePipeline& pipeline, std::span<const Buffer* const> buffers,
                  std::span<const std::byte> push_constants, uint32_t groups_x, uint32_t groups_y = 1,
                  uint32_t groups_z = 1);

  private:
    std::vector<Buffer> buffers_;
    std::vector<ComputePipeline> pipelines_;
    VkCommandPool command_pool_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
};

// A compiled test shader, by its path under shaders/ (e.g. "tests/vector_add.comp").
std::vector<uint32_t> read_shader(const std::string& path);
// A shader object of `code` (SPIR-V, entry point "main"), which must outlive the create info.
VkShaderCreateInfoEXT spirv_shader_info(VkShaderStageFlagBits stage, const std::vector<uint32_t>& code);

}  // namespace vkpolyfill::test
