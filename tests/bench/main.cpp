// vkpolyfill_bench: f16 GEMM through the layer's coopmat emulation, on the driver's own coopmat,
// and as a tuned scalar shader, plus the layer's pipeline-creation cost. Not a ctest test: run it
// through scripts/bench.sh (or scripts/env.sh). It points the loader at the chosen driver and at
// this build tree's layer before anything touches Vulkan, as the Vulkan tests' main does.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <stdexcept>

#include "benchmark.h"
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
        if (options.driver != "system") {
            const char* variable = options.driver == "plain" ? "VKPOLYFILL_ICD_PLAIN" : "VKPOLYFILL_ICD_NATIVE";
            const char* icd = std::getenv(variable);
            if (icd == nullptr || *icd == '\0') {
                std::fprintf(stderr, "%s is not set: run through scripts/env.sh (scripts/bench.sh does), or use --driver system\n",
                             variable);
                return 2;
            }
            setenv("VK_DRIVER_FILES", icd, 1);
        }
        setenv("VK_ADD_LAYER_PATH", VKPOLYFILL_LAYER_MANIFEST_PATH, 1);
        // Mesa drivers keep compiled shaders on disk; without that cache every pipeline creation
        // and first dispatch does the driver's whole compile, the same on every run.
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);

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
