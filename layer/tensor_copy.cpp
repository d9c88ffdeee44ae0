#include "tensor_copy.h"

#include <algorithm>
#include <format>

namespace vkpolyfill {
namespace {

uint64_t at_or(const uint64_t* values, uint32_t d, uint64_t fallback) { return values ? values[d] : fallback; }

}  // namespace

std::string check_copy(const VkCopyTensorInfoARM& info, const Tensor* source, const Tensor* destination) {
    if (source == nullptr) return "srcTensor (" + describe_tensor(info.srcTensor) + ") is not a tensor of this device";
    if (destination == nullptr) return "dstTensor (" + describe_tensor(info.dstTensor) + ") is not a tensor of this device";
    if (!(source->usage & VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM)) return "srcTensor lacks VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM";
    if (!(destination->usage & VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM)) return "dstTensor lacks VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM";
    if (source->layout.format != destination->layout.format) {
        return std::format("srcTensor's format ({}) and dstTensor's ({}) must be the same", static_cast<int>(source->layout.format),
                           static_cast<int>(destination->layout.format));
    }
    if (source->layout.rank != destination->layout.rank) {
        return std::format("srcTensor's dimensionCount ({}) and dstTensor's ({}) must be the same", source->layout.rank,
                           destination->layout.rank);
    }
    if (info.regionCount == 0 || info.pRegions == nullptr) return "regionCount must be greater than 0 and pRegions not NULL";
    for (uint32_t r = 0; r < info.regionCount; ++r) {
        const VkTensorCopyARM& region = info.pRegions[r];
        if (region.dimensionCount != source->layout.rank) {
            return std::format("pRegions[{}].dimensionCount ({}) must be the tensors' dimensionCount ({})", r, region.dimensionCount,
                               source->layout.rank);
        }
        for (uint32_t d = 0; d < region.dimensionCount; ++d) {
            const uint64_t extent = at_or(region.pExtent, d, static_cast<uint64_t>(source->layout.dimensions[d]));
            const uint64_t source_end = at_or(region.pSrcOffset, d, 0) + extent;
            const uint64_t destination_end = at_or(region.pDstOffset, d, 0) + extent;
            if (extent == 0 || source_end > static_cast<uint64_t>(source->layout.dimensions[d]) ||
                destination_end > static_cast<uint64_t>(destination->layout.dimensions[d])) {
                return std::format("pRegions[{}] in dimension {} (offsets {} and {}, extent {}) must lie within both tensors "
                                   "(dimensions {} and {})", r, d, at_or(region.pSrcOffset, d, 0), at_or(region.pDstOffset, d, 0),
                                   extent, source->layout.dimensions[d], destination->layout.dimensions[d]);
            }
        }
    }
    return {};
}

CopyPlan plan_copy(const VkTensorCopyARM& region, const Tensor& source, const Tensor& destination) {
    CopyPlan plan;
    plan.element_size = source.layout.element_size;
    for (uint32_t d = 0; d < region.dimensionCount; ++d) {
        const uint64_t extent = at_or(region.pExtent, d, static_cast<uint64_t>(source.layout.dimensions[d]));
        const int64_t source_stride = source.layout.strides[d];
        const int64_t destination_stride = destination.layout.strides[d];
        plan.source_offset += at_or(region.pSrcOffset, d, 0) * source_stride;
        plan.destination_offset += at_or(region.pDstOffset, d, 0) * destination_stride;
        // An inner dimension of one element moves nothing; the innermost stays, being the contiguous one.
        if (extent == 1 && plan.rank > 0 && d + 1 < region.dimensionCount) continue;
        // The previous (outer) dimension folds into this one where both tensors are contiguous across it.
        if (plan.rank > 0) {
            const uint32_t p = plan.rank - 1;
            if (plan.source_stride[p] == source_stride * static_cast<int64_t>(extent) &&
                plan.destination_stride[p] == destination_stride * static_cast<int64_t>(extent)) {
                plan.extent[p] *= extent;
                plan.source_stride[p] = source_stride;
                plan.destination_stride[p] = destination_stride;
                continue;
            }
            if (plan.extent[p] == 1) plan.rank = p;  // an outer dimension of one element is dropped
        }
        plan.extent[plan.rank] = extent;
        plan.source_stride[plan.rank] = source_stride;
        plan.destination_stride[plan.rank] = destination_stride;
        ++plan.rank;
    }
    return plan;
}

uint64_t CopyPlan::rows() const {
    uint64_t rows = 1;
    for (uint32_t d = 0; d + 1 < rank; ++d) rows *= extent[d];
    return rows;
}

void CopyPlan::buffer_regions(std::vector<VkBufferCopy>& regions) const {
    std::array<uint64_t, 8> index{};
    const uint64_t count = rows();
    for (uint64_t row = 0; row < count; ++row) {
        uint64_t source = source_offset;
        uint64_t destination = destination_offset;
        for (uint32_t d = 0; d + 1 < rank; ++d) {
            source += index[d] * source_stride[d];
            destination += index[d] * destination_stride[d];
        }
        regions.push_back({source, destination, row_bytes()});
        for (uint32_t d = rank - 1; d-- > 0;) {  // the next row: odometer over the outer dimensions
            if (++index[d] < extent[d]) break;
            index[d] = 0;
        }
    }
}

TensorCopyRegion CopyPlan::compute_region() const {
    TensorCopyRegion region{};
    region.rank = rank;
    for (uint32_t d = 0; d < rank; ++d) {
        region.extent[d] = static_cast<uint32_t>(extent[d]);
        region.source_stride[d] = static_cast<uint32_t>(source_stride[d] / element_size);
        region.destination_stride[d] = static_cast<uint32_t>(destination_stride[d] / element_size);
    }
    region.chunk = static_cast<uint32_t>(std::min<uint64_t>(extent[rank - 1], kCopyChunkElements));
    region.chunks_per_row = static_cast<uint32_t>((extent[rank - 1] + region.chunk - 1) / region.chunk);
    region.count = static_cast<uint32_t>(rows() * region.chunks_per_row);
    region.source_base = static_cast<uint32_t>(source_offset / element_size);
    region.destination_base = static_cast<uint32_t>(destination_offset / element_size);
    return region;
}

}  // namespace vkpolyfill
