#include "coopmat_scalars.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace vkpolyfill::test::coopmat {

std::string_view component_name(Component type) {
    switch (type) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return "float16";
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return "float32";
        case VK_COMPONENT_TYPE_SINT8_KHR: return "sint8";
        case VK_COMPONENT_TYPE_UINT8_KHR: return "uint8";
        case VK_COMPONENT_TYPE_SINT16_KHR: return "sint16";
        case VK_COMPONENT_TYPE_UINT16_KHR: return "uint16";
        case VK_COMPONENT_TYPE_SINT32_KHR: return "sint32";
        case VK_COMPONENT_TYPE_UINT32_KHR: return "uint32";
        case VK_COMPONENT_TYPE_BFLOAT16_KHR: return "bfloat16";
        default: return "other";
    }
}

uint32_t component_bytes(Component type) {
    switch (type) {
        case VK_COMPONENT_TYPE_SINT8_KHR:
        case VK_COMPONENT_TYPE_UINT8_KHR: return 1;
        case VK_COMPONENT_TYPE_FLOAT16_KHR:
        case VK_COMPONENT_TYPE_BFLOAT16_KHR:
        case VK_COMPONENT_TYPE_SINT16_KHR:
        case VK_COMPONENT_TYPE_UINT16_KHR: return 2;
        case VK_COMPONENT_TYPE_FLOAT32_KHR:
        case VK_COMPONENT_TYPE_SINT32_KHR:
        case VK_COMPONENT_TYPE_UINT32_KHR: return 4;
        default: throw std::invalid_argument("component type without a size here");
    }
}

bool is_float(Component type) {
    return type == VK_COMPONENT_TYPE_FLOAT16_KHR || type == VK_COMPONENT_TYPE_FLOAT32_KHR;
}

bool is_signed(Component type) {
    return type == VK_COMPONENT_TYPE_SINT8_KHR || type == VK_COMPONENT_TYPE_SINT16_KHR ||
           type == VK_COMPONENT_TYPE_SINT32_KHR;
}

uint16_t half_from_double(double value) {
    if (std::isnan(value)) return 0x7e00;
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double a = std::fabs(value);
    if (a < std::ldexp(1.0, -14)) {
        // Subnormal: a multiple of 2^-24; rounding up to 1024 gives the smallest normal's bits.
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
    }
    int exponent = 0;
    std::frexp(a, &exponent);  // a = m * 2^exponent, m in [0.5, 1)
    const int e = exponent - 1;
    if (e > 15) return sign | 0x7c00;
    // A carry out of the mantissa lands in the exponent field, up to infinity.
    const double mantissa = std::nearbyint((std::ldexp(a, -e) - 1.0) * 1024.0);
    return static_cast<uint16_t>(sign | (((e + 15) << 10) + static_cast<int>(mantissa)));
}

double double_from_half(uint16_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int e = (bits >> 10) & 0x1f;
    const int m = bits & 0x3ff;
    if (e == 0) return sign * std::ldexp(m, -24);
    if (e == 31) return m ? std::nan("") : sign * INFINITY;
    return sign * std::ldexp(1024 + m, e - 25);
}

float float_from_double(double value) { return static_cast<float>(value); }

namespace {

template <typename T>
T load(std::span<const std::byte> bytes, size_t index) {
    if ((index + 1) * sizeof(T) > bytes.size()) throw std::out_of_range("element index past the buffer");
    T value;
    std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
    return value;
}

template <typename T>
void store(std::span<std::byte> bytes, size_t index, T value) {
    if ((index + 1) * sizeof(T) > bytes.size()) throw std::out_of_range("element index past the buffer");
    std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

double read_float(std::span<const std::byte> bytes, Component type, size_t index) {
    if (type == VK_COMPONENT_TYPE_FLOAT16_KHR) return double_from_half(load<uint16_t>(bytes, index));
    if (type == VK_COMPONENT_TYPE_FLOAT32_KHR) return load<float>(bytes, index);
    throw std::invalid_argument("read_float of an integer type");
}

void write_float(std::span<std::byte> bytes, Component type, size_t index, double value) {
    if (type == VK_COMPONENT_TYPE_FLOAT16_KHR) return store<uint16_t>(bytes, index, half_from_double(value));
    if (type == VK_COMPONENT_TYPE_FLOAT32_KHR) return store<float>(bytes, index, float_from_double(value));
    throw std::invalid_argument("write_float of an integer type");
}

int64_t read_int(std::span<const std::byte> bytes, Component type, size_t index) {
    switch (type) {
        case VK_COMPONENT_TYPE_SINT8_KHR: return load<int8_t>(bytes, index);
        case VK_COMPONENT_TYPE_UINT8_KHR: return load<uint8_t>(bytes, index);
        case VK_COMPONENT_TYPE_SINT16_KHR: return load<int16_t>(bytes, index);
        case VK_COMPONENT_TYPE_UINT16_KHR: return load<uint16_t>(bytes, index);
        case VK_COMPONENT_TYPE_SINT32_KHR: return load<int32_t>(bytes, index);
        case VK_COMPONENT_TYPE_UINT32_KHR: return load<uint32_t>(bytes, index);
        default: throw std::invalid_argument("read_int of a float type");
    }
}

void write_int(std::span<std::byte> bytes, Component type, size_t index, int64_t value) {
    switch (component_bytes(type)) {
        case 1: return store<uint8_t>(bytes, index, static_cast<uint8_t>(value));
        case 2: return store<uint16_t>(bytes, index, static_cast<uint16_t>(value));
        default: return store<uint32_t>(bytes, index, static_cast<uint32_t>(value));
    }
}

double read_value(std::span<const std::byte> bytes, Component type, size_t index) {
    return is_float(type) ? read_float(bytes, type, index) : static_cast<double>(read_int(bytes, type, index));
}

void write_value(std::span<std::byte> bytes, Component type, size_t index, double value) {
    is_float(type) ? write_float(bytes, type, index, value) : write_int(bytes, type, index, static_cast<int64_t>(value));
}

double rounded(Component type, double value) {
    std::byte bytes[4];
    write_value(bytes, type, 0, value);
    return read_value(bytes, type, 0);
}

uint64_t read_bits(std::span<const std::byte> bytes, Component type, size_t index) {
    switch (component_bytes(type)) {
        case 1: return load<uint8_t>(bytes, index);
        case 2: return load<uint16_t>(bytes, index);
        default: return load<uint32_t>(bytes, index);
    }
}

std::string describe(std::span<const std::byte> bytes, Component type, size_t index) {
    std::ostringstream out;
    if (is_float(type)) {
        out << read_float(bytes, type, index);
    } else {
        out << read_int(bytes, type, index);
    }
    out << " (0x" << std::hex << read_bits(bytes, type, index) << ")";
    return out.str();
}

}  // namespace vkpolyfill::test::coopmat
