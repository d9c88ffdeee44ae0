// Cooperative-matrix cases registered as gtest tests, once per mode:
//   CooperativeMatrixNative/<Group>.<name>    the driver's own extension, no layer;
//   CooperativeMatrixEmulated/<Group>.<name>  through the layer on a driver without it;
//   CooperativeMatrixForced/<Group>.<name>    through the layer with force_emulation on a driver
//                                             with it, for the cases the driver reports natively:
//                                             compared with the CPU reference and with the native
//                                             run (bit-exact for integers).
// tests/vulkan/CMakeLists.txt picks the modes that apply to each driver. A case whose
// configuration the mode does not report is skipped, naming what the device reports; the layer
// modes fail (they do not skip) when the layer does not advertise VK_KHR_cooperative_matrix.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "coopmat_compare.h"
#include "coopmat_configurations.h"
#include "coopmat_device.h"

namespace vkpolyfill::test::coopmat {

// What must be reported for a case to run: a whole configuration (multiply-adds) and the matrix
// types the shader declares.
struct Requirement {
    std::optional<Configuration> configuration;
    std::vector<MatrixType> matrices;
};

struct Case {
    std::string group;  // "MulAdd"
    std::string name;   // "float16_float32/16x16x16_rowmajor_buffer"
    Requirement needs;
    std::function<Observation(CoopmatDevice&)> run;
    // False where outputs depend on the implementation's element mapping (Length): then forced
    // emulation is not compared with the native run, only with the properties.
    bool agrees_across_implementations = true;
    // Why a driver may refuse this module natively (a form the SPIR-V rules allow but drivers and
    // spirv-val do not take yet); a native pipeline failure then skips with this reason.
    std::string native_gap{};
};

void register_case(Case c);

// A test that is not a case (no configuration to run) but belongs to modes all the same:
// CooperativeMatrix<Mode>/<group>.<name> for each of `modes`, calling `body(mode)`.
void register_mode_test(const std::string& group, const std::string& name, std::vector<Mode> modes,
                        std::function<void(Mode)> body);

// Fails the current test unless the layer advertises VK_KHR_cooperative_matrix in `facts`.
void require_layer(const DeviceFacts& facts, Mode mode);

// Registers the cases `make` returns, once, at static initialization: `const bool registered =
// register_cases(make_load_store_cases);` in each test file.
bool register_cases(const std::function<std::vector<Case>()>& make);

}  // namespace vkpolyfill::test::coopmat
