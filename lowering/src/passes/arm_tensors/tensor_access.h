// OpTensorReadARM, OpTensorWriteARM and OpTensorQuerySizeARM on a lowered tensor (tensor_ref.h):
// reads load every element at an offset that is forced to 0 outside the tensor (so no load leaves
// it) and then pick the OutOfBoundsValueARM (or zero, the Vulkan rule) for those elements; writes
// store through ConditionalStores; queries load the shape record. Tensor operands become the
// equivalent memory operands of the storage-buffer access (NontemporalARM -> Nontemporal,
// MakeElementAvailable/VisibleARM -> MakePointerAvailable/Visible, NonPrivateElementARM ->
// NonPrivatePointer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/builder.h"
#include "passes/arm_tensors/conditional_store.h"
#include "passes/arm_tensors/coordinates.h"

namespace vkpolyfill::lowering::arm_tensors {

class TensorAccess {
  public:
    explicit TensorAccess(PassContext& context) : context_(context), descriptors_(context), stores_(context, descriptors_) {}

    // Each adds the lowered instructions through `b` (positioned at the instruction, which the caller
    // then removes; a read's or query's last new instruction takes over its result id). Returns false
    // after reporting why the instruction cannot be lowered.
    bool read(ir::Builder& b, const ir::Instruction& read, const TensorRef& ref);
    bool write(ir::Builder& b, const ir::Instruction& write, const TensorRef& ref);
    bool query(ir::Builder& b, const ir::Instruction& query, const TensorRef& ref);

    DescriptorAccess& descriptors() { return descriptors_; }
    // The data variables some write stores to.
    const std::unordered_set<uint32_t>& written() const { return written_; }

  private:
    struct ValueShape {
        uint32_t count;  // elements
        bool array;
    };
    struct Operands {
        uint32_t out_of_bounds = 0;        // OutOfBoundsValueARM's value, 0 if none
        std::vector<uint32_t> memory;      // the equivalent Memory Operands, empty if none
    };

    std::optional<uint32_t> rank(const TensorRef& ref, const ir::Instruction& at);
    std::optional<CoordinatesInput> coordinates(const ir::Instruction& at, uint32_t coordinates, uint32_t rank);
    std::optional<ValueShape> value_shape(const ir::Instruction& at, uint32_t type, const TensorRef& ref);
    std::optional<Operands> operands(const ir::Instruction& at, size_t first_word, bool is_read);
    std::optional<std::vector<ElementPosition>> positions(ir::Builder& b, const ir::Instruction& at, const TensorRef& ref,
                                                          uint32_t coordinates, uint32_t count, uint32_t shape_index);
    void report(std::string message, const ir::Instruction& at);

    PassContext& context_;
    DescriptorAccess descriptors_;
    ConditionalStores stores_;
    std::unordered_set<uint32_t> written_;
};

}  // namespace vkpolyfill::lowering::arm_tensors
