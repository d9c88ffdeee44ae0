#include "coopmat_configurations.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "coverage_tags.h"

namespace vkpolyfill::test::coopmat {
namespace {

constexpr Component kF16 = VK_COMPONENT_TYPE_FLOAT16_KHR;
constexpr Component kF32 = VK_COMPONENT_TYPE_FLOAT32_KHR;
constexpr Component kS8 = VK_COMPONENT_TYPE_SINT8_KHR;
constexpr Component kU8 = VK_COMPONENT_TYPE_UINT8_KHR;
constexpr Component kS32 = VK_COMPONENT_TYPE_SINT32_KHR;
constexpr Component kU32 = VK_COMPONENT_TYPE_UINT32_KHR;

constexpr std::array kRequired = {
    Configuration{16, 16, 16, kF16, kF16, kF32, kF32}, Configuration{16, 16, 16, kF16, kF16, kF16, kF16},
    Configuration{16, 8, 16, kF16, kF16, kF32, kF32},  Configuration{16, 8, 16, kF16, kF16, kF16, kF16},
    Configuration{16, 8, 8, kF16, kF16, kF32, kF32},   Configuration{16, 8, 8, kF16, kF16, kF16, kF16},
    Configuration{8, 8, 8, kF16, kF16, kF32, kF32},    Configuration{8, 8, 8, kF16, kF16, kF16, kF16},
    Configuration{16, 16, 32, kS8, kS8, kS32, kS32},   Configuration{16, 16, 32, kS8, kS8, kS32, kS32, true},
    Configuration{16, 16, 32, kU8, kU8, kU32, kU32},   Configuration{16, 16, 32, kU8, kU8, kU32, kU32, true},
};

// The required list, then lavapipe's native int8 entries and mixed signedness (run where reported).
constexpr auto kCovered = [] {
    std::array<Configuration, kRequired.size() + 4> all{};
    std::ranges::copy(kRequired, all.begin());
    all[kRequired.size() + 0] = {8, 8, 8, kS8, kS8, kS32, kS32};
    all[kRequired.size() + 1] = {8, 8, 8, kU8, kU8, kU32, kU32};
    all[kRequired.size() + 2] = {16, 16, 32, kS8, kU8, kS32, kS32};
    all[kRequired.size() + 3] = {16, 16, 32, kU8, kS8, kS32, kS32};
    return all;
}();

}  // namespace

std::string shape_name(const Configuration& c) {
    return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
}

std::string types_name(const Configuration& c) {
    std::string name(component_name(c.a));
    if (c.b != c.a) name += "_" + std::string(component_name(c.b));
    name += "_" + std::string(component_name(c.c));
    if (c.result != c.c) name += "_" + std::string(component_name(c.result));
    return name;
}

std::string describe(const Configuration& c) {
    std::string text = shape_name(c) + " " + std::string(component_name(c.a)) + "*" + std::string(component_name(c.b)) +
                       "+" + std::string(component_name(c.c)) + "->" + std::string(component_name(c.result));
    if (c.saturating) text += " saturating";
    if (c.scope != VK_SCOPE_SUBGROUP_KHR) text += " scope " + std::to_string(c.scope);
    return text;
}

std::span<const Configuration> covered_configurations() { return kCovered; }
std::span<const Configuration> required_configurations() { return kRequired; }

std::string_view use_name(Use use) {
    switch (use) {
        case Use::A: return "A";
        case Use::B: return "B";
        case Use::Accumulator: return "accumulator";
    }
    return "?";
}

std::string matrix_name(const MatrixType& m) {
    return std::string(use_name(m.use)) + "_" + std::to_string(m.rows) + "x" + std::to_string(m.cols);
}

std::vector<MatrixType> matrices_of(const Configuration& c) {
    return {{Use::A, c.a, c.m, c.k}, {Use::B, c.b, c.k, c.n}, {Use::Accumulator, c.c, c.m, c.n},
            {Use::Accumulator, c.result, c.m, c.n}};
}

std::vector<MatrixType> covered_matrix_types() {
    std::vector<MatrixType> types;
    for (const Configuration& c : kCovered) {
        for (const MatrixType& m : matrices_of(c)) {
            if (std::ranges::find(types, m) == types.end()) types.push_back(m);
        }
    }
    return types;
}

std::vector<MatrixType> representatives(const std::vector<MatrixType>& types) {
    std::vector<MatrixType> chosen;
    for (const MatrixType& m : types) {
        const bool largest = std::ranges::none_of(types, [&](const MatrixType& o) {
            return o.use == m.use && o.type == m.type && o.rows * o.cols > m.rows * m.cols;
        });
        if (largest || (m.rows == 8 && m.cols == 8)) chosen.push_back(m);
    }
    return chosen;
}

std::vector<MatrixType> two_per_type(const std::vector<MatrixType>& types) {
    // Accumulators rank first, then B, then A; then the larger.
    const auto rank = [](const MatrixType& m) {
        return std::pair{m.use == Use::Accumulator ? 2 : m.use == Use::B ? 1 : 0, m.rows * m.cols};
    };
    std::vector<MatrixType> chosen;
    for (const MatrixType& m : types) {
        if (std::ranges::any_of(chosen, [&](const MatrixType& o) { return o.type == m.type; })) continue;
        MatrixType largest = m;
        const MatrixType* small = nullptr;
        for (const MatrixType& o : types) {
            if (o.type != m.type) continue;
            if (rank(o) > rank(largest)) largest = o;
            if (small == nullptr && o.rows == 8 && o.cols == 8) small = &o;
        }
        chosen.push_back(largest);
        if (small != nullptr && !(*small == largest)) chosen.push_back(*small);
    }
    return chosen;
}

std::vector<Configuration> query_configurations(VkPhysicalDevice physical_device) {
    covers("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    uint32_t count = 0;
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(physical_device, &count, nullptr);
    std::vector<VkCooperativeMatrixPropertiesKHR> properties(count, vku::InitStruct<VkCooperativeMatrixPropertiesKHR>());
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(physical_device, &count, properties.data());
    std::vector<Configuration> configurations;
    for (uint32_t i = 0; i < count; ++i) {
        const VkCooperativeMatrixPropertiesKHR& p = properties[i];
        configurations.push_back({p.MSize, p.NSize, p.KSize, p.AType, p.BType, p.CType, p.ResultType,
                                  p.saturatingAccumulation == VK_TRUE, p.scope});
    }
    return configurations;
}

bool declarable(const MatrixType& matrix, std::span<const Configuration> reported_list) {
    return std::ranges::any_of(reported_list, [&](const Configuration& c) {
        if (c.scope != VK_SCOPE_SUBGROUP_KHR) return false;
        return std::ranges::any_of(matrices_of(c), [&](const MatrixType& m) { return m == matrix; });
    });
}

bool reported(const Configuration& configuration, std::span<const Configuration> list) {
    return std::ranges::find(list, configuration) != list.end();
}

Component component_of(lowering::ComponentType type) {
    switch (type) {
        case lowering::ComponentType::Float16: return VK_COMPONENT_TYPE_FLOAT16_KHR;
        case lowering::ComponentType::Float32: return VK_COMPONENT_TYPE_FLOAT32_KHR;
        case lowering::ComponentType::BFloat16: return VK_COMPONENT_TYPE_BFLOAT16_KHR;
        case lowering::ComponentType::SInt8: return VK_COMPONENT_TYPE_SINT8_KHR;
        case lowering::ComponentType::UInt8: return VK_COMPONENT_TYPE_UINT8_KHR;
        case lowering::ComponentType::SInt32: return VK_COMPONENT_TYPE_SINT32_KHR;
        case lowering::ComponentType::UInt32: return VK_COMPONENT_TYPE_UINT32_KHR;
        default: throw std::runtime_error("a component type this test does not map");
    }
}

}  // namespace vkpolyfill::test::coopmat
