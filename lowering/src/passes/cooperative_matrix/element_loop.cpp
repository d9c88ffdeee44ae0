#include "passes/cooperative_matrix/element_loop.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::cooperative_matrix {
bool unrolls(const LoweringState& state, uint32_t count) { return count <= state.context.target.unroll_up_to; }

void repeat(LoweringState& state, ir::FunctionBuilder& function, uint32_t count, const std::function<void(const Iteration&)>& body) {
    if (unrolls(state, count)) {
        for (uint32_t i = 0; i < count; ++i) body(Iteration{state.uint_constant(i), i});
        return;
    }
    const uint32_t index = function.begin_loop(state.uint_constant(count));
    body(Iteration{index, std::nullopt});
    function.end_loop();
}

uint32_t fold(LoweringState& state, ir::FunctionBuilder& function, uint32_t count, uint32_t type,
              const std::function<uint32_t(const Iteration&)>& value, const std::function<uint32_t(uint32_t, uint32_t)>& combine) {
    uint32_t accumulated = value(Iteration{state.uint_constant(0), 0});
    if (unrolls(state, count)) {
        for (uint32_t i = 1; i < count; ++i) accumulated = combine(accumulated, value(Iteration{state.uint_constant(i), i}));
        return accumulated;
    }
    const uint32_t variable = function.add_variable(state.types().get_type_pointer(spv::StorageClassFunction, type));
    function.body().add(spv::OpStore, 0, {variable, accumulated});
    const uint32_t u = state.uint_type();
    const uint32_t i = function.begin_loop(state.uint_constant(count - 1));
    const uint32_t next = function.body().add(spv::OpIAdd, u, {i, state.uint_constant(1)});
    const uint32_t so_far = function.body().add(spv::OpLoad, type, {variable});
    const uint32_t combined = combine(so_far, value(Iteration{next, std::nullopt}));
    function.body().add(spv::OpStore, 0, {variable, combined});
    function.end_loop();
    return function.body().add(spv::OpLoad, type, {variable});
}

Components::Components(LoweringState& state, ir::FunctionBuilder& function, uint32_t array_type, uint32_t component_type,
                       uint32_t count, uint32_t value)
    : state_(state), function_(function), array_type_(array_type), component_type_(component_type) {
    if (unrolls(state, count)) {
        value_ = value;
        return;
    }
    variable_ = function.add_variable(state.types().get_type_pointer(spv::StorageClassFunction, array_type));
    if (value) function.body().add(spv::OpStore, 0, {variable_, value});
}

uint32_t Components::pointer(const Iteration& i) {
    return function_.body().add(spv::OpAccessChain, state_.types().get_type_pointer(spv::StorageClassFunction, component_type_),
                                {variable_, i.index});
}

uint32_t Components::get(const Iteration& i) {
    if (variable_) return function_.body().add(spv::OpLoad, component_type_, {pointer(i)});
    return function_.body().add(spv::OpCompositeExtract, component_type_, {value_, *i.fixed});
}

void Components::set(const Iteration& i, uint32_t component) {
    if (variable_) {
        function_.body().add(spv::OpStore, 0, {pointer(i), component});
        return;
    }
    if (written_.size() <= *i.fixed) written_.resize(*i.fixed + 1);
    written_[*i.fixed] = component;
}

uint32_t Components::value() {
    if (variable_) return function_.body().add(spv::OpLoad, array_type_, {variable_});
    if (value_) return value_;
    return function_.body().add(spv::OpCompositeConstruct, array_type_, written_);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
