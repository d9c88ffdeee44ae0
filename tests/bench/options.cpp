#include "options.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "text_parsing.h"

namespace vkpolyfill::bench {

const char kUsage[] =
    "usage: vkpolyfill_bench [options]\n"
    "  f16*f16->f32 GEMM, square sizes: (a) each cooperative-matrix shader through the layer with\n"
    "  force_emulation=VK_KHR_cooperative_matrix,VK_NV_cooperative_matrix2, (b) the same shader on the\n"
    "  driver, (c) the scalar shader on the driver; and pipeline-creation times with and without the layer.\n"
    "  --quick                 sizes 256 and 512 (default 1024 and 2048)\n"
    "  --sizes N[,N...]        other square sizes\n"
    "  --reps N                timed dispatches per measurement (default 5)\n"
    "  --creation-reps N       pipeline creations per measurement (default 50)\n"
    "  --driver D              native (lavapipe 26, default) | plain (lavapipe 25) | system\n"
    "  --only LIST             some of emulated,native,scalar,creation\n"
    "  --kernels LIST          the cooperative-matrix kernels, some of khr,workgroup,flexible (default all):\n"
    "                          khr: gemm_coopmat.comp at a VK_KHR_cooperative_matrix shape; workgroup:\n"
    "                          gemm_coopmat2.comp, workgroup scope; flexible: gemm_coopmat.comp at a\n"
    "                          subgroup-scope shape only VK_NV_cooperative_matrix2 allows\n"
    "  --scalar k=v[,k=v...]   scalar kernel parameters (see shaders/bench/gemm_scalar.comp), on top of\n"
    "                          the driver's first tuning; by default every tuning of the driver is measured\n"
    "                          and (c) is the fastest at each size (tests/bench/kernels.cpp)\n"
    "  --coopmat k=v[,k=v...]  khr kernel parameters (see shaders/bench/gemm_coopmat.comp); both\n"
    "                          stage=1 (A/B via shared memory) and stage=0 are measured unless set;\n"
    "                          the shape (tm,tn,tk) picks the other defaults (tests/bench/kernels.cpp)\n"
    "  --coopmat2 k=v[,k=v...] workgroup kernel parameters (see shaders/bench/gemm_coopmat2.comp; defaults per\n"
    "                          driver in tests/bench/kernels.*; BM and BN at most the size)\n"
    "  --flexible k=v[,k=v...] flexible kernel parameters (gemm_coopmat.comp's; defaults per driver as above)\n"
    "                          --scalar, --coopmat2 and --flexible take alternatives separated by ';', each measured in\n"
    "                          this process (repeated flags cross them: \"bm=128;bm=256\" x \"bk=16;bk=32\")\n"
    "  --json PATH             also write every figure as JSON\n";

namespace {

uint32_t parse_positive(std::string_view text, const char* what) {
    const uint32_t value = parse_uint(text, what);
    if (value == 0) throw std::invalid_argument(std::string(what) + " wants a positive number");
    return value;
}

// The configurations a kernel's flags ask for: each flag's ';'-separated alternatives, crossed.
std::vector<KernelConfig> variants(const KernelConfig& base, const std::vector<std::string>& flags) {
    std::vector<KernelConfig> out{base};
    for (const std::string& flag : flags) {
        std::vector<KernelConfig> crossed;
        for (const KernelConfig& config : out) {
            for (size_t start = 0; start <= flag.size();) {
                const size_t end = std::min(flag.find(';', start), flag.size());
                crossed.push_back(config);
                crossed.back().override_with(std::string_view(flag).substr(start, end - start));
                start = end + 1;
            }
        }
        out = std::move(crossed);
    }
    return out;
}

}  // namespace

Options parse_options(int argc, char** argv, bool& help) {
    Options o;
    help = false;
    std::vector<std::string> scalar_overrides, coopmat_overrides, coopmat2_overrides, flexible_overrides;
    bool khr = true, workgroup = true, flexible = true;
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
        } else if (arg == "--kernels") {
            khr = workgroup = flexible = false;
            for (const std::string_view item : split_list(value())) {
                bool* flag = item == "khr" ? &khr : item == "workgroup" ? &workgroup : item == "flexible" ? &flexible : nullptr;
                if (flag == nullptr) throw std::invalid_argument("--kernels: unknown kernel '" + std::string(item) + "'");
                *flag = true;
            }
        } else if (arg == "--scalar") {
            scalar_overrides.emplace_back(value());
        } else if (arg == "--coopmat") {
            coopmat_overrides.emplace_back(value());
        } else if (arg == "--coopmat2") {
            coopmat2_overrides.emplace_back(value());
        } else if (arg == "--flexible") {
            flexible_overrides.emplace_back(value());
        } else if (arg == "--json") {
            o.json_path = value();
        } else {
            throw std::invalid_argument("unknown option '" + std::string(arg) + "'");
        }
    }
    const std::vector<KernelConfig> tunings = scalar_tunings(o.driver);
    o.scalar = scalar_overrides.empty() ? tunings : variants(tunings.front(), scalar_overrides);

    const auto configured = [](KernelConfig config, const std::vector<std::string>& overrides) {
        for (const std::string& assignments : overrides) config.override_with(assignments);
        return config;
    };
    if (khr) {
        // The matrix shape the overrides ask for picks the tiling's defaults; the overrides apply on top.
        const KernelConfig shape = configured(default_config(Kernel::Coopmat), coopmat_overrides);
        const KernelConfig base = coopmat_config(shape.get("tm"), shape.get("tn"), shape.get("tk"));
        const KernelConfig staged = configured(base, coopmat_overrides);
        KernelConfig direct = base;
        direct.override_with("stage=0");
        direct = configured(direct, coopmat_overrides);
        o.coopmat = {staged};
        if (direct.describe() != staged.describe()) o.coopmat.push_back(direct);  // unless --coopmat set stage
    }
    KernelConfig workgroup_default = default_config(Kernel::Coopmat2), flexible_default = flexible_coopmat_config();
    if (o.driver == "plain") {
        workgroup_default.override_with(kCoopmat2OnLavapipe25);
        flexible_default.override_with(kFlexibleOnLavapipe25);
    }
    const auto add = [&o](const std::vector<KernelConfig>& configs) { o.coopmat.insert(o.coopmat.end(), configs.begin(), configs.end()); };
    if (workgroup) add(variants(workgroup_default, coopmat2_overrides));
    if (flexible) add(variants(flexible_default, flexible_overrides));
    return o;
}

}  // namespace vkpolyfill::bench
