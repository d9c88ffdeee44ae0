// vkpolyfill_bench: f16 GEMM through the layer's coopmat and coopmat2 emulation, on the driver's own,
// and as a tuned scalar shader, plus the layer's pipeline-creation cost. Run it through
// scripts/bench.sh (or scripts/env.sh); ctest runs it once at a small size (bench.*.gemm_smoke).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <stdexcept>

#include "benchmark.h"
#include "driver_selection.h"
#include "report.h"

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    try {
        bool help = false;
        const Options options = parse_options(argc, argv, help);
        if (help) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (const std::string error = select_driver(options.driver); !error.empty()) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 2;
        }

        const Results results = run_benchmark(options);
        std::fputs(markdown_report(results).c_str(), stdout);
        if (!options.json_path.empty()) {
            std::ofstream json(options.json_path);
            json << json_report(results);
            if (!json) {
                std::fprintf(stderr, "cannot write %s\n", options.json_path.c_str());
                return 2;
            }
        }
        if (!results.all_verified()) {
            std::fputs("\nA GEMM result did not match the reference (see the check column).\n", stderr);
            return 1;
        }
        return 0;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "vkpolyfill_bench: %s\n%s", e.what(), kUsage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_bench: %s\n", e.what());
        return 2;
    }
}
