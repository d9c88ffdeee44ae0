// What the KHR cooperative-matrix lowering implements, for the layer to report
// (VkCooperativeMatrixPropertiesKHR) and for tests to enumerate.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace vkpolyfill::lowering {

// Component types with VkComponentTypeKHR's meaning (the layer maps them; no Vulkan header here).
enum class ComponentType : uint32_t {
    Float16,
    Float32,
    BFloat16,
    Float8E4M3,
    Float8E5M2,
    SInt8,
    UInt8,
    SInt16,
    UInt16,
    SInt32,
    UInt32,
};

std::string_view to_string(ComponentType type);

// Scalar arithmetic the device has: a configuration is offered only if its component types can be
// computed with it (the lowered code keeps the module's own narrow types).
struct ArithmeticSupport {
    bool float16 = false;   // shaderFloat16
    bool int8 = false;      // shaderInt8
    bool bfloat16 = false;  // shaderBFloat16Type
};

// One subgroup-scope MxNxK multiply-add: A is MxK, B is KxN, C and Result are MxN.
struct CooperativeMatrixConfiguration {
    uint32_t m, n, k;
    ComponentType a, b, c, result;
    bool saturating_accumulation;
};

// The configurations the lowering offers at a fixed subgroup size: a fixed list (the shapes real
// clients look for) filtered by the device's arithmetic and by what the lane layout can spread over
// that many invocations.
std::vector<CooperativeMatrixConfiguration> cooperative_matrix_configurations(uint32_t subgroup_size,
                                                                              const ArithmeticSupport& support);

// A flexible-dimension configuration (VK_NV_cooperative_matrix2): any M, N, K that are multiples
// of the granularities. `workgroup_invocations` 0 means subgroup scope.
struct FlexibleConfiguration {
    uint32_t m_granularity, n_granularity, k_granularity;
    ComponentType a, b, c, result;
    bool saturating_accumulation;
    uint32_t workgroup_invocations;
};

// What the lowering offers for VK_NV_cooperative_matrix2: subgroup scope, and workgroup scope with
// 128 and 256 invocations (where the device allows that many), f16 with f16 or f32 accumulators,
// bf16 with f32 where the device computes bf16.
std::vector<FlexibleConfiguration> flexible_configurations(uint32_t subgroup_size, uint32_t max_workgroup_invocations,
                                                           const ArithmeticSupport& support);

// Whether a subgroup-scope matrix of `rows` x `columns` with the given use (0 = A, 1 = B,
// 2 = accumulator) can be laid out over `subgroup_size` invocations.
bool cooperative_matrix_shape_supported(uint32_t rows, uint32_t columns, uint32_t use, uint32_t subgroup_size);

// What of SPV_NV_cooperative_matrix2 a module uses, feature bit by feature bit, so the layer can leave
// a module to a driver that has only some of the bits: the bits its capabilities need, and whether a
// matrix type has workgroup scope (or a scope a specialization constant decides). `other`: a
// capability of the extension no feature bit covers here. Cheap enough for vkCreateShaderModule: one
// pass over the words up to the first function.
struct CooperativeMatrix2Use {
    bool workgroup_scope = false;
    bool reductions = false;
    bool conversions = false;
    bool per_element_operations = false;
    bool tensor_addressing = false;
    bool block_loads = false;
    bool other = false;
};
// nullopt for a module too malformed to read (lower() says why).
std::optional<CooperativeMatrix2Use> cooperative_matrix2_use(std::span<const uint32_t> words);

}  // namespace vkpolyfill::lowering
