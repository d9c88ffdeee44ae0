#include "coopmat_matrix.h"

#include <cmath>
#include <functional>

namespace vkpolyfill::test::coopmat {

size_t MemoryLayout::index(uint32_t row, uint32_t col) const {
    return offset + (column_major ? static_cast<size_t>(col) * stride + row : static_cast<size_t>(row) * stride + col);
}

size_t MemoryLayout::end() const {
    const size_t lines = column_major ? cols : rows, line = column_major ? rows : cols;
    return offset + (lines - 1) * stride + line;
}

std::optional<std::pair<uint32_t, uint32_t>> MemoryLayout::position(size_t i) const {
    const size_t line_length = column_major ? rows : cols, lines = column_major ? cols : rows;
    if (i < offset || stride == 0) return std::nullopt;
    const size_t line = (i - offset) / stride, at = (i - offset) % stride;
    if (line >= lines || at >= line_length) return std::nullopt;
    const auto r = static_cast<uint32_t>(column_major ? at : line), c = static_cast<uint32_t>(column_major ? line : at);
    return std::pair{r, c};
}

std::string MemoryLayout::where(size_t i) const {
    const auto at = position(i);
    if (!at) return "outside the matrix";
    return "row " + std::to_string(at->first) + " col " + std::to_string(at->second);
}

std::string_view layout_name(bool column_major) { return column_major ? "colmajor" : "rowmajor"; }

uint32_t layout_constant(bool column_major) { return column_major ? 1 : 0; }

std::string_view storage_name(Storage storage) {
    switch (storage) {
        case Storage::Buffer: return "buffer";
        case Storage::Workgroup: return "workgroup";
        case Storage::PhysicalBuffer: return "physical_buffer";
    }
    return "?";
}

double element(std::span<const std::byte> bytes, Component type, const MemoryLayout& layout, uint32_t row, uint32_t col) {
    return read_value(bytes, type, layout.index(row, col));
}

double pattern(Component type, size_t i, uint32_t seed) {
    const size_t step = i * 37 + seed * 101;  // 37 is odd: a full cycle modulo any power of two
    switch (type) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return (static_cast<double>(step % 2048) - 1024.0) * 0.25;
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return (static_cast<double>(step % (1u << 20)) - 524288.0) * 0.125;
        case VK_COMPONENT_TYPE_SINT8_KHR: return static_cast<double>(static_cast<int8_t>(step % 256));
        case VK_COMPONENT_TYPE_UINT8_KHR: return static_cast<double>(step % 256);
        case VK_COMPONENT_TYPE_SINT32_KHR: return static_cast<double>(static_cast<int32_t>(step * 2654435761u));
        default: return static_cast<double>(static_cast<uint32_t>(step * 2654435761u));
    }
}

double random_value(Component type, std::mt19937& rng) {
    const double sign = (rng() & 1) ? -1.0 : 1.0;
    const int exponent = static_cast<int>(rng() % 6) - 3;
    switch (type) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return sign * std::ldexp(1.0 + static_cast<double>(rng() % 1024) / 1024.0, exponent);
        case VK_COMPONENT_TYPE_FLOAT32_KHR:
            return sign * std::ldexp(1.0 + static_cast<double>(rng() % (1u << 23)) / (1u << 23), exponent);
        case VK_COMPONENT_TYPE_SINT8_KHR: return static_cast<double>(static_cast<int8_t>(rng()));
        case VK_COMPONENT_TYPE_UINT8_KHR: return static_cast<double>(static_cast<uint8_t>(rng()));
        case VK_COMPONENT_TYPE_SINT32_KHR: return static_cast<double>(static_cast<int32_t>(rng()));
        default: return static_cast<double>(static_cast<uint32_t>(rng()));
    }
}

std::vector<std::byte> patterned(Component type, size_t count, uint32_t seed) {
    size_t i = 0;
    return generated(type, count, [&] { return pattern(type, i++, seed); });
}

std::vector<std::byte> generated(Component type, size_t count, const std::function<double()>& draw) {
    std::vector<std::byte> bytes(count * component_bytes(type));
    for (size_t i = 0; i < count; ++i) write_value(bytes, type, i, draw());
    return bytes;
}

}  // namespace vkpolyfill::test::coopmat
