// Element-wise arithmetic on cooperative matrices against a CPU reference, per component type on an
// 8x8 matrix and the largest accumulator (or B): OpFAdd/OpFSub/OpFMul/OpFDiv/OpFNegate on float16 and float32,
// OpIAdd/OpISub/OpIMul/OpSDiv|OpUDiv/OpSNegate on 8- and 32-bit integers, and OpMatrixTimesScalar on
// both. Float inputs have random mantissas so results need rounding: add, sub, mul and the scalar
// product must be correctly rounded to nearest even (bit-exact), division within 3 ulp (Vulkan
// allows 2.5; VK-GL-CTS checks 3). Integer results wrap at the type's width and are bit-exact.
// One shader per type selects the operation by a specialization constant, specialized before the
// module is created, so each case hands the layer its operation alone.
#include <random>

#include "coopmat_cases.h"
#include "coopmat_matrix.h"
#include "coopmat_runs.h"

namespace vkpolyfill::test::coopmat {
namespace {

enum class Op : uint32_t { Add, Sub, Mul, Div, Negate, TimesScalar };  // the shader's OP constant
constexpr Op kOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Negate, Op::TimesScalar};

std::string op_name(Op op, Component type) {
    const bool f = is_float(type);
    switch (op) {
        case Op::Add: return f ? "FAdd" : "IAdd";
        case Op::Sub: return f ? "FSub" : "ISub";
        case Op::Mul: return f ? "FMul" : "IMul";
        case Op::Div: return f ? "FDiv" : is_signed(type) ? "SDiv" : "UDiv";
        case Op::Negate: return f ? "FNegate" : "SNegate";
        case Op::TimesScalar: return "MatrixTimesScalar";
    }
    return "?";
}

double scalar_for(Component type) { return is_float(type) ? -2.75 : is_signed(type) ? -3.0 : 3.0; }

// The exact result; writing it to the output type rounds (floats) or wraps (integers) it.
double float_reference(Op op, double a, double b, double scale) {
    switch (op) {
        case Op::Add: return a + b;
        case Op::Sub: return a - b;
        case Op::Mul: return a * b;
        case Op::Div: return a / b;
        case Op::Negate: return -a;
        case Op::TimesScalar: return a * scale;
    }
    return 0;
}

int64_t int_reference(Op op, Component type, int64_t a, int64_t b, int64_t scale) {
    // Modulo 2^64 (unsigned arithmetic) keeps the low bits the type wraps to.
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    switch (op) {
        case Op::Add: return static_cast<int64_t>(ua + ub);
        case Op::Sub: return static_cast<int64_t>(ua - ub);
        case Op::Mul: return static_cast<int64_t>(ua * ub);
        case Op::Div: return is_signed(type) ? a / b : static_cast<int64_t>(ua / ub);  // toward zero
        case Op::Negate: return static_cast<int64_t>(0 - ua);
        case Op::TimesScalar: return static_cast<int64_t>(ua * static_cast<uint64_t>(scale));
    }
    return 0;
}

Observation run_op(CoopmatDevice& device, Op op, const MatrixType& m) {
    const uint32_t seed = m.rows * 7 + m.cols + static_cast<uint32_t>(op) * 1000;
    const std::vector<std::byte> a = random_matrix(m, seed);
    // Divisors are never 0, nor -1 (SDiv of the minimum by -1 is undefined).
    std::mt19937 rng(seed + 1);
    const std::vector<std::byte> b = generated(m.type, static_cast<size_t>(m.rows) * m.cols, [&] {
        double v = random_value(m.type, rng);
        while (v == 0 || v == -1) v = random_value(m.type, rng);
        return v;
    });
    const float scale = static_cast<float>(scalar_for(m.type));
    Output o = matrix_output(
        op_name(op, m.type), m,
        run_a_b_to_o(device,
                     {.shader = "tests/coopmat/elementwise_" + std::string(short_name(m.type)) + ".comp",
                      .constants = matrix_constants(device, m, {static_cast<uint32_t>(op)}),
                      .buffers = 3,
                      .push_constant_bytes = sizeof(float),
                      .specialize = true},
                     m, a, b, std::as_bytes(std::span(&scale, 1))));
    if (op == Op::Div && is_float(m.type)) o.tolerance.ulps = 3;
    for (size_t i = 0; i < static_cast<size_t>(m.rows) * m.cols; ++i) {
        if (is_float(m.type)) {
            write_float(o.expected, m.type, i, float_reference(op, read_float(a, m.type, i), read_float(b, m.type, i), scale));
        } else {
            write_int(o.expected, m.type, i,
                      int_reference(op, m.type, read_int(a, m.type, i), read_int(b, m.type, i), static_cast<int64_t>(scale)));
        }
    }
    Observation observation;
    observation.outputs.push_back(std::move(o));
    return observation;
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    for (Op op : kOps) {
        for (const MatrixType& m : two_per_type(covered_matrix_types())) {
            cases.push_back({op_name(op, m.type), std::string(component_name(m.type)) + "/" + matrix_name(m),
                             {std::nullopt, {m}}, [op, m](CoopmatDevice& device) { return run_op(device, op, m); }});
        }
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
