// Scalars of the cooperative-matrix tests: the component types (VkComponentTypeKHR), IEEE half
// conversion with round-to-nearest-even, and typed access to elements in raw buffer bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <vulkan/vulkan_core.h>

#include "component_names.h"  // short_name: how the test shaders' file names spell a type

namespace vkpolyfill::test::coopmat {

using Component = VkComponentTypeKHR;

// "float16", "sint8", ... (VK-GL-CTS's names).
std::string_view component_name(Component type);
uint32_t component_bytes(Component type);
bool is_float(Component type);
bool is_signed(Component type);  // signed integers (floats are not)

uint16_t half_from_double(double value);  // round to nearest, ties to even; overflow gives infinity
double double_from_half(uint16_t bits);
float float_from_double(double value);    // round to nearest even (the host's conversion)

// `value` as `type` holds it: floats rounded to nearest even, integers wrapped to the width.
double rounded(Component type, double value);

// Elements of `type` in raw bytes. Floats read as double; integers as int64 with the type's
// signedness; writes round (floats, to nearest even) or truncate (integers) to the type.
double read_float(std::span<const std::byte> bytes, Component type, size_t index);
void write_float(std::span<std::byte> bytes, Component type, size_t index, double value);
int64_t read_int(std::span<const std::byte> bytes, Component type, size_t index);
void write_int(std::span<std::byte> bytes, Component type, size_t index, int64_t value);
// Either of the above, by the type's kind (integers through double, exact below 2^53).
double read_value(std::span<const std::byte> bytes, Component type, size_t index);
void write_value(std::span<std::byte> bytes, Component type, size_t index, double value);
uint64_t read_bits(std::span<const std::byte> bytes, Component type, size_t index);

// "1.5 (0x3e00)", "-7 (0xf9)": a value and its bits, for failure messages.
std::string describe(std::span<const std::byte> bytes, Component type, size_t index);

}  // namespace vkpolyfill::test::coopmat
