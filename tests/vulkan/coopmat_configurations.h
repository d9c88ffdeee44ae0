// The cooperative-matrix configurations the tests know how to exercise, their names, and what a
// device reports through vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <vkpolyfill/lowering/cooperative_matrix.h>
#include <volk.h>

#include "coopmat_scalars.h"

namespace vkpolyfill::test::coopmat {

// One subgroup-scope MxNxK multiply-add: A is MxK, B is KxN, C and Result are MxN.
struct Configuration {
    uint32_t m, n, k;
    Component a, b, c, result;
    bool saturating = false;
    VkScopeKHR scope = VK_SCOPE_SUBGROUP_KHR;

    bool operator==(const Configuration&) const = default;
};

// The Vulkan name of a component type of the lowering's configuration lists (written out here, not
// taken from the layer, so reporting tests compare against an independent mapping).
Component component_of(lowering::ComponentType type);

// "16x16x16".
std::string shape_name(const Configuration& configuration);
// "float16_float32" (A and B alike, C and Result alike), else every distinct type in order:
// "sint8_uint8_sint32".
std::string types_name(const Configuration& configuration);
// Everything, for messages: "16x16x16 float16*float16+float32->float32 saturating".
std::string describe(const Configuration& configuration);

// The configurations the tests have cases for: what issue [K] asks the layer to report (16x16x16,
// 16x8x16, 16x8x8 and 8x8x8 f16 with f16 or f32 accumulators; 16x16x32 s8/u8, saturating or not),
// what lavapipe reports natively (8x8x8 f16, s8, u8) and mixed-signedness int8 products.
std::span<const Configuration> covered_configurations();
// The subset issue [K] requires the layer to report on any device with f16 and int8 arithmetic.
std::span<const Configuration> required_configurations();

enum class Use : uint32_t { A = 0, B = 1, Accumulator = 2 };

// A matrix type: what OpTypeCooperativeMatrixKHR declares (subgroup scope).
struct MatrixType {
    Use use;
    Component type;
    uint32_t rows, cols;

    bool operator==(const MatrixType&) const = default;
};

// "A_16x32", "accumulator_8x8".
std::string matrix_name(const MatrixType& matrix);
std::string_view use_name(Use use);
// A (MxK), B (KxN), C and Result (MxN) of a configuration.
std::vector<MatrixType> matrices_of(const Configuration& configuration);
// Every distinct matrix type of the covered configurations, in list order.
std::vector<MatrixType> covered_matrix_types();

// Of `types`, per use and component type, the largest shape and 8x8 (the size lavapipe runs
// natively): where a dimension of the cases is worth crossing with only a few shapes.
std::vector<MatrixType> representatives(const std::vector<MatrixType>& types);

// Of `types`, per component type, the largest accumulator (else the largest B, else A) and the
// first 8x8: for cases about values and the language (arithmetic, constants, functions, control
// flow) rather than about how a use is laid out, which Length and LoadStore cover per use.
std::vector<MatrixType> two_per_type(const std::vector<MatrixType>& types);

// What the device answers (subgroup and other scopes alike); the caller made sure the extension
// is there, so the entry point exists.
std::vector<Configuration> query_configurations(VkPhysicalDevice physical_device);

// Whether a shader may declare `matrix` on a device reporting `reported`: its use, component type,
// rows and columns must be those of one of the matrices of a subgroup-scope entry (A: MxK of AType,
// B: KxN of BType, accumulator: MxN of CType or ResultType; VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163).
bool declarable(const MatrixType& matrix, std::span<const Configuration> reported);
bool reported(const Configuration& configuration, std::span<const Configuration> list);

}  // namespace vkpolyfill::test::coopmat
