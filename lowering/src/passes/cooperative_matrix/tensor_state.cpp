#include "passes/cooperative_matrix/tensor_state.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_access.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// The new state's words as ids: the operand's words (or constants for a new object) with the ones
// the instruction sets replaced, then one OpCompositeConstruct that takes over the result id.
class StateWords {
  public:
    StateWords(LoweringState& state, ir::Builder& builder) : state_(state), b_(builder) {}

    void copy(uint32_t value, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i) words_.push_back(b_.add(spv::OpCompositeExtract, state_.uint_type(), {value, i}));
    }
    void append_constant(uint32_t value) { words_.push_back(state_.uint_constant(value)); }
    void set(uint32_t index, uint32_t id) { words_[index] = id; }
    void set_constant(uint32_t index, uint32_t value) { words_[index] = state_.uint_constant(value); }
    uint32_t get(uint32_t index) const { return words_[index]; }
    // An operand (a 32-bit integer of either signedness) as a uint.
    uint32_t operand(uint32_t id) { return as_uint(state_, b_, id); }
    uint32_t op(uint32_t opcode, uint32_t x, uint32_t y) { return b_.add(opcode, state_.uint_type(), {x, y}); }
    uint32_t constant(uint32_t value) { return state_.uint_constant(value); }
    void finish(uint32_t type, uint32_t result) { b_.add(spv::OpCompositeConstruct, type, words_, result); }

  private:
    LoweringState& state_;
    ir::Builder& b_;
    std::vector<uint32_t> words_;
};

// `values` are the instruction's operands after the layout.
void set_layout(StateWords& w, const TensorLayoutType& t, uint32_t opcode, std::span<const uint32_t> values) {
    const uint32_t d = t.dimensions;
    switch (opcode) {
        case spv::OpTensorLayoutSetDimensionNV:
            // layoutDimension and span to Dim<i>, offsets to 0, strides packed:
            // stride[LDim-1] = 1, stride[i] = stride[i+1] * ceiling(Dim<i+1> / blockSize[i+1]).
            for (uint32_t i = 0; i < d; ++i) {
                const uint32_t dim = w.operand(values[i]);
                w.set(t.layout_dimension(i), dim);
                w.set(t.span(i), dim);
                w.set_constant(t.offset(i), 0);
            }
            w.set_constant(t.stride(d - 1), 1);
            for (uint32_t i = d - 1; i-- > 0;) {
                const uint32_t block = w.get(t.block_size(i + 1));
                const uint32_t rounded_up = w.op(spv::OpIAdd, w.get(t.layout_dimension(i + 1)), w.op(spv::OpISub, block, w.constant(1)));
                w.set(t.stride(i), w.op(spv::OpIMul, w.get(t.stride(i + 1)), w.op(spv::OpUDiv, rounded_up, block)));
            }
            return;
        case spv::OpTensorLayoutSetStrideNV:
            for (uint32_t i = 0; i < d; ++i) w.set(t.stride(i), w.operand(values[i]));
            return;
        case spv::OpTensorLayoutSliceNV:  // Offset<i> added to offset[i], span[i] = Span<i>
            for (uint32_t i = 0; i < d; ++i) {
                w.set(t.offset(i), w.op(spv::OpIAdd, w.get(t.offset(i)), w.operand(values[2 * i])));
                w.set(t.span(i), w.operand(values[2 * i + 1]));
            }
            return;
        case spv::OpTensorLayoutSetClampValueNV:
            w.set(t.clamp_value(), w.operand(values[0]));
            return;
        case spv::OpTensorLayoutSetBlockSizeNV:
            for (uint32_t i = 0; i < d; ++i) w.set(t.block_size(i), w.operand(values[i]));
            return;
        default:
            return;
    }
}

void set_view(StateWords& w, const TensorViewType& v, uint32_t opcode, std::span<const uint32_t> values) {
    const uint32_t d = v.dimensions;
    switch (opcode) {
        case spv::OpTensorViewSetDimensionNV:
            // viewStride[VDim-1] = 1, viewStride[i] = the product of Dim<i+1> .. Dim<VDim-1>.
            for (uint32_t i = 0; i < d; ++i) w.set(v.view_dimension(i), w.operand(values[i]));
            w.set_constant(v.view_stride(d - 1), 1);
            for (uint32_t i = d - 1; i-- > 0;) {
                w.set(v.view_stride(i), w.op(spv::OpIMul, w.get(v.view_stride(i + 1)), w.get(v.view_dimension(i + 1))));
            }
            return;
        case spv::OpTensorViewSetStrideNV:
            for (uint32_t i = 0; i < d; ++i) w.set(v.view_stride(i), w.operand(values[i]));
            return;
        case spv::OpTensorViewSetClipNV:
            for (uint32_t i = 0; i < 4; ++i) w.set(v.clip() + i, w.operand(values[i]));
            return;
        default:
            return;
    }
}

// The number of operands after the layout or view each instruction needs.
uint32_t expected_values(uint32_t opcode, uint32_t dimensions) {
    switch (opcode) {
        case spv::OpTensorLayoutSliceNV:
            return 2 * dimensions;
        case spv::OpTensorLayoutSetClampValueNV:
            return 1;
        case spv::OpTensorViewSetClipNV:
            return 4;
        default:
            return dimensions;
    }
}

bool is_view_op(uint32_t opcode) {
    return opcode == spv::OpCreateTensorViewNV || opcode == spv::OpTensorViewSetDimensionNV ||
           opcode == spv::OpTensorViewSetStrideNV || opcode == spv::OpTensorViewSetClipNV;
}

}  // namespace

bool is_tensor_state_op(uint32_t opcode) {
    switch (opcode) {
        case spv::OpCreateTensorLayoutNV:
        case spv::OpTensorLayoutSetDimensionNV:
        case spv::OpTensorLayoutSetStrideNV:
        case spv::OpTensorLayoutSliceNV:
        case spv::OpTensorLayoutSetClampValueNV:
        case spv::OpTensorLayoutSetBlockSizeNV:
        case spv::OpCreateTensorViewNV:
        case spv::OpTensorViewSetDimensionNV:
        case spv::OpTensorViewSetStrideNV:
        case spv::OpTensorViewSetClipNV:
            return true;
        default:
            return false;
    }
}

bool lower_tensor_state(LoweringState& state, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    const uint32_t opcode = instruction.opcode();
    const TensorLayoutType* layout = state.tensors.layout(instruction.type_id());
    const TensorViewType* view = state.tensors.view(instruction.type_id());
    const bool creates = opcode == spv::OpCreateTensorLayoutNV || opcode == spv::OpCreateTensorViewNV;
    const std::vector<uint32_t> operands(instruction.operand_words().begin(), instruction.operand_words().end());
    if (is_view_op(opcode)) {
        layout = nullptr;
    } else {
        view = nullptr;
    }
    const uint32_t dimensions = layout ? layout->dimensions : view ? view->dimensions : 0;
    if (dimensions == 0 || (!creates && (operands.empty() || state.module().type_of(operands[0]) != instruction.type_id() ||
                                         operands.size() != 1 + expected_values(opcode, dimensions) ||
                                         !std::all_of(operands.begin() + 1, operands.end(),
                                                      [&](uint32_t id) { return is_integer_scalar(state.module(), id); })))) {
        state.context.diagnostics.error(
            std::format("{} cannot be lowered: its result type is not a tensor layout or view of the instruction's kind, its "
                        "operand is not of the result type, it does not have one operand per dimension, or a value "
                        "after that operand is not a scalar integer",
                        instruction.name()),
            instruction.source_offset(), ir::instruction_text(instruction.words(), state.module()));
        return false;
    }
    const uint32_t type = instruction.type_id(), result = instruction.result_id();
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));  // `instruction` dies here
    ir::Builder builder(state.module(), block, index);
    StateWords words(state, builder);
    const uint32_t length = layout ? layout->words() : view->words();
    if (opcode == spv::OpCreateTensorLayoutNV) {
        for (uint32_t i = 0; i < length; ++i) words.append_constant(i < dimensions ? 1 : 0);  // blockSize 1, the rest 0
    } else if (opcode == spv::OpCreateTensorViewNV) {
        for (uint32_t i = 0; i < length; ++i) words.append_constant(0);
        words.set_constant(view->clip() + 1, 0xFFFFFFFFu);  // clip offsets 0, spans 0xFFFFFFFF
        words.set_constant(view->clip() + 3, 0xFFFFFFFFu);
    } else {
        words.copy(operands[0], length);
        const std::span<const uint32_t> values = std::span(operands).subspan(1);
        if (layout) {
            set_layout(words, *layout, opcode, values);
        } else {
            set_view(words, *view, opcode, values);
        }
    }
    words.finish(type, result);
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
