// How an emulated SPV_ARM_tensors tensor reaches a lowered shader: the contract between the layer,
// which writes descriptors and shape records, and the lowering, which reads them. Neither side may
// change it without the other.
//
// A tensor binding (set s, binding b, descriptorCount N, VK_DESCRIPTOR_TYPE_TENSOR_ARM) becomes a
// VK_DESCRIPTOR_TYPE_STORAGE_BUFFER binding at the same (s, b) with descriptorCount 2N. Array element
// i of the tensor binding is two storage-buffer descriptors, interleaved so that variable descriptor
// counts and update-after-bind keep working element by element:
//   element 2i     the tensor's data: its VkBuffer from offset 0, the whole buffer;
//   element 2i + 1 the view's shape record (TensorShapeRecord below), sub-allocated by the layer.
// The lowered module declares two variables at (s, b), one typed for each, and indexes 2i / 2i + 1
// (NonUniform when the original index was).
#pragma once

#include <cstdint>

namespace vkpolyfill::lowering {

// The highest rank an emulated tensor may have (the layer reports it as maxTensorDimensionCount).
constexpr uint32_t kMaxTensorRank = 8;

// The shape record, std430, 32-bit words. Dimension 0 is the outermost (VkTensorDescriptionARM's
// pDimensions[0]); strides are in elements of the view's format, so the element at coordinates c
// is element sum(c[d] * strides[d]) of the data buffer. Words past `rank` are zero.
struct TensorShapeRecord {
    uint32_t rank;
    uint32_t reserved[3];
    uint32_t dimensions[kMaxTensorRank];
    uint32_t strides[kMaxTensorRank];
};
static_assert(sizeof(TensorShapeRecord) == 80);

constexpr uint32_t kTensorShapeRankWord = 0;
constexpr uint32_t kTensorShapeDimensionsWord = 4;
constexpr uint32_t kTensorShapeStridesWord = kTensorShapeDimensionsWord + kMaxTensorRank;

// Descriptor array element of a tensor's data and shape record within its rewritten binding.
constexpr uint32_t tensor_data_element(uint32_t tensor_element) { return 2 * tensor_element; }
constexpr uint32_t tensor_shape_element(uint32_t tensor_element) { return 2 * tensor_element + 1; }

}  // namespace vkpolyfill::lowering
