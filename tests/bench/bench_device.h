// A Vulkan device for the benchmark, on the loader's driver, without the layer or through it (Route).
// It enables what the GEMM shaders need where the device has it, and says whether f16 x f16 -> f32
// cooperative matrices of a shape (and scope) can run, and if not, why.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "debug_messages.h"
#include "vulkan_context.h"

namespace vkpolyfill::bench {

// Without the layer; through it, forcing both emulations; through it, the application enabling only
// what the driver itself offers (so the layer emulates nothing and passes every shader through).
enum class Route { Native, Emulated, PassThrough };

struct MatrixShape {
    uint32_t m = 0, n = 0, k = 0;
    std::string name() const;  // "8x8x8"
};

class BenchDevice {
  public:
    explicit BenchDevice(Route route);
    ~BenchDevice();
    BenchDevice(const BenchDevice&) = delete;
    BenchDevice& operator=(const BenchDevice&) = delete;

    test::Context& context() { return *context_; }
    const Route route;
    std::string device_name;
    bool cpu_device = false;  // VK_PHYSICAL_DEVICE_TYPE_CPU (lavapipe)
    uint32_t subgroup_size = 0;
    bool require_subgroup_size = false;   // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo for compute
    bool require_full_subgroups = false;  // VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
    double timestamp_period_ns = 0;       // 0: the queue has no timestamps
    uint64_t timestamp_mask = 0;
    // pipelineExecutableInfo is on: pipelines created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
    // report the compiler's statistics (pipeline_statistics.h).
    bool captures_statistics = false;

    // Empty when subgroup-scope f16 x f16 -> f32 matrices of `shape` can run here: natively on the
    // native route, emulated by the layer on the emulated route. Otherwise the reason.
    std::string coopmat_unavailable(const MatrixShape& shape) const;
    // The same for VK_NV_cooperative_matrix2's flexible dimensions: matrices whose sizes are
    // multiples of a listed granularity, at subgroup scope (workgroup_invocations 0) or workgroup scope.
    std::string flexible_unavailable(const MatrixShape& shape, uint32_t workgroup_invocations) const;
    // What the layer reported at warning or error severity so far (failure reasons).
    std::string layer_problems() const;

  private:
    void read_properties(const VkPhysicalDeviceVulkan13Features& enabled);
    void read_coopmat2(bool offered, const VkPhysicalDeviceCooperativeMatrix2FeaturesNV& enabled);
    std::string why_not_emulated(const char* extension) const;  // empty when the layer emulates it on this device

    test::DebugMessages messages_;
    std::unique_ptr<test::Context> context_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;  // through the layer: its later messages
    std::string coopmat_missing_;  // why the device has no usable VK_KHR_cooperative_matrix at all
    std::vector<VkCooperativeMatrixPropertiesKHR> shapes_;
    std::string coopmat2_missing_;  // why the device has no usable VK_NV_cooperative_matrix2 at all
    bool workgroup_scope_ = false, flexible_dimensions_ = false;  // enabled
    uint32_t max_workgroup_scope_invocations_ = 0;
    std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> flexible_shapes_;
};

}  // namespace vkpolyfill::bench
