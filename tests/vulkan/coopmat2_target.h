// What the SPV_NV_cooperative_matrix2 tests that lower with the library (no layer) share: the
// device's subgroup size and the Target emulating cooperative matrices and tensor addressing on it;
// and the device the block-load (decode function) tests create, with the library or the layer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "vkpolyfill/lowering/lower.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {

// The features the block-load shaders need (16-bit storage, f16, int8 and int16, the memory model, buffer
// addresses, which decode functions take) and, through the layer, the cooperative-matrix extensions
// with the bits they use (and VK_NV_cooperative_matrix_decode_vector when `decode_vector`).
class BlockLoadFeatures {
  public:
    BlockLoadFeatures();
    BlockLoadFeatures(const BlockLoadFeatures&) = delete;
    BlockLoadFeatures& operator=(const BlockLoadFeatures&) = delete;
    ContextOptions options(bool through_layer, bool decode_vector = false);

  private:
    VkPhysicalDeviceVulkan11Features v11_{};
    VkPhysicalDeviceVulkan12Features v12_{};
    VkPhysicalDeviceVulkan13Features v13_{};  // maintenance4: the shaders' workgroup is LocalSizeId (one subgroup)
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat_{};
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2_{};
    VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV decode_vector_{};
};

// The cooperative-matrix features the subgroup and workgroup shaders ask the layer for: KHR's, then
// NV2's flexible dimensions, reductions, conversions and per-element operations, and workgroup scope
// when `workgroup_scope`. head() is the chain's first struct.
class Coopmat2ComputeFeatures {
  public:
    explicit Coopmat2ComputeFeatures(bool workgroup_scope);
    Coopmat2ComputeFeatures(const Coopmat2ComputeFeatures&) = delete;
    Coopmat2ComputeFeatures& operator=(const Coopmat2ComputeFeatures&) = delete;
    void* head() { return &coopmat_; }

  private:
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat_{};
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2_{};
};

uint32_t subgroup_size(VkPhysicalDevice physical_device);

lowering::Target coopmat2_target(VkPhysicalDevice physical_device, uint32_t max_shared_memory_bytes);

// One dispatch of a block-load shader (shaders/tests/coopmat2/tensor_decode*.comp). Its bindings, in
// order: the parameters, one buffer per entry of `weights`, B (f16) and the float results, which start
// as kUntouched. Lowered by the library (and checked) unless the layer lowers it.
struct BlockLoadRun {
    std::string shader;  // under the compiled shader directory
    uint32_t op;         // specialization constant 0
    std::vector<uint32_t> params;
    std::vector<std::span<const uint8_t>> weights;
    std::vector<float> b;
    size_t outputs;
    uint32_t groups_x = 1, groups_y = 1;
    bool through_layer = false;
    bool decode_vector = false;  // the shader declares SPV_NV_cooperative_matrix_decode_vector
};
constexpr float kUntouched = -7.0f;

// The results; empty when the module did not lower (the test has failed then).
std::vector<float> run_block_load(const BlockLoadRun& run);

}  // namespace vkpolyfill::test
