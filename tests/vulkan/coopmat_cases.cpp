#include "coopmat_cases.h"

#include "driver_only_leak_scope.h"

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace vkpolyfill::test::coopmat {
namespace {

constexpr Mode kModes[] = {Mode::Native, Mode::Emulated, Mode::Forced};

std::string where_this_runs(Mode mode) {
    std::string text = "the " + driver_name() + " driver";
    if (mode == Mode::Native) return text + " without the layer";
    text += " through " + std::string(kLayerName);
    return mode == Mode::Forced ? text + " with force_emulation=VK_KHR_cooperative_matrix" : text;
}

// What of `needs` the list lacks, or "" when it has everything.
std::string unmet(const Requirement& needs, const std::vector<Configuration>& list) {
    if (needs.configuration && !reported(*needs.configuration, list)) return describe(*needs.configuration);
    std::string missing;
    for (const MatrixType& m : needs.matrices) {
        const std::string name = std::string(component_name(m.type)) + " " + std::string(use_name(m.use)) + " " +
                                 std::to_string(m.rows) + "x" + std::to_string(m.cols) + " matrices";
        if (!declarable(m, list) && missing.find(name) == std::string::npos) missing += (missing.empty() ? "" : ", ") + name;
    }
    return missing;
}

std::string reported_list(const std::vector<Configuration>& list) {
    if (list.empty()) return "nothing";
    std::string text;
    for (const Configuration& c : list) text += (text.empty() ? "" : "; ") + describe(c);
    return text;
}

Observation observe(Mode mode, const DeviceFacts& facts, const Case& c) {
    CoopmatDevice device(mode, facts);
    return c.run(device);
}

// The native run, or nothing when the driver refuses the module for the case's known reason.
std::optional<Observation> observe_native(const DeviceFacts& facts, const Case& c) {
    const DriverOnlyLeakScope driver_alone;
    try {
        return observe(Mode::Native, facts, c);
    } catch (const PipelineCreationError& e) {
        if (c.native_gap.empty()) throw;
        std::cout << "note: the driver refuses this module natively (" << c.native_gap << "): " << e.what() << "\n";
        return std::nullopt;
    }
}

void expect_reference(const Observation& observation) {
    for (const Output& output : observation.outputs) EXPECT_TRUE(matches(output, output.expected, "expected"));
    for (const testing::AssertionResult& property : observation.properties) EXPECT_TRUE(property);
}

void expect_agreement(const Observation& forced, const Observation& native) {
    ASSERT_EQ(native.outputs.size(), forced.outputs.size());
    for (size_t i = 0; i < forced.outputs.size(); ++i) {
        EXPECT_TRUE(matches(forced.outputs[i], native.outputs[i].actual, "native"))
            << "forced emulation and the driver's own cooperative matrices disagree";
    }
}

// Why `facts` (of `mode`) cannot run the case, or "". "not supported: " makes the skip CTS's
// NotSupported for scripts/conformance.sh.
std::string unsupported(Mode mode, const DeviceFacts& facts, const Case& c) {
    if (!facts.extension) return "not supported: " + where_this_runs(mode) + " has no VK_KHR_cooperative_matrix";
    const std::string missing = unmet(c.needs, facts.configurations);
    if (missing.empty()) return "";
    return "not supported: " + where_this_runs(mode) + " does not report " + missing + "; it reports " +
           reported_list(facts.configurations);
}

void run_native(const Case& c) {
    const DeviceFacts facts = probe(Mode::Native);
    if (const std::string why = unsupported(Mode::Native, facts, c); !why.empty()) GTEST_SKIP() << why;
    const std::optional<Observation> native = observe_native(facts, c);
    if (!native) GTEST_SKIP() << "the driver refuses this module natively: " << c.native_gap;
    expect_reference(*native);
}

void run_emulated(const Case& c) {
    const DeviceFacts facts = probe(Mode::Emulated);
    require_layer(facts, Mode::Emulated);
    if (testing::Test::HasFatalFailure()) return;
    if (const std::string why = unsupported(Mode::Emulated, facts, c); !why.empty()) GTEST_SKIP() << why;
    expect_reference(observe(Mode::Emulated, facts, c));
}

// Forced emulation exists to be compared with the driver's own implementation, so it runs what the
// driver reports natively (the rest is CooperativeMatrixEmulated's, on the plain driver).
void run_forced(const Case& c) {
    const DeviceFacts native_facts = probe(Mode::Native);
    if (const std::string why = unsupported(Mode::Native, native_facts, c); !why.empty()) {
        GTEST_SKIP() << why << ": nothing to compare forced emulation with (CooperativeMatrixEmulated covers the case)";
    }
    const DeviceFacts facts = probe(Mode::Forced);
    require_layer(facts, Mode::Forced);
    if (testing::Test::HasFatalFailure()) return;
    if (const std::string why = unsupported(Mode::Forced, facts, c); !why.empty()) GTEST_SKIP() << why;
    const Observation forced = observe(Mode::Forced, facts, c);
    expect_reference(forced);
    if (!c.agrees_across_implementations) return;
    if (const std::optional<Observation> native = observe_native(native_facts, c)) expect_agreement(forced, *native);
}

void run(Mode mode, const Case& c) {
    switch (mode) {
        case Mode::Native: return run_native(c);
        case Mode::Emulated: return run_emulated(c);
        case Mode::Forced: return run_forced(c);
    }
}

class ModeTest : public testing::Test {
  public:
    ModeTest(Mode mode, std::function<void(Mode)> body) : mode_(mode), body_(std::move(body)) {}
    void TestBody() override { body_(mode_); }

  private:
    Mode mode_;
    std::function<void(Mode)> body_;
};

}  // namespace

void require_layer(const DeviceFacts& facts, Mode mode) {
    ASSERT_TRUE(facts.layer_advertises && facts.feature)
        << "layer does not advertise VK_KHR_cooperative_matrix yet (" << where_this_runs(mode)
        << "): extension in the layer's list " << facts.layer_advertises << ", cooperativeMatrix feature " << facts.feature;
}

void register_mode_test(const std::string& group, const std::string& name, std::vector<Mode> modes,
                        std::function<void(Mode)> body) {
    for (Mode mode : modes) {
        const std::string suite = "CooperativeMatrix" + std::string(mode_name(mode)) + "/" + group;
        testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [mode, body]() -> testing::Test* { return new ModeTest(mode, body); });
    }
}

void register_case(Case c) {
    auto shared = std::make_shared<const Case>(std::move(c));
    register_mode_test(shared->group, shared->name, {std::begin(kModes), std::end(kModes)},
                       [shared](Mode mode) { run(mode, *shared); });
}

bool register_cases(const std::function<std::vector<Case>()>& make) {
    for (Case& c : make()) register_case(std::move(c));
    return true;
}

}  // namespace vkpolyfill::test::coopmat
