// What the parts of the KHR cooperative-matrix pass share while lowering one module: the matrix
// types, the invocation's lane in the subgroup, and the functions generated so far (one per
// distinct signature, reused by every call site that needs it).
#pragma once

#include <cstdint>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/builder.h"
#include "passes/cooperative_matrix/matrix_types.h"
#include "passes/cooperative_matrix/tensor_layout_values.h"
#include "passes/cooperative_matrix/tensor_types.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct LoweringState {
    explicit LoweringState(PassContext& pass_context) : context(pass_context) {}

    PassContext& context;
    MatrixTypes matrices;
    TensorTypes tensors;  // SPV_NV_tensor_addressing layouts and views
    TensorLayoutValues layout_values;  // what the module fixes of the layouts its accesses use

    ir::Module& module() { return context.module; }
    ir::TypeManager& types() { return context.types; }
    uint32_t uint_type() { return context.types.get_type_int(32, false); }
    uint32_t uint_constant(uint32_t value) { return context.types.get_constant_uint32(value); }

    // Loads this invocation's SubgroupLocalInvocationId (declaring the built-in on first use).
    uint32_t load_lane(ir::Builder& builder) { return load_builtin(builder, spv::BuiltInSubgroupLocalInvocationId); }
    // Loads a uint Input built-in (SubgroupId, ...), declaring it on first use.
    uint32_t load_builtin(ir::Builder& builder, spv::BuiltIn builtin);

    // A generated function by its key (the words that fully describe what it does), 0 if none yet.
    uint32_t find_function(const std::vector<uint32_t>& key) const;
    void remember_function(std::vector<uint32_t> key, uint32_t function) { functions_.emplace(std::move(key), function); }

    // A subgroup-scope OpTypeCooperativeMatrixKHR that stays in the output, for the driver's matrix
    // units (matrix_units.h): declared under an id of its own, never one of the module's matrix types
    // (those become arrays), and the module then keeps SPV_KHR_cooperative_matrix.
    uint32_t unit_matrix_type(uint32_t component_type, uint32_t rows, uint32_t columns, Use use);
    bool uses_matrix_units() const { return !unit_types_.empty(); }

  private:
    std::map<uint32_t, uint32_t> builtins_;  // built-in -> its Input variable
    std::map<std::vector<uint32_t>, uint32_t> functions_;
    std::map<std::vector<uint32_t>, uint32_t> unit_types_;  // component, rows, columns, use -> type
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
