// Where the elements of one tensor access are, and whether they are inside the tensor. The Vulkan
// rule (tensor element coordinate validation): an element is inside when 0 <= c[d] < dimensions[d] for
// every dimension d, checked against the shape record with unsigned compares so that negative
// coordinates fail; an access of n elements (an array result or object) covers c, c + 1, ... along
// the innermost (last) dimension, each element checked on its own. An element's offset in the data
// buffer is sum(c[d] * strides[d]), in elements; the innermost stride is always one element.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/builder.h"
#include "passes/arm_tensors/descriptor_access.h"

namespace vkpolyfill::lowering::arm_tensors {

struct ElementPosition {
    uint32_t in_bounds;  // bool id
    uint32_t offset;     // uint id, meaningful only in bounds
};

struct CoordinatesInput {
    uint32_t coordinates;      // the access's Coordinates: an array of `rank` integers
    uint32_t component_type;   // their OpTypeInt
    uint32_t rank;
    uint32_t count;            // consecutive elements accessed
};

// The positions of elements 0 .. count-1 of the access. Reads the shape record's dimensions and strides.
std::vector<ElementPosition> element_positions(ir::Builder& b, PassContext& context, DescriptorAccess& access,
                                               const TensorRef& ref, uint32_t shape_index, const CoordinatesInput& input);

}  // namespace vkpolyfill::lowering::arm_tensors
