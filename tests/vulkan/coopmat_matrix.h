// Host-side matrices of the cooperative-matrix tests: where a matrix's elements lie in an array
// (the Cooperative Matrix Layout rules of SPV_KHR_cooperative_matrix) and test data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "coopmat_scalars.h"

namespace vkpolyfill::test::coopmat {

// A rows x cols matrix in an array of elements: row-major puts element (r, c) at
// offset + r * stride + c, column-major at offset + c * stride + r. Stride 0 (loads only) makes
// every row (column) the same memory.
struct MemoryLayout {
    uint32_t rows = 0, cols = 0;
    bool column_major = false;
    uint32_t stride = 0;  // elements
    size_t offset = 0;    // elements

    size_t index(uint32_t row, uint32_t col) const;
    size_t end() const;  // one past the highest index the matrix touches
    // The (row, col) stored at `index`, if any element is.
    std::optional<std::pair<uint32_t, uint32_t>> position(size_t index) const;
    // "row 3 col 5", or "outside the matrix" for an index no element maps to.
    std::string where(size_t index) const;
};

std::string_view layout_name(bool column_major);  // "rowmajor", "colmajor"

// Where a shader's matrices live; the shaders take it as a specialization constant.
enum class Storage : uint32_t { Buffer = 0, Workgroup = 1, PhysicalBuffer = 2 };
inline constexpr Storage kStorages[] = {Storage::Buffer, Storage::Workgroup, Storage::PhysicalBuffer};
std::string_view storage_name(Storage storage);  // "buffer", "workgroup", "physical_buffer"
// gl_CooperativeMatrixLayoutRowMajor / ColumnMajor, for specialization constants.
uint32_t layout_constant(bool column_major);

// The element at (row, col) in `bytes` as laid out.
double element(std::span<const std::byte> bytes, Component type, const MemoryLayout& layout, uint32_t row, uint32_t col);

// Distinct, exactly representable values for element i (distinct over 2048 consecutive elements
// for float16, 256 for 8-bit types); `seed` shifts the sequence so buffers differ.
double pattern(Component type, size_t i, uint32_t seed);
std::vector<std::byte> patterned(Component type, size_t count, uint32_t seed);

// A random value of `type` for arithmetic: floats with a random mantissa, either sign and a
// magnitude in [1/8, 8), so sums and products need rounding but never meet denormals; integers
// over their whole range.
double random_value(Component type, std::mt19937& rng);

// `count` elements of `type` drawn by `draw` (which returns values the type represents).
std::vector<std::byte> generated(Component type, size_t count, const std::function<double()>& draw);

}  // namespace vkpolyfill::test::coopmat
