// vkpolyfill_long_composites_bench: what SPV_INTEL_long_composites costs. (1) lowering::lower() on the
// 100,000-element float table module (tests/long_composites: a Private variable initialized by the
// constant), the layer's cost at pipeline creation. (2) At run time, without the layer: the lowered
// table_in_buffer shader, whose lookups go through the split table type (a division per lookup and a
// nested array in memory), against table_buffer, the same lookups from a plain storage-buffer array.
// The Private-variable shader itself does not run on lavapipe in useful time (docs/long_composites.md,
// Lavapipe and long tables). Not a ctest test: run it through scripts/env.sh,
//   build/<preset>/tests/bench/vkpolyfill_long_composites_bench [--driver plain|native|system]
//       [--invocations N] [--repetitions R] [--json PATH]   (--json: the figures for scripts/bench.sh's report)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <stdexcept>
#include <string>

#include <vkpolyfill/lowering/lower.h>

#include "figures.h"
#include "long_composites_modules.h"
#include "stats.h"
#include "vulkan_context.h"

namespace vkpolyfill::bench {
namespace {

namespace modules = test::long_composites;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string driver = "plain";
    uint32_t invocations = 1u << 20;  // a multiple of the modules' workgroup width, 64
    uint32_t repetitions = 15;
    std::string json;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) throw std::invalid_argument("unknown or incomplete option " + arg);
        const std::string value = argv[++i];
        if (arg == "--driver") {
            options.driver = value;
        } else if (arg == "--invocations") {
            options.invocations = static_cast<uint32_t>(std::stoul(value)) / 64 * 64;
        } else if (arg == "--repetitions") {
            options.repetitions = static_cast<uint32_t>(std::stoul(value));
        } else if (arg == "--json") {
            options.json = value;
        } else {
            throw std::invalid_argument("unknown option " + arg);
        }
    }
    if (options.invocations == 0 || options.repetitions == 0) throw std::invalid_argument("nothing to measure");
    return options;
}

double milliseconds_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void print(const char* what, const Summary& s) {
    std::printf("| %s | %.2f | %.2f | %.2f |\n", what, s.median, s.min, s.max);
}

lowering::Target lowering_target() {
    lowering::Target target;
    target.emulate = lowering::bit(lowering::Emulated::IntelLongComposites);
    return target;
}

double thread_cpu_milliseconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// (1), the first run included, as the layer meets each module once before its cache. The CPU time
// is the lowering's own cost on a machine that other work shares.
void measure_lowering(const Options& options, Figures& figures) {
    const std::vector<uint32_t> words = modules::read_module("table");
    if (words.empty()) throw std::runtime_error("the table module is missing: build vkpolyfill_long_composites_modules");
    std::vector<double> wall, cpu;
    lowering::Result result;
    for (uint32_t r = 0; r < options.repetitions; ++r) {
        const Clock::time_point start = Clock::now();
        const double cpu_start = thread_cpu_milliseconds();
        result = lowering::lower(words, lowering_target(), {});
        cpu.push_back(thread_cpu_milliseconds() - cpu_start);
        wall.push_back(milliseconds_since(start));
        if (!result.ok) throw std::runtime_error("lowering the table module failed");
    }
    std::printf("lower() on the %u-element table module (%zu words in, %zu out), ms:\n\n", modules::kTableElements,
                words.size(), result.words.size());
    std::printf("| | median | min | max |\n| --- | --- | --- | --- |\n");
    print("lower(), wall clock", summarize(wall));
    print("lower(), thread CPU time", summarize(cpu));
    figures.add("lower(), 100,000-element table", "wall clock", "ms", summarize(wall));
    figures.add("lower(), 100,000-element table", "thread CPU time", "ms", summarize(cpu));
    // The first run meets cold allocations, as the layer does when it lowers a module the first time.
    std::printf("\nfirst run: wall clock %.2f ms, thread CPU time %.2f ms\n", wall.front(), cpu.front());
}

struct Run {
    Summary dispatch_ms;
    double pipeline_ms;
};

// Dispatches `spirv`, whose bindings are the indices, the results, the table in a storage buffer and,
// for table_in_buffer, the samples it reads from the constant; checks every result against the CPU.
Run measure_shader(test::Context& context, const std::vector<uint32_t>& spirv, uint32_t bindings, const Options& options) {
    constexpr uint32_t n = modules::kTableElements;
    test::Buffer indices = context.create_buffer(options.invocations * sizeof(uint32_t));
    test::Buffer results = context.create_buffer(options.invocations * sizeof(float));
    test::Buffer table = context.create_buffer(n * sizeof(float));
    test::Buffer samples = context.create_buffer(modules::samples(n).size() * sizeof(float));
    for (uint32_t x = 0; x < options.invocations; ++x) indices.as<uint32_t>()[x] = static_cast<uint32_t>((x * 2654435761ull) % n);
    for (uint32_t i = 0; i < n; ++i) table.as<float>()[i] = modules::table_value(i);
    const Clock::time_point created = Clock::now();
    const test::ComputePipeline pipeline = context.create_compute_pipeline(spirv, bindings, 0);
    const double pipeline_ms = milliseconds_since(created);
    const test::Buffer* buffers[] = {&indices, &results, &table, &samples};
    std::vector<double> times;
    for (uint32_t r = 0; r < options.repetitions; ++r) {
        const Clock::time_point start = Clock::now();
        context.dispatch(pipeline, std::span(buffers).first(bindings), {}, options.invocations / 64);
        times.push_back(milliseconds_since(start));
    }
    for (uint32_t x = 0; x < options.invocations; ++x) {
        if (results.as<float>()[x] != modules::table_result(indices.as<uint32_t>()[x], n, modules::kTableLookups)) {
            throw std::runtime_error("wrong result at invocation " + std::to_string(x));
        }
    }
    return {summarize(times), pipeline_ms};
}

void run(const Options& options) {
    Figures figures("SPV_INTEL_long_composites", options.driver);
    measure_lowering(options, figures);
    const lowering::Result lowered = lowering::lower(modules::read_module("table_in_buffer"), lowering_target(), {});
    if (!lowered.ok) throw std::runtime_error("lowering the table_in_buffer module failed");
    test::Context context({.layer = false});
    const Run split = measure_shader(context, lowered.words, 4, options);
    const Run plain = measure_shader(context, modules::read_module("table_buffer"), 3, options);
    std::printf("\n%u invocations, %u lookups each, %u repetitions; dispatch and wait, ms:\n\n", options.invocations,
                modules::kTableLookups, options.repetitions);
    std::printf("| | median | min | max |\n| --- | --- | --- | --- |\n");
    print("lowered table_in_buffer (split table type)", split.dispatch_ms);
    print("table_buffer (plain storage-buffer array)", plain.dispatch_ms);
    const std::string lookups =
        std::to_string(options.invocations) + " invocations x " + std::to_string(modules::kTableLookups) + " lookups";
    figures.add(lookups, "lowered (split table type)", "ms per dispatch", split.dispatch_ms);
    figures.add(lookups, "plain storage-buffer array", "ms per dispatch", plain.dispatch_ms);
    if (!options.json.empty()) figures.write(options.json);
    std::printf("\nrun-time ratio (lowered / plain, medians): %.2f\n", split.dispatch_ms.median / plain.dispatch_ms.median);
    std::printf("pipeline creation, ms: lowered %.1f, plain %.1f\n", split.pipeline_ms, plain.pipeline_ms);
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    try {
        const Options options = parse(argc, argv);
        if (options.driver != "system") {
            const char* variable = options.driver == "plain" ? "VKPOLYFILL_ICD_PLAIN" : "VKPOLYFILL_ICD_NATIVE";
            const char* icd = std::getenv(variable);
            if (icd == nullptr || *icd == '\0') {
                std::fprintf(stderr, "%s is not set: run through scripts/env.sh, or use --driver system\n", variable);
                return 2;
            }
            setenv("VK_DRIVER_FILES", icd, 1);
        }
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);  // pipeline creation is the driver's whole compile
        run(options);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_long_composites_bench: %s\n", e.what());
        return 2;
    }
}
