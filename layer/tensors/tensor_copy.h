// vkCmdCopyTensorARM over the tensors' buffers. Each region is merged into as few dimensions as its
// layouts allow (a dimension folds into the next where both tensors are contiguous across it); the
// innermost dimension is always contiguous (VUID-VkTensorDescriptionARM-pStrides-09736), so a region
// is rows of bytes. A region of one row, or of few rows long enough, is a vkCmdCopyBuffer with one
// buffer region per row; any other is a compute dispatch (tensor_copy_pipelines.h) after which the
// application's compute state is restored.
#pragma once

#include <string>
#include <vector>

#include "tensors/tensor_copy_pipelines.h"
#include "tensors/tensor_objects.h"

namespace vkpolyfill {

// Regions of at most this many rows, each at least kMinCopyRowBytes long, are buffer copies.
inline constexpr uint64_t kMaxCopyRows = 4096;
inline constexpr uint64_t kMinCopyRowBytes = 64;
// Elements one invocation of the compute copy moves along a row.
inline constexpr uint64_t kCopyChunkElements = 16;

// One region in the tensors' terms, merged.
struct CopyPlan {
    uint32_t rank = 0;  // merged dimensions
    std::array<uint64_t, 8> extent{};
    std::array<int64_t, 8> source_stride{};  // bytes
    std::array<int64_t, 8> destination_stride{};
    uint64_t source_offset = 0;  // bytes of the first element
    uint64_t destination_offset = 0;
    uint32_t element_size = 0;

    uint64_t rows() const;
    uint64_t row_bytes() const { return extent[rank - 1] * element_size; }
    bool as_buffer_copy() const { return rows() == 1 || (rows() <= kMaxCopyRows && row_bytes() >= kMinCopyRowBytes); }
    void buffer_regions(std::vector<VkBufferCopy>& regions) const;
    TensorCopyRegion compute_region() const;
};

// Checks a copy against the specification's rules; empty when valid, else a sentence naming the field.
std::string check_copy(const VkCopyTensorInfoARM& info, const Tensor* source, const Tensor* destination);

// For a checked region.
CopyPlan plan_copy(const VkTensorCopyARM& region, const Tensor& source, const Tensor& destination);

}  // namespace vkpolyfill
