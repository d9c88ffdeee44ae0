#include "implicit_cooperative_matrix2.h"

#include <algorithm>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/type_manager.h"
#include "specialization.h"

namespace vkpolyfill::lowering {
namespace {

// The component types a matrix's component type can be in a configuration (an integer's signedness
// is the multiply-add's to say, so both).
std::vector<ComponentType> component_types(const ir::Module& module, uint32_t type_id) {
    const ir::Instruction* type = module.find_definition(type_id);
    if (!type) return {};
    if (type->opcode() == spv::OpTypeFloat) {
        const uint32_t width = type->word(2);
        const std::optional<uint32_t> encoding = type->words().size() > 3 ? std::optional(type->word(3)) : std::nullopt;
        if (encoding == spv::FPEncodingBFloat16KHR) return {ComponentType::BFloat16};
        if (encoding == spv::FPEncodingFloat8E4M3EXT) return {ComponentType::Float8E4M3};
        if (encoding == spv::FPEncodingFloat8E5M2EXT) return {ComponentType::Float8E5M2};
        if (width == 16) return {ComponentType::Float16};
        if (width == 32) return {ComponentType::Float32};
        return {};
    }
    if (type->opcode() != spv::OpTypeInt) return {};
    switch (type->word(2)) {
        case 8: return {ComponentType::SInt8, ComponentType::UInt8};
        case 16: return {ComponentType::SInt16, ComponentType::UInt16};
        case 32: return {ComponentType::SInt32, ComponentType::UInt32};
        default: return {};
    }
}

// Whether one of the configurations has a matrix of these rows, columns, use and component.
bool offered(std::span<const CooperativeMatrixConfiguration> configurations, uint32_t rows, uint32_t columns, uint64_t use,
             const std::vector<ComponentType>& components) {
    const auto has = [&](ComponentType type) { return std::ranges::find(components, type) != components.end(); };
    return std::ranges::any_of(configurations, [&](const CooperativeMatrixConfiguration& c) {
        switch (use) {
            case 0: return c.m == rows && c.k == columns && has(c.a);
            case 1: return c.k == rows && c.n == columns && has(c.b);
            case 2: return c.m == rows && c.n == columns && (has(c.c) || has(c.result));
            default: return false;
        }
    });
}

}  // namespace

bool uses_cooperative_matrix2_implicitly(const ir::Module& module, const Target& target,
                                         std::span<const SpecializationValue> specialization) {
    const bool driver_shapes = !target.native_matrices.empty() && !(target.emulate & bit(Emulated::KhrCooperativeMatrix));
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpTypeCooperativeMatrixKHR) continue;
        if (evaluate_constant(module, instruction->word(3), specialization) != uint64_t{spv::ScopeSubgroup}) return true;
        if (!driver_shapes) continue;
        const std::optional<uint64_t> rows = evaluate_constant(module, instruction->word(4), specialization);
        const std::optional<uint64_t> columns = evaluate_constant(module, instruction->word(5), specialization);
        const std::optional<uint64_t> use = evaluate_constant(module, instruction->word(6), specialization);
        if (!rows || !columns || !use ||
            !offered(target.native_matrices, static_cast<uint32_t>(*rows), static_cast<uint32_t>(*columns), *use,
                     component_types(module, instruction->word(2)))) {
            return true;
        }
    }
    return false;
}

}  // namespace vkpolyfill::lowering
