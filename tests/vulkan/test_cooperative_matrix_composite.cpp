// Constants and composites of cooperative-matrix type (shaders/tests/coopmat/composite.glsl):
//   Constant                OpConstantComposite splat;
//   ConstantNull            OpConstantNull;
//   SpecConstantComposite   OpSpecConstantComposite splat of a specialization constant, in an
//                           assembled module (glslang writes OpCompositeConstruct instead);
//   CompositeConstruct      a splat of a run-time scalar;
//   CompositeIndex          A + B through every component index below length(), as written and
//                           after spirv-opt -O;
//   CompositeConstantIndex  components 0 and 1 replaced (OpCompositeExtract/Insert after -O):
//                           which elements change is the implementation's mapping, so the check
//                           is that every element is A's or B's and 1 to 2 * subgroup size of them
//                           are B's.
#include <cstring>

#include "coopmat_assembly.h"
#include "coopmat_cases.h"
#include "coopmat_matrix.h"
#include "coopmat_runs.h"

namespace vkpolyfill::test::coopmat {
namespace {

enum class Op : uint32_t { Constant, Null, Construct, Index, ConstantIndex };  // composite.glsl's OP

const char* group_of(Op op) {
    switch (op) {
        case Op::Constant: return "Constant";
        case Op::Null: return "ConstantNull";
        case Op::Construct: return "CompositeConstruct";
        case Op::Index: return "CompositeIndex";
        case Op::ConstantIndex: return "CompositeConstantIndex";
    }
    return "?";
}

double construct_value(Component type) { return is_float(type) ? -1.75 : is_signed(type) ? -5.0 : 200.0; }

testing::AssertionResult some_components_replaced(const Output& o, const std::vector<std::byte>& a,
                                                  const std::vector<std::byte>& b, uint32_t subgroup_size) {
    const size_t count = o.actual.size() / component_bytes(o.type);
    size_t from_b = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint64_t got = read_bits(o.actual, o.type, i);
        if (got == read_bits(b, o.type, i)) {
            ++from_b;
        } else if (got != read_bits(a, o.type, i)) {
            return testing::AssertionFailure() << o.name << ": element " << o.where(i) << " is " << describe(o.actual, o.type, i)
                                               << ", neither A's " << describe(a, o.type, i) << " nor B's "
                                               << describe(b, o.type, i);
        }
    }
    if (from_b < 1 || from_b > 2 * subgroup_size) {
        return testing::AssertionFailure() << o.name << ": " << from_b << " elements took B's value; components 0 and 1 of "
                                           << subgroup_size << " invocations make 1 to " << 2 * subgroup_size;
    }
    return testing::AssertionSuccess();
}

Observation run_composite(CoopmatDevice& device, Op op, const MatrixType& m, bool optimize) {
    const std::vector<std::byte> a = random_matrix(m, m.rows + 3 * m.cols);
    std::vector<std::byte> b = random_matrix(m, m.rows + 5 * m.cols);
    for (size_t i = 0; i < b.size() / component_bytes(m.type); ++i) {
        if (read_bits(a, m.type, i) == read_bits(b, m.type, i)) write_value(b, m.type, i, read_value(a, m.type, i) == 1 ? 2 : 1);
    }
    const float value = static_cast<float>(construct_value(m.type));
    Output o = matrix_output(group_of(op), m,
                             run_a_b_to_o(device,
                                          {.shader = "tests/coopmat/composite_" + std::string(short_name(m.type)) + ".comp",
                                           .constants = matrix_constants(device, m, {static_cast<uint32_t>(op)}),
                                           .buffers = 3,
                                           .push_constant_bytes = sizeof(float),
                                           .specialize = true,
                                           .optimize = optimize},
                                          m, a, b, std::as_bytes(std::span(&value, 1))));
    Observation observation;
    if (op == Op::ConstantIndex) {
        observation.properties.push_back(some_components_replaced(o, a, b, device.subgroup_size()));
        return observation;
    }
    for (size_t i = 0; i < static_cast<size_t>(m.rows) * m.cols; ++i) {
        const double expected = op == Op::Constant  ? 3.0
                                : op == Op::Null    ? 0.0
                                : op == Op::Construct ? value
                                                      : read_value(a, m.type, i) + read_value(b, m.type, i);
        write_value(o.expected, m.type, i, expected);
    }
    observation.outputs.push_back(std::move(o));
    return observation;
}

// OpSpecConstantComposite of matrix type, which glslang does not write: the splatted value is
// specialization constant 4, stored to buffer 0.
std::vector<uint32_t> assemble_spec_constant_composite(Component type) {
    return assemble(module_head(type, 1, "", "OpDecorate %splat SpecId 4\n") + R"(
      %splat = OpSpecConstant %component 1
   %splatted = OpSpecConstantComposite %matrix %splat
       %main = OpFunction %void None %fn
      %entry = OpLabel
      %first = OpAccessChain %element %buffer0 %uint_0 %uint_0
               OpCooperativeMatrixStoreKHR %first %splatted %uint_0 %cols
               OpReturn
               OpFunctionEnd
)");
}

Observation run_spec_constant_composite(CoopmatDevice& device, const MatrixType& m) {
    const double splat = is_float(m.type) ? -2.625 : -7.0;
    uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(splat));
    if (is_float(m.type)) {
        const float f = static_cast<float>(splat);
        std::memcpy(&bits, &f, sizeof(bits));
    }
    const PipelineSpec spec{.constants = matrix_constants(device, m, {bits}),
                            .buffers = 1,
                            .words = assemble_spec_constant_composite(m.type)};
    const size_t count = static_cast<size_t>(m.rows) * m.cols;
    Output o = matrix_output("OpSpecConstantComposite", m,
                             device.run(spec, {std::vector<std::byte>(count * component_bytes(m.type))})[0]);
    for (size_t i = 0; i < count; ++i) write_value(o.expected, m.type, i, splat);
    Observation observation;
    observation.outputs.push_back(std::move(o));
    return observation;
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    const std::vector<MatrixType> all = covered_matrix_types();
    for (Op op : {Op::Constant, Op::Null, Op::Construct, Op::Index, Op::ConstantIndex}) {
        const bool has_optimized_form = op == Op::Index || op == Op::ConstantIndex;
        for (const MatrixType& m : two_per_type(all)) {
            for (bool optimize : {false, true}) {
                if (optimize && !has_optimized_form) continue;
                cases.push_back({group_of(op),
                                 std::string(component_name(m.type)) + "/" + matrix_name(m) + (optimize ? "_optimized" : ""),
                                 {std::nullopt, {m}},
                                 [op, m, optimize](CoopmatDevice& device) { return run_composite(device, op, m, optimize); },
                                 op != Op::ConstantIndex});
            }
        }
    }
    for (const MatrixType& m : two_per_type(all)) {
        if (m.type != VK_COMPONENT_TYPE_FLOAT32_KHR && m.type != VK_COMPONENT_TYPE_SINT32_KHR) continue;
        cases.push_back({"SpecConstantComposite", std::string(component_name(m.type)) + "/" + matrix_name(m),
                         {std::nullopt, {m}}, [m](CoopmatDevice& device) { return run_spec_constant_composite(device, m); }});
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
