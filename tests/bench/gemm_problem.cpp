#include "gemm_problem.h"

#include <cmath>
#include <random>

#include "half.h"

namespace vkpolyfill::bench {
namespace {

std::vector<uint16_t> random_halves(size_t count, std::mt19937& rng) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<uint16_t> out(count);
    for (uint16_t& h : out) h = half_from_float(value(rng));
    return out;
}

struct Reference {
    float value;
    double magnitude;  // sum of |a_ik * b_kj|
};

Reference reference(const GemmInputs& in, uint32_t row, uint32_t column) {
    float sum = 0.0f;
    double magnitude = 0.0;
    for (uint32_t k = 0; k < in.shape.k; ++k) {
        // An f16 * f16 product is exact in f32, so this is "f32 accumulation of f16 products".
        const float product = float_from_half(in.a[size_t{row} * in.shape.k + k]) *
                              float_from_half(in.b[size_t{k} * in.shape.n + column]);
        sum += product;
        magnitude += std::fabs(product);
    }
    return {sum, magnitude};
}

}  // namespace

std::string GemmShape::name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

GemmInputs make_inputs(const GemmShape& shape, uint32_t seed) {
    std::mt19937 rng(seed);
    GemmInputs in{shape, {}, {}};
    in.a = random_halves(size_t{shape.m} * shape.k, rng);
    in.b = random_halves(size_t{shape.k} * shape.n, rng);
    return in;
}

Verification verify(const GemmInputs& inputs, std::span<const float> c) {
    const GemmShape& s = inputs.shape;
    std::mt19937 rng(s.m ^ (s.n << 8) ^ (s.k << 16));
    std::uniform_int_distribution<uint32_t> any_row(0, s.m - 1), any_column(0, s.n - 1);
    std::vector<std::pair<uint32_t, uint32_t>> elements;
    const uint32_t full_row = any_row(rng), full_column = any_column(rng);
    for (uint32_t j = 0; j < s.n; ++j) elements.emplace_back(full_row, j);
    for (uint32_t i = 0; i < s.m; ++i) elements.emplace_back(i, full_column);
    for (int i = 0; i < 512; ++i) elements.emplace_back(any_row(rng), any_column(rng));

    Verification v;
    for (const auto& [row, column] : elements) {
        const Reference ref = reference(inputs, row, column);
        const float got = c[size_t{row} * s.n + column];
        const double allowed = kRelativeTolerance * ref.magnitude + 1e-30;
        const double error = std::fabs(static_cast<double>(got) - ref.value) / allowed;
        ++v.checked;
        if (!(error <= 1.0)) {  // NaN fails too
            if (v.failed++ == 0) {
                v.failure = "C[" + std::to_string(row) + "][" + std::to_string(column) + "] = " + std::to_string(got) +
                            ", expected " + std::to_string(ref.value);
            }
        }
        if (!(error <= v.worst)) v.worst = error;
    }
    return v;
}

}  // namespace vkpolyfill::bench
