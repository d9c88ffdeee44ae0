#include "ir/function_builder.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

FunctionBuilder::FunctionBuilder(Module& module, TypeManager& types, uint32_t return_type,
                                 std::span<const uint32_t> parameter_types)
    : module_(module), function_(std::make_unique<Function>()), id_(module.take_next_id()), types_(types) {
    const uint32_t function_type = types.get_type_function(return_type, parameter_types);
    const uint32_t header[] = {return_type, id_, spv::FunctionControlMaskNone, function_type};
    function_->header.push_back(make_instruction(spv::OpFunction, header));
    module.register_definition(*function_->header.back());
    for (uint32_t type : parameter_types) {
        const uint32_t parameter = module.take_next_id();
        const uint32_t words[] = {type, parameter};
        function_->header.push_back(make_instruction(spv::OpFunctionParameter, words));
        module.register_definition(*function_->header.back());
        parameters_.push_back(parameter);
    }
    start_block(module.take_next_id());
}

void FunctionBuilder::start_block(uint32_t label) {
    BasicBlock& block = function_->blocks.emplace_back();
    const uint32_t words[] = {label};
    block.instructions.push_back(make_instruction(spv::OpLabel, words));
    module_.register_definition(*block.instructions.back());
    builder_.emplace(module_, block, 1);
}

uint32_t FunctionBuilder::add_variable(uint32_t pointer_type) {
    BasicBlock& entry = function_->blocks.front();
    Builder at_top(module_, entry, 1);
    const uint32_t variable = at_top.add(spv::OpVariable, pointer_type, {spv::StorageClassFunction});
    if (&entry == &function_->blocks.back()) builder_.emplace(module_, entry, builder_->position() + 1);
    return variable;
}

void FunctionBuilder::begin_if(uint32_t condition) {
    const uint32_t then_label = module_.take_next_id();
    const uint32_t merge_label = module_.take_next_id();
    builder_->add(spv::OpSelectionMerge, 0, {merge_label, spv::SelectionControlMaskNone});
    builder_->add(spv::OpBranchConditional, 0, {condition, then_label, merge_label});
    merge_labels_.push_back(merge_label);
    start_block(then_label);
}

void FunctionBuilder::end_if() {
    const uint32_t merge_label = merge_labels_.back();
    merge_labels_.pop_back();
    builder_->add(spv::OpBranch, 0, {merge_label});
    start_block(merge_label);
}

uint32_t FunctionBuilder::begin_loop(uint32_t count, uint32_t loop_control) {
    const uint32_t u = types_.get_type_int(32, false);
    Loop loop{add_variable(types_.get_type_pointer(spv::StorageClassFunction, u)), 0, module_.take_next_id(),
              module_.take_next_id(), module_.take_next_id()};
    const uint32_t body = module_.take_next_id();
    builder_->add(spv::OpStore, 0, {loop.counter, types_.get_constant_uint32(0)});
    builder_->add(spv::OpBranch, 0, {loop.header});
    start_block(loop.header);
    loop.index = builder_->add(spv::OpLoad, u, {loop.counter});
    const uint32_t more = builder_->add(spv::OpULessThan, types_.get_type_bool(), {loop.index, count});
    builder_->add(spv::OpLoopMerge, 0, {loop.merge, loop.continue_label, loop_control});
    builder_->add(spv::OpBranchConditional, 0, {more, body, loop.merge});
    start_block(body);
    loops_.push_back(loop);
    return loop.index;
}

void FunctionBuilder::end_loop() {
    const Loop loop = loops_.back();
    loops_.pop_back();
    builder_->add(spv::OpBranch, 0, {loop.continue_label});
    start_block(loop.continue_label);
    const uint32_t u = types_.get_type_int(32, false);
    const uint32_t next = builder_->add(spv::OpIAdd, u, {loop.index, types_.get_constant_uint32(1)});
    builder_->add(spv::OpStore, 0, {loop.counter, next});
    builder_->add(spv::OpBranch, 0, {loop.header});
    start_block(loop.merge);
}

void FunctionBuilder::finish(uint32_t value) {
    if (value) {
        builder_->add(spv::OpReturnValue, 0, {value});
    } else {
        builder_->add(spv::OpReturn, 0, {});
    }
    const uint32_t end[] = {0};
    function_->epilogue.push_back(make_instruction(spv::OpFunctionEnd, std::span(end, 0)));
    builder_.reset();
    module_.functions.push_back(std::move(function_));
}

}  // namespace vkpolyfill::lowering::ir
