#include "tensors/tensor_copy.h"

#include <algorithm>
#include <array>
#include <format>
#include <utility>
#include <vector>

namespace vkpolyfill {
namespace {

uint64_t at_or(const uint64_t* values, uint32_t d, uint64_t fallback) { return values ? values[d] : fallback; }

// A region's element ranges, [begin, end) per dimension, in the source and in the destination.
struct CopyBox {
    using Ranges = std::array<std::pair<uint64_t, uint64_t>, 8>;
    Ranges source{}, destination{};

    bool destination_overlaps(const Ranges& other, uint32_t rank) const {
        for (uint32_t d = 0; d < rank; ++d) {
            if (destination[d].second <= other[d].first || other[d].second <= destination[d].first) return false;
        }
        return true;
    }
};

}  // namespace

std::string check_copy(const VkCopyTensorInfoARM& info, const Tensor* source, const Tensor* destination) {
    if (source == nullptr) return "srcTensor (" + describe_tensor(info.srcTensor) + ") is not a tensor of this device";
    if (destination == nullptr) return "dstTensor (" + describe_tensor(info.dstTensor) + ") is not a tensor of this device";
    if (!(source->usage & VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM)) return "srcTensor lacks VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM";
    if (!(destination->usage & VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM)) return "dstTensor lacks VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM";
    if (!source->bound) return "srcTensor is not bound to memory (VUID-VkCopyTensorInfoARM-srcTensor-09694)";
    if (!destination->bound) return "dstTensor is not bound to memory (VUID-VkCopyTensorInfoARM-dstTensor-09695)";
    if (source->layout.format != destination->layout.format) {
        return std::format("srcTensor's format ({}) and dstTensor's ({}) must be the same", static_cast<int>(source->layout.format),
                           static_cast<int>(destination->layout.format));
    }
    if (source->layout.rank != destination->layout.rank) {
        return std::format("srcTensor's dimensionCount ({}) and dstTensor's ({}) must be the same", source->layout.rank,
                           destination->layout.rank);
    }
    if (info.regionCount == 0 || info.pRegions == nullptr) return "regionCount must be greater than 0 and pRegions not NULL";
    std::vector<CopyBox> boxes;
    for (uint32_t r = 0; r < info.regionCount; ++r) {
        const VkTensorCopyARM& region = info.pRegions[r];
        const bool any_array = region.pSrcOffset || region.pDstOffset || region.pExtent;
        if (region.dimensionCount == 0 && any_array) {
            return std::format("pRegions[{}].dimensionCount is 0 but it gives offsets or an extent (VUID-VkTensorCopyARM-dimensionCount-09955)", r);
        }
        if (region.dimensionCount != 0 && region.dimensionCount != source->layout.rank) {
            return std::format("pRegions[{}].dimensionCount ({}) must be 0 or the tensors' dimensionCount ({})", r, region.dimensionCount,
                               source->layout.rank);
        }
        CopyBox box;
        for (uint32_t d = 0; d < source->layout.rank; ++d) {
            const uint64_t extent = at_or(region.pExtent, d, static_cast<uint64_t>(source->layout.dimensions[d]));
            const uint64_t source_offset = at_or(region.pSrcOffset, d, 0), destination_offset = at_or(region.pDstOffset, d, 0);
            // Written so that no sum can wrap: huge offsets must not pass as small ones.
            const auto fits = [extent](uint64_t offset, int64_t dimension) {
                return offset <= static_cast<uint64_t>(dimension) && extent <= static_cast<uint64_t>(dimension) - offset;
            };
            if (extent == 0 || !fits(source_offset, source->layout.dimensions[d]) ||
                !fits(destination_offset, destination->layout.dimensions[d])) {
                return std::format("pRegions[{}] in dimension {} (offsets {} and {}, extent {}) must lie within both tensors "
                                   "(dimensions {} and {})", r, d, source_offset, destination_offset,
                                   extent, source->layout.dimensions[d], destination->layout.dimensions[d]);
            }
            box.source[d] = {source_offset, source_offset + extent};
            box.destination[d] = {destination_offset, destination_offset + extent};
        }
        boxes.push_back(box);
    }
    // As vkCmdCopyBuffer's regions, no element may be written twice or read where it is written.
    const uint32_t rank = source->layout.rank;
    for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = 0; j < boxes.size(); ++j) {
            if (j > i && boxes[i].destination_overlaps(boxes[j].destination, rank)) {
                return std::format("the destinations of pRegions[{}] and pRegions[{}] overlap", i, j);
            }
            if (info.srcTensor == info.dstTensor && boxes[i].destination_overlaps(boxes[j].source, rank)) {
                return std::format("srcTensor and dstTensor are the same tensor and pRegions[{}]'s destination overlaps "
                                   "pRegions[{}]'s source", i, j);
            }
        }
    }
    return {};
}

CopyPlan plan_copy(const VkTensorCopyARM& region, const Tensor& source, const Tensor& destination) {
    CopyPlan plan;
    plan.element_size = source.layout.element_size;
    const uint32_t rank = source.layout.rank;  // a region of dimensionCount 0 is the whole tensor
    for (uint32_t d = 0; d < rank; ++d) {
        const uint64_t extent = at_or(region.pExtent, d, static_cast<uint64_t>(source.layout.dimensions[d]));
        const int64_t source_stride = source.layout.strides[d];
        const int64_t destination_stride = destination.layout.strides[d];
        plan.source_offset += at_or(region.pSrcOffset, d, 0) * source_stride;
        plan.destination_offset += at_or(region.pDstOffset, d, 0) * destination_stride;
        // An inner dimension of one element moves nothing; the innermost stays, being the contiguous one.
        if (extent == 1 && plan.rank > 0 && d + 1 < rank) continue;
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
