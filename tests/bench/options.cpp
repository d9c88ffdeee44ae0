#include "options.h"

#include <stdexcept>
#include <string_view>

#include "text_parsing.h"

namespace vkpolyfill::bench {

const char kUsage[] =
    "usage: vkpolyfill_bench [options]\n"
    "  f16*f16->f32 GEMM, square sizes: (a) the coopmat shader through the layer with\n"
    "  force_emulation=VK_KHR_cooperative_matrix, (b) the same shader on the driver, (c) the\n"
    "  scalar shader on the driver; and pipeline-creation times with and without the layer.\n"
    "  --quick                 sizes 256 and 512 (default 1024 and 2048)\n"
    "  --sizes N[,N...]        other square sizes\n"
    "  --reps N                timed dispatches per measurement (default 5)\n"
    "  --creation-reps N       pipeline creations per measurement (default 50)\n"
    "  --driver D              native (lavapipe 26, default) | plain (lavapipe 25) | system\n"
    "  --only LIST             some of emulated,native,scalar,creation\n"
    "  --scalar k=v[,k=v...]   scalar kernel parameters (see shaders/bench/gemm_scalar.comp); the\n"
    "                          defaults are tuned for lavapipe 26, with --driver plain for lavapipe 25\n"
    "  --coopmat k=v[,k=v...]  coopmat kernel parameters (see shaders/bench/gemm_coopmat.comp); both\n"
    "                          stage=1 (A/B via shared memory) and stage=0 are measured unless set\n"
    "  --json PATH             also write every figure as JSON\n";

namespace {

uint32_t parse_positive(std::string_view text, const char* what) {
    const uint32_t value = parse_uint(text, what);
    if (value == 0) throw std::invalid_argument(std::string(what) + " wants a positive number");
    return value;
}

}  // namespace

Options parse_options(int argc, char** argv, bool& help) {
    Options o;
    help = false;
    std::vector<std::string> scalar_overrides, coopmat_overrides;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> std::string_view {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            help = true;
        } else if (arg == "--quick") {
            o.sizes = {256, 512};
        } else if (arg == "--sizes") {
            o.sizes.clear();
            for (const std::string_view item : split_list(value())) o.sizes.push_back(parse_positive(item, "--sizes"));
        } else if (arg == "--reps") {
            o.reps = static_cast<int>(parse_positive(value(), "--reps"));
        } else if (arg == "--creation-reps") {
            o.creation_reps = static_cast<int>(parse_positive(value(), "--creation-reps"));
        } else if (arg == "--driver") {
            o.driver = value();
            if (o.driver != "native" && o.driver != "plain" && o.driver != "system") {
                throw std::invalid_argument("--driver is native, plain or system, not '" + o.driver + "'");
            }
        } else if (arg == "--only") {
            o.measure = {false, false, false, false};
            for (const std::string_view item : split_list(value())) {
                bool* flag = item == "emulated" ? &o.measure.emulated
                             : item == "native" ? &o.measure.native
                             : item == "scalar" ? &o.measure.scalar
                             : item == "creation" ? &o.measure.creation
                                                  : nullptr;
                if (flag == nullptr) throw std::invalid_argument("--only: unknown measurement '" + std::string(item) + "'");
                *flag = true;
            }
        } else if (arg == "--scalar") {
            scalar_overrides.emplace_back(value());
        } else if (arg == "--coopmat") {
            coopmat_overrides.emplace_back(value());
        } else if (arg == "--json") {
            o.json_path = value();
        } else {
            throw std::invalid_argument("unknown option '" + std::string(arg) + "'");
        }
    }
    if (o.driver == "plain") o.scalar.override_with(kScalarOnLavapipe25);
    for (const std::string& assignments : scalar_overrides) o.scalar.override_with(assignments);

    KernelConfig staged = default_config(Kernel::Coopmat);
    KernelConfig direct = staged;
    direct.override_with("stage=0");
    o.coopmat = {staged, direct};
    for (KernelConfig& variant : o.coopmat) {
        for (const std::string& assignments : coopmat_overrides) variant.override_with(assignments);
    }
    if (o.coopmat[0].describe() == o.coopmat[1].describe()) o.coopmat.pop_back();  // --coopmat set stage
    return o;
}

}  // namespace vkpolyfill::bench
