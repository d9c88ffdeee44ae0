// The module's tensor layout and view types (SPV_NV_tensor_addressing), each with the uint array that
// replaces it. The array holds the type's logical state in the spec's member order:
//   layout: blockSize[LDim], layoutDimension[LDim], stride[LDim], offset[LDim] (int32 bits),
//           span[LDim], clampValue
//   view:   viewDimension[VDim], viewStride[VDim], clipRowOffset, clipRowSpan, clipColOffset,
//           clipColSpan
// shaders/lowering/tensor_addressing.comp reads the same arrays. What the type itself fixes (the
// dimension counts, clamp mode, hasDimensions, permutation) is frozen here and instantiated into
// the addressing helper.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>

#include "passes/pass.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct TensorLayoutType {
    uint32_t dimensions;
    uint32_t clamp_mode;  // TensorClampMode
    uint32_t lowered;     // uint[5 * dimensions + 1]

    uint32_t block_size(uint32_t dim) const { return dim; }
    uint32_t layout_dimension(uint32_t dim) const { return dimensions + dim; }
    uint32_t stride(uint32_t dim) const { return 2 * dimensions + dim; }
    uint32_t offset(uint32_t dim) const { return 3 * dimensions + dim; }
    uint32_t span(uint32_t dim) const { return 4 * dimensions + dim; }
    uint32_t clamp_value() const { return 5 * dimensions; }
    uint32_t words() const { return 5 * dimensions + 1; }
};

struct TensorViewType {
    uint32_t dimensions;
    bool has_dimensions;
    std::array<uint32_t, 5> permutation;
    uint32_t lowered;  // uint[2 * dimensions + 4]

    uint32_t view_dimension(uint32_t dim) const { return dim; }
    uint32_t view_stride(uint32_t dim) const { return dimensions + dim; }
    uint32_t clip() const { return 2 * dimensions; }  // row offset, row span, column offset, column span
    uint32_t words() const { return 2 * dimensions + 4; }
};

class TensorTypes {
  public:
    // Collects every OpTypeTensorLayoutNV and OpTypeTensorViewNV, freezing the constants that shape
    // them. Reports each type that cannot be lowered; returns whether all can.
    bool collect(PassContext& context);

    const TensorLayoutType* layout(uint32_t type_id) const;
    const TensorViewType* view(uint32_t type_id) const;
    // Every tensor type id with the array type replacing it.
    std::unordered_map<uint32_t, uint32_t> replacements() const;
    // Whether the module sets any view's clip region (OpTensorViewSetClipNV). Without, no load clips an
    // element: every element is loaded or takes the clamp value, and none keeps Object's value.
    bool views_clip() const { return views_clip_; }

  private:
    bool views_clip_ = false;
    std::unordered_map<uint32_t, TensorLayoutType> layouts_;
    std::unordered_map<uint32_t, TensorViewType> views_;
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
