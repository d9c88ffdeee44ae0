// A device for the cooperative-matrix tests in one of three modes, on top of the harness Context:
//   Native   the driver's own VK_KHR_cooperative_matrix, no layer;
//   Emulated through the layer on a driver without it (the plain driver);
//   Forced   through the layer with force_emulation=VK_KHR_cooperative_matrix on a driver with it.
// Adds what the harness lacks: specialization constants, device-address buffers, required
// subgroup size, optional offline specialization or spirv-opt -O of a shader, and, in the layer
// modes, the proof (from the
// spy layer below the layer) that the module reaching the driver no longer uses cooperative
// matrices, so a layer that passes the module through cannot make a test pass.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "coopmat_configurations.h"
#include "debug_messages.h"
#include "scoped_env.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test::coopmat {

enum class Mode { Native, Emulated, Forced };

std::string_view mode_name(Mode mode);  // "Native", "Emulated", "Forced"

// What a mode's instance sees of the physical device, without creating a device.
struct DeviceFacts {
    bool extension = false;          // VK_KHR_cooperative_matrix in the device's extension list
    bool layer_advertises = false;   // ... among the layer's own extensions (layer modes)
    bool feature = false;            // VkPhysicalDeviceCooperativeMatrixFeaturesKHR::cooperativeMatrix
    VkShaderStageFlags stages = 0;   // cooperativeMatrixSupportedStages
    std::vector<Configuration> configurations;
    uint32_t subgroup_size = 0;
    bool require_subgroup_size = false;  // the device can fix compute subgroup sizes
};

DeviceFacts probe(Mode mode);

// vkCreateComputePipelines failed; what() names the shader, constants and the layer's messages.
struct PipelineCreationError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct PipelineSpec {
    std::string shader{};             // path under shaders/, e.g. "tests/coopmat/muladd_f16_f32.comp"
    std::vector<uint32_t> constants{};  // constant_id i = constants[i], 32 bits each
    uint32_t buffers = 0;             // storage buffers at bindings 0..n-1
    uint32_t push_constant_bytes = 0;
    // Freeze the specialization constants to `constants` and drop the code they disable before the
    // module is created, so a shader that selects one of several operations by a constant hands
    // the layer only that operation (a failure then names the right case).
    bool specialize = false;
    bool optimize = false;            // then run spirv-opt's performance passes (-O)
    std::vector<uint32_t> words{};    // the module itself, instead of `shader` (assembled by a test)

    std::string describe() const;
};

class CoopmatDevice {
  public:
    CoopmatDevice(Mode mode, const DeviceFacts& facts);
    ~CoopmatDevice();
    CoopmatDevice(const CoopmatDevice&) = delete;
    CoopmatDevice& operator=(const CoopmatDevice&) = delete;

    Mode mode() const { return mode_; }
    const DeviceFacts& facts() const { return facts_; }
    uint32_t subgroup_size() const { return facts_.subgroup_size; }

    // Host-visible, coherent, zero-filled storage buffer that also has a device address.
    Buffer buffer(VkDeviceSize size);
    VkDeviceAddress address(const Buffer& buffer) const;
    // Throws with the layer's messages when creation fails, or when a layer mode's module reaches
    // the driver still using cooperative matrices.
    ComputePipeline pipeline(const PipelineSpec& spec);
    void dispatch(const ComputePipeline& pipeline, std::span<const Buffer* const> buffers,
                  std::span<const std::byte> push_constants, uint32_t groups_x);
    // The whole round for shaders that need no buffer addresses: the pipeline, buffers holding
    // `contents` bound in order, one dispatch; returns every buffer's contents afterwards.
    std::vector<std::vector<std::byte>> run(const PipelineSpec& spec, const std::vector<std::vector<std::byte>>& contents,
                                            std::span<const std::byte> push_constants = {}, uint32_t groups_x = 1);

  private:
    void check_lowered(const PipelineSpec& spec) const;

    Mode mode_;
    DeviceFacts facts_;
    std::unique_ptr<TempDir> spy_dir_;
    std::unique_ptr<ScopedEnv> spy_env_;
    DebugMessages messages_;
    std::unique_ptr<Context> context_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    std::vector<Buffer> buffers_;
    std::vector<ComputePipeline> pipelines_;
};

}  // namespace vkpolyfill::test::coopmat
