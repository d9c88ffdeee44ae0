// vkpolyfill_compile_kernels: the benchmarks' kernels compiled, not run, on the device VK_DRIVER_FILES
// names (a real GPU's compiler through scripts/gpu-proxy.sh): how long the pipeline took to create, the
// process's peak memory, and what the compiler reports (registers, spills, scratch, shared memory,
// occupancy, instructions, its static cycle estimate). One kernel per process, so that a compiler that
// runs out of memory or crashes costs that kernel only (scripts/gpu-sweep.sh runs them all).
//   vkpolyfill_compile_kernels --list
//   vkpolyfill_compile_kernels --kernel NAME [--json] [--expect BUDGETS]
// --expect: the budgets this kernel must meet on this device, comma-separated, from
//   created (the pipeline is created), time (within 10 s of CPU time, so that other load on the
//   machine does not decide it), memory (peak within 2 GiB), spills (none, and the compiler says so);
//   any unmet fails the run (exit 1). Every budget's verdict is printed either way.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_kernels.h"
#include "bench_device.h"
#include "driver_selection.h"
#include "gemm_pipeline.h"
#include "kernels.h"
#include "pipeline_statistics.h"
#include "json_writer.h"

namespace vkpolyfill::bench {
namespace {

constexpr double kSecondsBudget = 10, kMemoryBudgetMiB = 2048;

struct Made {
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::function<void()> destroy;
};

// One kernel: the route it takes (the driver alone, or the layer's emulation), what it computes per
// workgroup (to compare like with like), why it cannot be made on a device, and how it is made.
struct CompileKernel {
    const char* name;
    const char* what;
    Route route;
    std::function<std::string(const BenchDevice&)> workgroup;
    std::function<std::string(const BenchDevice&)> unavailable;
    std::function<Made(BenchDevice&, VkPipelineCreateFlags)> make;
};

std::string tile_text(const Geometry& g) {
    return std::to_string(g.invocations) + " invocations, " + std::to_string(g.tile_m) + "x" + std::to_string(g.tile_n) +
           " of C, K steps of " + std::to_string(g.tile_k);
}

CompileKernel gemm(const char* name, const char* what, Route route, KernelConfig config) {
    return {name, what, route,
            [config](const BenchDevice& d) { return tile_text(geometry(config, d.subgroup_size)); },
            [config](const BenchDevice& d) { return kernel_unavailable(d, config); },
            [config](BenchDevice& d, VkPipelineCreateFlags flags) {
                auto p = std::make_shared<GemmPipeline>(d, test::read_shader(shader_path(config.kernel)), config, flags);
                return Made{p->pipeline, [p]() mutable { p.reset(); }};
            }};
}

CompileKernel attention(const char* name, const char* what, Route route, const char* shader) {
    const bool coopmat2 = shader == std::string(kAttentionCoopmat2Shader);
    return {name, what, route,
            [coopmat2](const BenchDevice& d) {
                const uint32_t rows = coopmat2 ? kAttentionBlockRows : kAttentionScalarGroup;
                return std::to_string(coopmat2 ? d.subgroup_size : kAttentionScalarGroup) + " invocations, " +
                       std::to_string(rows) + " query rows x 256 keys, head 16";
            },
            [coopmat2](const BenchDevice& d) { return coopmat2 ? coopmat2_attention_unavailable(d, AttentionShape{}) : ""; },
            [shader](BenchDevice& d, VkPipelineCreateFlags flags) {
                const AttentionSpecialization specialization(d.subgroup_size, AttentionShape{});
                test::Context& c = d.context();
                const test::ComputePipeline p = c.create_compute_pipeline(test::read_shader(shader), 4, 0, &specialization.info, flags);
                return Made{p.pipeline, [] {}};  // the context destroys its pipelines
            }};
}

const std::vector<CompileKernel>& catalogue() {
    static const std::vector<CompileKernel> kernels = {
        gemm("gemm.scalar", "f16 GEMM, the scalar shader (the benchmark's first tuning)", Route::Native,
             scalar_tunings("system").front()),
        gemm("gemm.coopmat16.native", "f16 GEMM, KHR 16x16x16 matrices on the driver's own extension", Route::Native,
             coopmat_config(16, 16, 16)),
        gemm("gemm.coopmat16.emulated", "f16 GEMM, KHR 16x16x16 matrices lowered by the layer", Route::Emulated,
             coopmat_config(16, 16, 16)),
        gemm("gemm.coopmat8.emulated", "f16 GEMM, KHR 8x8x8 matrices lowered by the layer", Route::Emulated,
             default_config(Kernel::Coopmat)),
        gemm("gemm.flexible.emulated", "f16 GEMM, coopmat2 flexible-dimension subgroup matrices lowered by the layer",
             Route::Emulated, flexible_coopmat_config()),
        gemm("gemm.workgroup.emulated", "f16 GEMM, coopmat2 workgroup-scope matrices lowered by the layer", Route::Emulated,
             default_config(Kernel::Coopmat2)),
        attention("attention.coopmat2.emulated", "attention block, coopmat2 (reduce, per-element, conversion) lowered by the layer",
                  Route::Emulated, kAttentionCoopmat2Shader),
        attention("attention.scalar", "attention block, the scalar shader", Route::Native, kAttentionScalarShader),
    };
    return kernels;
}

rusage usage_now() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage;
}

double cpu_seconds(const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

struct Outcome {
    std::string problem;  // empty when the pipeline was created
    std::string workgroup;
    std::string device;
    double seconds = 0, cpu_seconds = 0, peak = 0;  // wall and CPU time to create the pipeline; peak MiB
    std::vector<test::ExecutableStatistics> statistics;
    test::CompilerFigures figures;

    bool created() const { return problem.empty(); }
    // The verdict on each budget; a budget that cannot be judged (no pipeline) is unmet.
    std::map<std::string, bool> verdicts() const {
        return {{"created", created()},
                {"time", created() && cpu_seconds <= kSecondsBudget},
                {"memory", created() && peak <= kMemoryBudgetMiB},
                {"spills", created() && figures.spilled && *figures.spilled == 0}};
    }
};

Outcome compile(const CompileKernel& kernel) {
    Outcome out;
    BenchDevice device(kernel.route);
    out.device = device.device_name;
    out.workgroup = kernel.workgroup(device);
    if (std::string why = kernel.unavailable(device); !why.empty()) {
        out.problem = "not applicable here: " + why;
        return out;
    }
    if (!device.captures_statistics) throw std::runtime_error("the device has no pipelineExecutableInfo");
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_seconds(usage_now());
    try {
        const Made made = kernel.make(device, VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out.cpu_seconds = cpu_seconds(usage_now()) - cpu_start;
        test::Context& c = device.context();
        out.statistics = test::read_pipeline_statistics(c.device, c.vk, made.pipeline);
        made.destroy();
    } catch (const std::runtime_error& e) {
        out.problem = e.what() + std::string(device.layer_problems().empty() ? "" : " (layer: " + device.layer_problems() + ")");
    }
    out.peak = static_cast<double>(usage_now().ru_maxrss) / 1024.0;  // KiB on Linux
    if (!out.statistics.empty()) out.figures = test::compiler_figures(out.statistics.front());
    return out;
}

void print_json(const CompileKernel& k, const Outcome& o) {
    JsonWriter json;
    json.begin_object().key("kernel").value(k.name).key("what").value(k.what);
    json.key("route").value(k.route == Route::Native ? "driver" : "layer").key("device").value(o.device);
    json.key("workgroup").value(o.workgroup).key("problem").value(o.problem);
    json.key("seconds").value(o.seconds).key("cpu_seconds").value(o.cpu_seconds).key("peak_mib").value(o.peak);
    const test::CompilerFigures& f = o.figures;
    const std::pair<const char*, const std::optional<double>*> figures[] = {
        {"registers", &f.registers}, {"spilled", &f.spilled},           {"scratch", &f.scratch}, {"shared", &f.shared},
        {"occupancy", &f.occupancy}, {"instructions", &f.instructions}, {"cycles", &f.cycles}};
    for (const auto& [name, value] : figures) {
        json.key(name);
        *value ? json.value(**value) : json.null();
    }
    json.key("verdicts").begin_object();
    for (const auto& [budget, met] : o.verdicts()) json.key(budget).value(met);
    json.end_object().key("executables").begin_array();
    for (const test::ExecutableStatistics& s : o.statistics) {
        json.begin_object().key("name").value(s.name).key("statistics").begin_object();
        for (const auto& [name, value] : s.values) json.key(name).value(value);
        json.end_object().end_object();
    }
    json.end_array().end_object();
    std::printf("%s\n", json.text().c_str());
}

void print_text(const CompileKernel& k, const Outcome& o) {
    std::printf("%s on %s (%s; %s)\n", k.name, o.device.c_str(), k.what, o.workgroup.c_str());
    if (!o.created()) std::printf("  %s\n", o.problem.c_str());
    for (const test::ExecutableStatistics& s : o.statistics) {
        std::printf("  %s:", s.name.c_str());
        for (const auto& [name, value] : s.values) std::printf(" %s=%s;", name.c_str(), number(value).c_str());
        std::printf("\n");
    }
    std::printf("  created in %.2f s (%.2f s of CPU), process peak %.0f MiB; budgets:", o.seconds, o.cpu_seconds, o.peak);
    for (const auto& [budget, met] : o.verdicts()) std::printf(" %s %s", budget.c_str(), met ? "met" : "NOT met");
    std::printf("\n");
}

int run(const std::string& name, bool json, const std::string& expect) {
    for (const CompileKernel& k : catalogue()) {
        if (name != k.name) continue;
        const Outcome outcome = compile(k);
        json ? print_json(k, outcome) : print_text(k, outcome);
        int failed = 0;
        const std::map<std::string, bool> verdicts = outcome.verdicts();
        std::stringstream budgets(expect);
        for (std::string budget; std::getline(budgets, budget, ',');) {
            const auto found = verdicts.find(budget);
            if (found == verdicts.end()) throw std::invalid_argument("unknown budget '" + budget + "'");
            if (!found->second) {
                std::fprintf(stderr, "%s: the %s budget is not met on %s%s\n", k.name, budget.c_str(), outcome.device.c_str(),
                             outcome.problem.empty() ? "" : (": " + outcome.problem).c_str());
                ++failed;
            }
        }
        return failed ? 1 : 0;
    }
    throw std::invalid_argument("unknown kernel '" + name + "' (--list names them)");
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    std::string kernel, expect;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--list") {
            for (const CompileKernel& k : catalogue()) std::printf("%-30s %s\n", k.name, k.what);
            return 0;
        }
        if (arg == "--json") {
            json = true;
        } else if ((arg == "--kernel" || arg == "--expect") && i + 1 < argc) {
            (arg == "--kernel" ? kernel : expect) = argv[++i];
        } else {
            std::fprintf(stderr, "usage: vkpolyfill_compile_kernels --list | --kernel NAME [--json] [--expect BUDGETS]\n");
            return 2;
        }
    }
    if (const std::string error = select_driver("system"); !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    try {
        return run(kernel, json, expect);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_compile_kernels: %s\n", e.what());
        return 2;
    }
}
