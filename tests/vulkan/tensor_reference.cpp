#include "tensor_reference.h"

#include <algorithm>

namespace vkpolyfill::test::tensor {
namespace {

template <typename T, typename List>
void assign(std::array<T, kMaxDim>& to, const List& from) {
    std::copy(from.begin(), from.end(), to.begin());
}

// A remainder as OpSMod defines it: the sign of the divisor.
int32_t smod(int32_t c, int32_t divisor) {
    const int32_t r = c % divisor;
    return r != 0 && (r < 0) != (divisor < 0) ? r + divisor : r;
}

Coord linear_to_span_coord(const Layout& t, uint32_t index) {
    Coord span_coord{};
    for (int32_t dim = int32_t(t.dims) - 1; dim >= 0; --dim) {
        span_coord[dim] = index % t.span[dim];
        index /= t.span[dim];
    }
    return span_coord;
}

// spanCoordToTensorCoord then tensorCoordToLinear.
Address span_coord_to_element(const Layout& t, const Coord& span_coord, bool store) {
    Address a;
    for (uint32_t dim = 0; dim < t.dims; ++dim) {
        int32_t c = int32_t(span_coord[dim]) + t.offset[dim];
        const auto extent = int32_t(t.dimension[dim]);
        if (c < 0 || c >= extent) {
            ClampMode mode = t.clamp_mode;
            if (store && mode != Undefined) mode = Constant;  // stores discard
            switch (mode) {
                case Undefined:
                    break;  // undefined behavior: the tests keep to coordinates in bounds
                case Constant:
                    a.fate = Fate::Outside;
                    return a;
                case ClampToEdge:
                    c = std::min(std::max(c, 0), extent - 1);
                    break;
                case Repeat:
                    c = smod(c, extent);
                    break;
                case RepeatMirrored:
                    // The pseudo-code's second line writes `dim`; the clamp-mode table (and the
                    // mirror it describes) means the dimension's size there.
                    c = extent > 1 ? smod(c, 2 * extent - 2) : 0;
                    c = c >= extent ? 2 * extent - 2 - c : c;
                    break;
            }
        }
        a.coord_in_block[dim] = uint32_t(c) % t.block_size[dim];
        a.block_coord[dim] = uint32_t(c) / t.block_size[dim];
    }
    for (uint32_t dim = 0; dim < t.dims; ++dim) a.index += a.block_coord[dim] * t.stride[dim];
    return a;
}

}  // namespace

Layout create_layout(uint32_t dims, ClampMode mode) {
    Layout t;
    t.dims = dims;
    t.clamp_mode = mode;
    return t;
}

Layout set_dimension(Layout t, const std::vector<uint32_t>& dims) {
    assign(t.dimension, dims);
    assign(t.span, dims);
    t.offset = {};
    t.stride[t.dims - 1] = 1;
    for (int32_t i = int32_t(t.dims) - 2; i >= 0; --i) {
        t.stride[i] = t.stride[i + 1] * ((t.dimension[i + 1] + t.block_size[i + 1] - 1) / t.block_size[i + 1]);
    }
    return t;
}

Layout set_stride(Layout t, const std::vector<uint32_t>& strides) {
    assign(t.stride, strides);
    return t;
}

Layout set_block_size(Layout t, const std::vector<uint32_t>& sizes) {
    assign(t.block_size, sizes);
    return t;
}

Layout slice(Layout t, const std::vector<int32_t>& offsets, const std::vector<uint32_t>& spans) {
    auto offset = offsets.begin();
    for (uint32_t i = 0; i < t.dims; ++i) t.offset[i] += *offset++;
    assign(t.span, spans);
    return t;
}

Layout set_clamp_value(Layout t, uint32_t value) {
    t.clamp_value = value;
    return t;
}

View create_view(uint32_t dims, bool has_dimensions, const std::vector<uint32_t>& permutation) {
    View v;
    v.dims = dims;
    v.has_dimensions = has_dimensions;
    assign(v.permutation, permutation);
    return v;
}

View set_view_dimension(View v, const std::vector<uint32_t>& dims) {
    assign(v.dimension, dims);
    v.stride[v.dims - 1] = 1;
    for (int32_t i = int32_t(v.dims) - 2; i >= 0; --i) v.stride[i] = v.stride[i + 1] * v.dimension[i + 1];
    return v;
}

View set_view_stride(View v, const std::vector<uint32_t>& strides) {
    assign(v.stride, strides);
    return v;
}

View set_clip(View v, uint32_t row_offset, uint32_t row_span, uint32_t col_offset, uint32_t col_span) {
    v.clip_row_offset = row_offset;
    v.clip_row_span = row_span;
    v.clip_col_offset = col_offset;
    v.clip_col_span = col_span;
    return v;
}

Address address(const Layout& t, const View* view, uint32_t row, uint32_t col, uint32_t columns, bool store) {
    if (!view) return span_coord_to_element(t, linear_to_span_coord(t, row * columns + col), store);
    const View& v = *view;
    // matrixCoordToLinear with a view
    if (row < v.clip_row_offset || row >= v.clip_row_offset + v.clip_row_span || col < v.clip_col_offset ||
        col >= v.clip_col_offset + v.clip_col_span) {
        return Address{Fate::Clipped};
    }
    row -= v.clip_row_offset;
    col -= v.clip_col_offset;
    uint32_t index = row * std::min(columns, v.clip_col_span) + col;
    // linearToViewCoord
    const Coord& dimensions = v.has_dimensions ? v.dimension : t.span;
    Coord view_coord{};
    for (int32_t dim = int32_t(v.dims) - 1; dim >= 0; --dim) {
        const uint32_t i = v.permutation[dim];
        view_coord[i] = index % dimensions[i];
        index /= dimensions[i];
    }
    // viewCoordToLinear
    Coord stride{};
    if (v.has_dimensions) {
        stride = v.stride;
    } else {
        stride[v.dims - 1] = 1;
        for (int32_t dim = int32_t(v.dims) - 2; dim >= 0; --dim) stride[dim] = stride[dim + 1] * t.span[dim + 1];
    }
    index = 0;
    for (int32_t dim = int32_t(v.dims) - 1; dim >= 0; --dim) index += view_coord[dim] * stride[dim];
    return span_coord_to_element(t, linear_to_span_coord(t, index), store);
}

}  // namespace vkpolyfill::test::tensor
