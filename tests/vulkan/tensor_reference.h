// The CPU oracle for SPV_NV_tensor_addressing: tensor layouts and views with the state the spec
// gives them, the instructions that make and change them, and matrixCoordToTensorElement[WithView]
// transcribed from the pseudo-code of SPV_NV_cooperative_matrix2.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace vkpolyfill::test::tensor {

enum ClampMode : uint32_t { Undefined = 0, Constant = 1, ClampToEdge = 2, Repeat = 3, RepeatMirrored = 4 };
constexpr uint32_t kMaxDim = 5;
using Coord = std::array<uint32_t, kMaxDim>;

struct Layout {
    uint32_t dims = 1;
    ClampMode clamp_mode = Undefined;
    Coord block_size{1, 1, 1, 1, 1};
    Coord dimension{};
    Coord stride{};
    std::array<int32_t, kMaxDim> offset{};
    Coord span{};
    uint32_t clamp_value = 0;
};

struct View {
    uint32_t dims = 1;
    bool has_dimensions = false;
    Coord permutation{0, 1, 2, 3, 4};
    Coord dimension{};
    Coord stride{};
    uint32_t clip_row_offset = 0, clip_row_span = 0xFFFFFFFFu, clip_col_offset = 0, clip_col_span = 0xFFFFFFFFu;
};

// OpCreateTensorLayoutNV and the OpTensorLayout*NV instructions.
Layout create_layout(uint32_t dims, ClampMode mode);
Layout set_dimension(Layout t, const std::vector<uint32_t>& dims);
Layout set_stride(Layout t, const std::vector<uint32_t>& strides);
Layout set_block_size(Layout t, const std::vector<uint32_t>& sizes);
Layout slice(Layout t, const std::vector<int32_t>& offsets, const std::vector<uint32_t>& spans);
Layout set_clamp_value(Layout t, uint32_t value);
// OpCreateTensorViewNV and the OpTensorView*NV instructions.
View create_view(uint32_t dims, bool has_dimensions, const std::vector<uint32_t>& permutation);
View set_view_dimension(View v, const std::vector<uint32_t>& dims);
View set_view_stride(View v, const std::vector<uint32_t>& strides);
View set_clip(View v, uint32_t row_offset, uint32_t row_span, uint32_t col_offset, uint32_t col_span);

enum class Fate { Element, Clipped, Outside };
struct Address {
    Fate fate = Fate::Element;
    uint32_t index = 0;  // the tensor element (or block), when accessed
    Coord block_coord{};
    Coord coord_in_block{};
};

// Element (row, col) of a matrix with `columns` columns; `view` may be null.
Address address(const Layout& t, const View* view, uint32_t row, uint32_t col, uint32_t columns, bool store);

}  // namespace vkpolyfill::test::tensor
