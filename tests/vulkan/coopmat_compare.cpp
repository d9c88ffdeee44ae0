#include "coopmat_compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace vkpolyfill::test::coopmat {
namespace {

constexpr size_t kReported = 8;  // mismatches listed in a failure

double ulp(Component type, double value) {
    const int mantissa_bits = type == VK_COMPONENT_TYPE_FLOAT16_KHR ? 10 : 23;
    const int min_exponent = type == VK_COMPONENT_TYPE_FLOAT16_KHR ? -14 : -126;
    int exponent = 0;
    std::frexp(value, &exponent);
    return std::ldexp(1.0, std::max(exponent - 1, min_exponent) - mantissa_bits);
}

bool within(const Output& output, std::span<const std::byte> reference, size_t i) {
    if (!is_float(output.type)) return read_bits(output.actual, output.type, i) == read_bits(reference, output.type, i);
    const double actual = read_float(output.actual, output.type, i);
    const double expected = read_float(reference, output.type, i);
    if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
    if (actual == expected) return true;
    const double error = std::fabs(actual - expected);
    const Tolerance& t = output.tolerance;
    if (t.ulps > 0 && error <= t.ulps * ulp(output.type, expected)) return true;
    const double scale = output.scale.empty() ? std::fabs(expected) : output.scale[i];
    return t.relative > 0 && error <= t.relative * scale;
}

std::string describe_tolerance(const Output& output) {
    const Tolerance& t = output.tolerance;
    if (!is_float(output.type) || (t.ulps == 0 && t.relative == 0)) return "tolerance: bit-exact";
    std::ostringstream text;
    text << "tolerance:";
    if (t.ulps > 0) text << " " << t.ulps << " ulp";
    if (t.ulps > 0 && t.relative > 0) text << " or";
    if (t.relative > 0) text << " " << t.relative << " x " << (output.scale.empty() ? "|expected|" : "the element's scale");
    return text.str();
}

}  // namespace

testing::AssertionResult matches(const Output& output, std::span<const std::byte> reference,
                                 const std::string& reference_name) {
    if (output.actual.size() != reference.size()) {
        return testing::AssertionFailure() << output.name << ": " << output.actual.size() << " bytes, " << reference_name
                                           << " has " << reference.size();
    }
    const size_t count = output.actual.size() / component_bytes(output.type);
    std::ostringstream first;
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) {
        if (within(output, reference, i)) continue;
        if (wrong++ < kReported) {
            first << "\n  [" << i << "]" << (output.where ? " " + output.where(i) : "") << ": " << reference_name << " "
                  << describe(reference, output.type, i) << ", got " << describe(output.actual, output.type, i);
        }
    }
    if (wrong == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure() << output.name << " (" << component_name(output.type) << "): " << wrong << " of "
                                       << count << " elements differ from " << reference_name << " ("
                                       << describe_tolerance(output) << "); first:" << first.str();
}

testing::AssertionResult floats_match(const std::string& name, std::span<const float> actual, std::span<const float> expected,
                                      Tolerance tolerance, std::function<std::string(size_t index)> where, std::vector<double> scale) {
    const Output output{name, VK_COMPONENT_TYPE_FLOAT32_KHR, bytes_of(actual.data(), actual.size_bytes()), {}, tolerance,
                        std::move(scale), std::move(where)};
    return matches(output, std::as_bytes(expected), "the CPU");
}

std::vector<std::byte> bytes_of(const void* mapped, size_t size) {
    std::vector<std::byte> bytes(size);
    std::memcpy(bytes.data(), mapped, size);
    return bytes;
}

}  // namespace vkpolyfill::test::coopmat
