// Cooperative matrices through functions, variables and control flow, against a CPU reference:
//   Function  by-value parameters and a matrix return value, an inout parameter, a Function array
//             of matrices indexed at run time, a struct member, a Private variable
//             (shaders/tests/coopmat/function.glsl), with two indices;
//   Select    if/else assignment (after -O: OpPhi) and OpSelect of matrix type (glslang's ?:, in
//             an assembled module: spirv-val rejects it, so it is kept out of the GLSL shaders
//             the lowering tests take as their corpus), both ways;
//   Loop      A added to an accumulator in a loop of three iterations, one of which `continue`s.
// Select and Loop also run after spirv-opt -O, which carries the matrices in OpPhi (and OpSelect),
// as real engines' shaders arrive. (MulAddLoop in test_cooperative_matrix_muladd.cpp loops over
// multiply-adds.)
#include "coopmat_assembly.h"
#include "coopmat_cases.h"
#include "coopmat_matrix.h"
#include "coopmat_runs.h"

namespace vkpolyfill::test::coopmat {
namespace {

enum class Flow : uint32_t { IfElse, Loop, Select };  // control_flow.glsl's OP (IfElse, Loop)
constexpr uint32_t kLoopCount = 3, kLoopSkipped = 1;  // the loop's iterations, the one that continues
// SPIR-V 1.4 allows OpSelect of any composite and SPV_KHR_cooperative_matrix makes matrices
// composites, but spirv-val (2026.4) and lavapipe 26 do not take it yet.
constexpr char kSelectGap[] = "OpSelect of a cooperative-matrix type";

// O = FLAG != 0 ? A : B as OpSelect of matrix type; buffers A, B, O; FLAG the first push constant.
std::vector<uint32_t> assemble_select(Component type) {
    return assemble(module_head(type, 3, "%push", "OpDecorate %push_block Block\nOpMemberDecorate %push_block 0 Offset 0\n") +
                    R"(
 %push_block = OpTypeStruct %uint
   %push_ptr = OpTypePointer PushConstant %push_block
  %push_uint = OpTypePointer PushConstant %uint
       %push = OpVariable %push_ptr PushConstant
       %main = OpFunction %void None %fn
      %entry = OpLabel
    %a_first = OpAccessChain %element %buffer0 %uint_0 %uint_0
          %a = OpCooperativeMatrixLoadKHR %matrix %a_first %uint_0 %cols
    %b_first = OpAccessChain %element %buffer1 %uint_0 %uint_0
          %b = OpCooperativeMatrixLoadKHR %matrix %b_first %uint_0 %cols
   %flag_ptr = OpAccessChain %push_uint %push %uint_0
       %flag = OpLoad %uint %flag_ptr
     %chosen = OpINotEqual %bool %flag %uint_0
          %o = OpSelect %matrix %chosen %a %b
    %o_first = OpAccessChain %element %buffer2 %uint_0 %uint_0
               OpCooperativeMatrixStoreKHR %o_first %o %uint_0 %cols
               OpReturn
               OpFunctionEnd
)");
}

struct FlowPush {
    uint32_t flag, count;
};

std::string shader(const char* family, const MatrixType& m) {
    return "tests/coopmat/" + std::string(family) + "_" + std::string(short_name(m.type)) + ".comp";
}

Observation run_function(CoopmatDevice& device, const MatrixType& m) {
    const std::vector<std::byte> a = random_matrix(m, 11 * m.rows + m.cols), b = random_matrix(m, 13 * m.rows + m.cols);
    Observation observation;
    for (const uint32_t index : {2u, 0u}) {
        Output o = matrix_output("index " + std::to_string(index), m,
                                 run_a_b_to_o(device,
                                              {.shader = shader("function", m),
                                               .constants = matrix_constants(device, m),
                                               .buffers = 3,
                                               .push_constant_bytes = sizeof(index)},
                                              m, a, b, std::as_bytes(std::span(&index, 1))));
        for (size_t i = 0; i < static_cast<size_t>(m.rows) * m.cols; ++i) {
            const double av = read_value(a, m.type, i), bv = read_value(b, m.type, i);
            const double chosen = index == 2 ? -rounded(m.type, av + bv) : av;
            write_value(o.expected, m.type, i, 2 * rounded(m.type, chosen));
        }
        observation.outputs.push_back(std::move(o));
    }
    return observation;
}

PipelineSpec flow_pipeline(const CoopmatDevice& device, Flow flow, const MatrixType& m, bool optimize) {
    if (flow == Flow::Select) {
        return {.constants = matrix_constants(device, m),
                .buffers = 3,
                .push_constant_bytes = sizeof(FlowPush),
                .words = assemble_select(m.type)};
    }
    return {.shader = shader("control_flow", m),
            .constants = matrix_constants(device, m, {static_cast<uint32_t>(flow)}),
            .buffers = 3,
            .push_constant_bytes = sizeof(FlowPush),
            .specialize = true,
            .optimize = optimize};
}

Observation run_flow(CoopmatDevice& device, Flow flow, const MatrixType& m, bool optimize) {
    const std::vector<std::byte> a = random_matrix(m, 17 * m.rows + m.cols), b = random_matrix(m, 19 * m.rows + m.cols);
    const PipelineSpec spec = flow_pipeline(device, flow, m, optimize);
    Observation observation;
    for (const uint32_t flag : flow == Flow::Loop ? std::vector<uint32_t>{kLoopSkipped} : std::vector<uint32_t>{1, 0}) {
        const FlowPush push{flag, kLoopCount};
        Output o = matrix_output(flow == Flow::Loop ? "loop" : "flag " + std::to_string(flag), m,
                                 run_a_b_to_o(device, spec, m, a, b, std::as_bytes(std::span(&push, 1))));
        for (size_t i = 0; i < static_cast<size_t>(m.rows) * m.cols; ++i) {
            double expected = flag ? read_value(a, m.type, i) : read_value(b, m.type, i);
            if (flow == Flow::Loop) {
                expected = 0;
                for (uint32_t k = 0; k < kLoopCount; ++k) {
                    if (k != kLoopSkipped) expected = rounded(m.type, expected + read_value(a, m.type, i));
                }
            }
            write_value(o.expected, m.type, i, expected);
        }
        observation.outputs.push_back(std::move(o));
    }
    return observation;
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    for (const MatrixType& m : two_per_type(covered_matrix_types())) {
        const std::string name = std::string(component_name(m.type)) + "/" + matrix_name(m);
        cases.push_back({"Function", name, {std::nullopt, {m}}, [m](CoopmatDevice& device) { return run_function(device, m); }});
        // glslang's if/else is variables, as everywhere; after -O it is an OpPhi.
        cases.push_back({"Select", name + "_ifelse_optimized", {std::nullopt, {m}},
                         [m](CoopmatDevice& device) { return run_flow(device, Flow::IfElse, m, true); }});
        Case select{"Select", name + "_opselect", {std::nullopt, {m}},
                    [m](CoopmatDevice& device) { return run_flow(device, Flow::Select, m, false); }};
        select.native_gap = kSelectGap;
        cases.push_back(std::move(select));
        for (bool optimize : {false, true}) {
            cases.push_back({"Loop", name + (optimize ? "_optimized" : ""), {std::nullopt, {m}},
                             [m, optimize](CoopmatDevice& device) { return run_flow(device, Flow::Loop, m, optimize); }});
        }
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
