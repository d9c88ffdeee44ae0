// vkpolyfill_compile_kernels: kernels compiled, not run, on the device VK_DRIVER_FILES names (a real
// GPU's compiler through scripts/gpu-proxy.sh): how long the pipeline took to create, the process's
// peak memory, and what the compiler reports (registers, spills, scratch, shared memory, occupancy,
// instructions, its static cycle estimate), with the budgets' verdicts (compile_outcome.h). The kernels
// are the benchmarks' (--kernel), the tile-image tests' graphics pipelines (--tile-image), or any compute
// module (--spirv: an engine's shader, one of the suite's; its layout made from what it declares). One kernel per process, so that a compiler that runs out of
// memory or crashes costs that kernel only (scripts/gpu-sweep.sh runs them all).
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_kernels.h"
#include "bench_device.h"
#include "compile_outcome.h"
#include "driver_selection.h"
#include "gemm_pipeline.h"
#include "kernels.h"
#include "module_device.h"
#include "module_interface.h"
#include "module_pipeline.h"
#include "spy_records.h"
#include "tile_image_kernels.h"

namespace vkpolyfill::bench {
namespace {

constexpr char kUsage[] =
    "usage: vkpolyfill_compile_kernels --list\n"
    "       vkpolyfill_compile_kernels --kernel NAME [--json] [--expect BUDGETS]\n"
    "       vkpolyfill_compile_kernels --tile-image NAME [--every-set] [--json] [--expect BUDGETS | --expect-refusal]\n"
    "       vkpolyfill_compile_kernels --spirv FILE [--route driver|layer|emulated] [--spec ID=VALUE]...\n"
    "                                  [--name NAME] [--what TEXT] [--workgroup TEXT] [--json]\n"
    "                                  [--expect BUDGETS | --expect-refusal]\n"
    "--expect: the budgets that must be met, comma-separated: created, time (10 s of CPU), memory (2 GiB),\n"
    "  spills (none), scratch (no scratch or local memory); any unmet fails the run (exit 1). Every budget's\n"
    "  verdict is printed either way.\n"
    "--route (modules): the driver alone; the layer as it decides per device (default); the layer with every\n"
    "  emulation forced. --spec: a 32-bit specialization constant (repeatable). --expect-refusal: the layer\n"
    "  must refuse the module with an error (beyond what it offers on the device), reported as not supported.\n"
    "--every-set (tile images): the pipeline layout lists every descriptor set the device reports.\n";

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

KernelConfig gpu_tile(KernelConfig config) {
    config.override_with(kCoopmat2OnGpus);
    return config;
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
        gemm("gemm.workgroup.gpu_tile.emulated",
             "f16 GEMM, coopmat2 workgroup-scope matrices at a GPU tile (128x128 over 256 invocations) lowered by the layer",
             Route::Emulated, gpu_tile(default_config(Kernel::Coopmat2))),
        attention("attention.coopmat2.emulated", "attention block, coopmat2 (reduce, per-element, conversion) lowered by the layer",
                  Route::Emulated, kAttentionCoopmat2Shader),
        attention("attention.scalar", "attention block, the scalar shader", Route::Native, kAttentionScalarShader),
    };
    return kernels;
}

const char* route_name(Route route) { return route == Route::Native ? "driver" : "layer"; }

int compile_kernel(const std::string& name, bool json, const std::string& expect) {
    for (const CompileKernel& k : catalogue()) {
        if (name != k.name) continue;
        BenchDevice device(k.route);
        const CompileSubject subject{k.name, k.what, route_name(k.route), k.workgroup(device)};
        Outcome outcome;
        outcome.device = device.device_name;
        if (std::string why = k.unavailable(device); !why.empty()) {
            outcome.problem = "not applicable here: " + why;
        } else {
            if (!device.captures_statistics) throw std::runtime_error("the device has no pipelineExecutableInfo");
            Made made;
            outcome = compile(device.context(), device.device_name, [&device] { return device.layer_problems(); },
                              [&](VkPipelineCreateFlags flags) { return (made = k.make(device, flags)).pipeline; },
                              [&made] { made.destroy(); });
        }
        json ? print_json(subject, outcome) : print_text(subject, outcome);
        return unmet_budgets(subject, outcome, expect) ? 1 : 0;
    }
    throw std::invalid_argument("unknown kernel '" + name + "' (--list names them)");
}

// A module given as a file: an engine's shader or one of the suite's.
struct ModuleRequest {
    std::string path, route = "layer";
    std::vector<std::pair<uint32_t, uint32_t>> constants;  // --spec ID=VALUE
    CompileSubject subject;
    bool refusal_expected = false;  // --expect-refusal
};

int compile_module(const ModuleRequest& request, bool json, const std::string& expect) {
    const std::optional<ModuleRoute> route = module_route(request.route);
    if (!route) throw std::invalid_argument("unknown route '" + request.route + "' (driver, layer or emulated)");
    const std::vector<uint32_t> spirv = test::read_words(request.path);
    ModuleDevice device(*route);
    if (!device.captures_statistics) throw std::runtime_error("the device has no pipelineExecutableInfo");
    if (const std::string lacks = device.lacks(test::reflect_interface(spirv)); !lacks.empty()) {
        // Not supported here, whatever was expected of it: no budget applies.
        Outcome outcome;
        outcome.device = device.device_name;
        outcome.problem = "not applicable here: the device " + std::string(*route == ModuleRoute::Driver ? "" : "through the layer ") +
                          "lacks " + lacks;
        if (json) {
            print_json(request.subject, outcome);
        } else {  // GoogleTest's form, which ctest's skip expression and scripts/conformance.sh read as "not supported"
            std::printf("%s: Skipped\nnot supported on %s: %s\n", request.subject.name.c_str(), outcome.device.c_str(),
                        outcome.problem.c_str());
        }
        return 0;
    }
    std::unique_ptr<ModulePipeline> made;
    const Outcome outcome = compile(
        device.context(), device.device_name, [&device] { return device.layer_problems(); },
        [&](VkPipelineCreateFlags flags) {
            made = std::make_unique<ModulePipeline>(device.context(), spirv, request.constants, flags);
            return made->pipeline;
        },
        [&made] { made.reset(); });
    json ? print_json(request.subject, outcome) : print_text(request.subject, outcome);
    if (request.refusal_expected) return expected_refusal(request.subject, outcome, device.layer_problems());
    return unmet_budgets(request.subject, outcome, expect) ? 1 : 0;
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    std::string kernel, expect;
    TileImageRequest tile_image;
    ModuleRequest module;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool valued = i + 1 < argc;
        if (arg == "--list") {
            for (const CompileKernel& k : catalogue()) std::printf("%-30s %s\n", k.name, k.what);
            for (const std::string& name : tile_image_kernel_names()) {
                std::printf("%-30s %s\n", name.c_str(), "a tile-image test's graphics pipeline (--tile-image), samples after @");
            }
            return 0;
        }
        if (arg == "--json") {
            json = true;
        } else if (arg == "--expect-refusal") {
            module.refusal_expected = tile_image.refusal_expected = true;
        } else if (arg == "--every-set") {
            tile_image.every_set = true;
        } else if (valued && arg == "--tile-image") {
            tile_image.name = argv[++i];
        } else if (valued && (arg == "--kernel" || arg == "--expect" || arg == "--spirv" || arg == "--route")) {
            (arg == "--kernel" ? kernel : arg == "--expect" ? expect : arg == "--spirv" ? module.path : module.route) = argv[++i];
        } else if (valued && (arg == "--name" || arg == "--what" || arg == "--workgroup")) {
            CompileSubject& s = module.subject;
            (arg == "--name" ? s.name : arg == "--what" ? s.what : s.workgroup) = argv[++i];
        } else if (valued && arg == "--spec" && std::strchr(argv[i + 1], '=')) {
            const std::string given = argv[++i];
            module.constants.emplace_back(std::stoul(given.substr(0, given.find('='))), std::stoul(given.substr(given.find('=') + 1)));
        } else {
            std::fprintf(stderr, "%s", kUsage);
            return 2;
        }
    }
    if (!kernel.empty() + !tile_image.name.empty() + !module.path.empty() != 1) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    if (const std::string error = select_driver("system"); !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    try {
        if (!kernel.empty()) return compile_kernel(kernel, json, expect);
        if (!tile_image.name.empty()) return compile_tile_image(tile_image, json, expect);
        module.subject.route = module.route;
        if (module.subject.name.empty()) module.subject.name = module.path;
        return compile_module(module, json, expect);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_compile_kernels: %s\n", e.what());
        return 2;
    }
}
