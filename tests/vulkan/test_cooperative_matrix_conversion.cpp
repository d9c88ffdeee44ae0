// Conversions between cooperative matrices of one use and shape, against a CPU reference:
// OpFConvert (f16 <-> f32; f32 -> f16 rounds to nearest even, including exact ties),
// OpConvertFToS/FToU (truncation toward zero), OpConvertSToF/UToF (32-bit integers beyond 2^24
// round to nearest even), OpSConvert/OpUConvert between 8 and 32 bits (sign- or zero-extension,
// truncation) and OpBitcast between signed and unsigned. Each pair runs on the matrix types whose
// shape both types are reported with, per use the largest shape and 8x8.
#include <cmath>
#include <cstring>
#include <random>

#include "coopmat_cases.h"
#include "coopmat_matrix.h"
#include "coopmat_runs.h"

namespace vkpolyfill::test::coopmat {
namespace {

constexpr Component kF16 = VK_COMPONENT_TYPE_FLOAT16_KHR, kF32 = VK_COMPONENT_TYPE_FLOAT32_KHR;
constexpr Component kS8 = VK_COMPONENT_TYPE_SINT8_KHR, kU8 = VK_COMPONENT_TYPE_UINT8_KHR;
constexpr Component kS32 = VK_COMPONENT_TYPE_SINT32_KHR, kU32 = VK_COMPONENT_TYPE_UINT32_KHR;

struct Conversion {
    Component from, to;
};
constexpr Conversion kConversions[] = {
    {kF16, kF32}, {kF32, kF16}, {kF32, kS32}, {kF32, kU32}, {kF16, kS8},  {kS32, kF32}, {kU32, kF32}, {kS8, kF16}, {kU8, kF16},
    {kS8, kS32},  {kS32, kS8},  {kU8, kU32},  {kU32, kU8},  {kS32, kU32}, {kU32, kS32}, {kS8, kU8},   {kU8, kS8},
};

std::string op_name(const Conversion& c) {
    if (is_float(c.from) && is_float(c.to)) return "FConvert";
    if (is_float(c.from)) return is_signed(c.to) ? "ConvertFToS" : "ConvertFToU";
    if (is_float(c.to)) return is_signed(c.from) ? "ConvertSToF" : "ConvertUToF";
    if (component_bytes(c.from) == component_bytes(c.to)) return "Bitcast";
    return is_signed(c.from) ? "SConvert" : "UConvert";
}

// Source values that exercise the conversion: float -> integer within the destination's range,
// with fractions; f32 -> f16 with every fourth value exactly halfway between two halves.
double source_value(const Conversion& c, size_t i, std::mt19937& rng) {
    if (!is_float(c.from)) return random_value(c.from, rng);
    if (is_float(c.to)) {
        const double v = random_value(c.from, rng);
        if (c.from != kF32 || i % 4 != 0) return v;
        float tie = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &tie, sizeof(bits));
        bits = (bits & ~0x1fffu) | 0x1000u;  // the 13 bits a half drops: exactly one half ulp
        std::memcpy(&tie, &bits, sizeof(bits));
        return tie;
    }
    if (c.to == kS8) return static_cast<double>(static_cast<int>(rng() % 1020) - 512) / 4.0;  // [-128, 126.75]
    if (c.to == kS32) return static_cast<double>(static_cast<int>(rng() % (1u << 24)) - (1 << 23)) / 4.0;
    return (i % 2 ? static_cast<double>(rng() % (1u << 24)) * 256.0 : static_cast<double>(rng() % (1u << 24)) / 4.0);
}

void write_converted(std::span<std::byte> out, const Conversion& c, size_t i, std::span<const std::byte> in) {
    if (is_float(c.to)) return write_float(out, c.to, i, read_value(in, c.from, i));  // rounds to nearest even
    if (is_float(c.from)) return write_int(out, c.to, i, static_cast<int64_t>(std::trunc(read_float(in, c.from, i))));
    write_int(out, c.to, i, read_int(in, c.from, i));  // extends by the source's signedness, truncates
}

Observation run_conversion(CoopmatDevice& device, const Conversion& c, const MatrixType& m) {
    std::mt19937 rng(m.rows * 3 + m.cols + static_cast<uint32_t>(c.from) * 97 + static_cast<uint32_t>(c.to));
    const size_t count = static_cast<size_t>(m.rows) * m.cols;
    size_t i = 0;
    const std::vector<std::byte> in = generated(c.from, count, [&] { return source_value(c, i++, rng); });
    const auto after = device.run({.shader = "tests/coopmat/convert_" + std::string(short_name(c.from)) + "_" +
                                             std::string(short_name(c.to)) + ".comp",
                                   .constants = matrix_constants(device, m),
                                   .buffers = 2},
                                  {in, std::vector<std::byte>(count * component_bytes(c.to))});
    Output o{op_name(c) + " " + std::string(component_name(c.from)) + " -> " + std::string(component_name(c.to)), c.to,
             after[1], std::vector<std::byte>(after[1].size()), {}, {},
             [layout = MemoryLayout{m.rows, m.cols, false, m.cols, 0}](size_t at) { return layout.where(at); }};
    for (size_t e = 0; e < count; ++e) write_converted(o.expected, c, e, in);
    Observation observation;
    observation.outputs.push_back(std::move(o));
    return observation;
}

// The source type's matrix types whose shape the destination type is also reported with.
std::vector<MatrixType> shapes_for(const Conversion& c) {
    const std::vector<Configuration> covered(covered_configurations().begin(), covered_configurations().end());
    std::vector<MatrixType> candidates;
    for (const MatrixType& m : covered_matrix_types()) {
        if (m.type == c.from && declarable({m.use, c.to, m.rows, m.cols}, covered)) candidates.push_back(m);
    }
    return representatives(candidates);
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    for (const Conversion& c : kConversions) {
        for (const MatrixType& m : shapes_for(c)) {
            const MatrixType to{m.use, c.to, m.rows, m.cols};
            cases.push_back({op_name(c),
                             std::string(component_name(c.from)) + "_" + std::string(component_name(c.to)) + "/" + matrix_name(m),
                             {std::nullopt, {m, to}}, [c, m](CoopmatDevice& device) { return run_conversion(device, c, m); }});
        }
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
