// What each mode reports through vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR, read at run time,
// against the cases this suite has (coopmat_configurations.cpp):
//  - the plain driver alone reports nothing, so no CooperativeMatrixNative case runs there: every
//    case on it goes through the layer (CooperativeMatrixEmulated), which must report at least what
//    issue [K] requires (16x16x16, 16x8x16, 16x8x8 and 8x8x8 f16 with f16 or f32 accumulators;
//    16x16x32 s8 and u8, saturating or not), and so must forced emulation;
//  - every configuration a mode reports has cases, so no configuration passes untested.
#include <iostream>

#include <gtest/gtest.h>

#include "coopmat_cases.h"

namespace vkpolyfill::test::coopmat {
namespace {

std::string listed(const std::vector<Configuration>& configurations) {
    std::string text;
    for (const Configuration& c : configurations) text += "\n  " + describe(c);
    return text.empty() ? " nothing" : text;
}

TEST(CooperativeMatrixQuery, DriverAlone) {
    const DeviceFacts facts = probe(Mode::Native);
    std::cout << "the " << driver_name() << " driver without the layer reports:" << listed(facts.configurations) << "\n";
    if (driver_name() == "plain") {
        EXPECT_FALSE(facts.extension) << "lavapipe 25 was chosen as the plain driver for lacking VK_KHR_cooperative_matrix";
        std::cout << "so no CooperativeMatrixNative case runs on it; the CooperativeMatrixEmulated cases run it through the "
                     "layer\n";
    } else {
        EXPECT_TRUE(facts.extension && facts.feature);
        EXPECT_FALSE(facts.configurations.empty());
    }
}

void every_configuration_has_cases(Mode mode) {
    const DeviceFacts facts = probe(mode);
    if (mode != Mode::Native) {
        require_layer(facts, mode);
        if (testing::Test::HasFatalFailure()) return;
    }
    std::vector<Configuration> uncovered;
    for (const Configuration& c : facts.configurations) {
        if (!reported(c, covered_configurations())) uncovered.push_back(c);
    }
    EXPECT_TRUE(uncovered.empty()) << "reported, but no case exercises:" << listed(uncovered);
    if (mode == Mode::Native) {
        EXPECT_FALSE(facts.configurations.empty());
    }
}

void reports_what_is_required(Mode mode) {
    const DeviceFacts facts = probe(mode);
    require_layer(facts, mode);
    if (testing::Test::HasFatalFailure()) return;
    EXPECT_TRUE(facts.stages & VK_SHADER_STAGE_COMPUTE_BIT);
    std::vector<Configuration> missing;
    for (const Configuration& c : required_configurations()) {
        if (!reported(c, facts.configurations)) missing.push_back(c);
    }
    EXPECT_TRUE(missing.empty()) << "not reported:" << listed(missing) << "\nreported:" << listed(facts.configurations);
}

const bool registered = [] {
    register_mode_test("Query", "EveryConfigurationHasCases", {Mode::Native, Mode::Emulated, Mode::Forced},
                       every_configuration_has_cases);
    register_mode_test("Query", "RequiredConfigurations", {Mode::Emulated, Mode::Forced}, reports_what_is_required);
    return true;
}();

}  // namespace
}  // namespace vkpolyfill::test::coopmat
