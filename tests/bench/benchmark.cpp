#include "benchmark.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <utility>

#include "turns.h"

namespace vkpolyfill::bench {
namespace {

constexpr uint32_t kSeed = 20240601;

// Runs on stderr, so a long benchmark shows where it is.
void progress(const std::string& text) {
    std::fprintf(stderr, "[bench] %s\n", text.c_str());
}

// Other work on the machine slows a CPU driver down; the report says how busy it was.
std::string load_average() {
    std::string one_minute;
    std::ifstream("/proc/loadavg") >> one_minute;
    return one_minute.empty() ? "unknown" : one_minute;
}

std::string with_layer_problems(const BenchDevice& device, const std::string& what) {
    const std::string problems = device.layer_problems();
    return problems.empty() ? what : what + " (layer: " + problems + ")";
}

// Compiles `requested` for `device` and runs it once, checked; or says in `out` why it cannot run.
std::unique_ptr<GemmRun> prepare_gemm(BenchDevice& device, const KernelConfig& requested, const GemmBuffers& buffers,
                                      GemmMeasurement& out) {
    const GemmShape& s = buffers.inputs.shape;
    const KernelConfig config = fitted(requested, s.m, s.n);
    const Geometry g = geometry(config, device.subgroup_size);
    if (s.m % g.tile_m != 0 || s.n % g.tile_n != 0 || s.k % g.tile_k != 0) {
        out = {"the size is not a multiple of the kernel's " + std::to_string(g.tile_m) + "x" + std::to_string(g.tile_n) + "x" +
                   std::to_string(g.tile_k) + " tile", {}};
        return nullptr;
    }
    if (std::string why = kernel_unavailable(device, config); !why.empty()) {
        out = {why, {}};
        return nullptr;
    }
    progress(config.label() + ", " + s.name() + (device.route == Route::Emulated ? ", through the layer" : ""));
    try {
        out = {};
        return std::make_unique<GemmRun>(device, test::read_shader(shader_path(config.kernel)), config, buffers, g);
    } catch (const std::runtime_error& e) {
        out = {with_layer_problems(device, e.what()), {}};
        return nullptr;
    }
}

void note_device(const BenchDevice& device, Results& r) {
    r.device_name = device.device_name;
    r.cpu_device = device.cpu_device;
    r.subgroup_size = device.subgroup_size;
    r.timestamps = device.timestamp_period_ns > 0;
}

// A contender for take_turns whose failure is written, with what the layer said, into `out`.
template <typename Measurement>
Contender contender(const BenchDevice& device, Measurement& out, std::function<void()> once) {
    return {std::move(once), [&device, &out](const std::string& what) { out.unavailable = with_layer_problems(device, what); }};
}

// Pipeline creation with and without the layer, on three devices at once, creations interleaved. The
// layer's pass-through cost is measured twice: on a device whose application enabled only what the
// driver offers (the layer emulates nothing there: the case), and on the device that emulates
// the cooperative-matrix extensions (where the layer may enable more of the driver underneath).
void measure_creation(const Options& o, Results& r) {
    progress("pipeline creation with and without the layer");
    BenchDevice native(Route::Native);
    note_device(native, r);
    std::unique_ptr<BenchDevice> layered, passing;
    std::string no_layer;
    try {
        layered = std::make_unique<BenchDevice>(Route::Emulated);
        passing = std::make_unique<BenchDevice>(Route::PassThrough);
    } catch (const std::runtime_error& e) {
        no_layer = std::string("no device through the layer: ") + e.what();
    }

    struct Timed {
        BenchDevice* device;
        CreationMeasurement* out;
        std::unique_ptr<CreationTimer> timer;
    };
    std::vector<Timed> timed;
    auto add = [&](BenchDevice* device, const KernelConfig& config, CreationMeasurement& out) {
        out.unavailable = device == nullptr ? no_layer : kernel_unavailable(*device, config);
        if (out.measured()) timed.push_back({device, &out, std::make_unique<CreationTimer>(*device, config)});
    };
    add(&native, o.scalar.front(), r.scalar_without_layer);
    add(passing.get(), o.scalar.front(), r.scalar_with_layer);
    add(layered.get(), o.scalar.front(), r.scalar_with_emulating_layer);
    for (size_t v = 0; v < o.coopmat.size(); ++v) {
        add(&native, o.coopmat[v], r.coopmat_creation[v].native);
        add(layered.get(), o.coopmat[v], r.coopmat_creation[v].emulated);
    }
    std::vector<Contender> contenders;
    for (Timed& t : timed) contenders.push_back(contender(*t.device, *t.out, [&t] { t.timer->create_once(); }));
    take_turns(o.creation_reps, contenders);
    for (const Timed& t : timed) {
        if (t.out->measured()) t.out->times = t.timer->times();
    }
}

// The index of the measured run that took least time (process CPU time on a CPU device, where it is
// the work done); 0 when none was measured.
size_t fastest(const std::vector<GemmMeasurement>& runs, bool cpu_device) {
    const auto time = [cpu_device](const GemmMeasurement& m) { return cpu_device ? m.run.cpu_ms.median : m.median_ms(); };
    size_t best = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].measured() && (!runs[best].measured() || time(runs[i]) < time(runs[best]))) best = i;
    }
    return best;
}

// Every GEMM at each size: (a) on the device through the layer, (b) and (c) on the driver's own. All
// of a size's kernels are compiled and checked first; then the timed dispatches go round them, in
// reverse order every other round. Other load on this machine's two cores changes from second to
// second and inflates a dispatch's CPU time with it (lavapipe 26, the scalar shader at 1024^3, one
// process at a time, 2026-11-23: 75-83 ms in every dispatch of 16 processes with nothing else
// running at normal priority; with one to three unpinned busy loops or a cache-thrashing process
// beside it, stretches of 5-15 dispatches at 82-137 ms; with busy loops pinned one to each core,
// 75-80; with every lavapipe thread on one core, 74-79; after the native coopmat kernels in the
// same process, no different; tests/bench/README.md, VK_KHR_cooperative_matrix GEMM).
// Timed one after another, minutes apart, the kernels met different load and the ratios swung with
// it; taking turns, they meet the same.
void measure_gemms(const Options& o, const std::vector<GemmInputs>& inputs, Results& r) {
    std::unique_ptr<BenchDevice> native, emulated;
    if (o.measure.native || o.measure.scalar) {
        native = std::make_unique<BenchDevice>(Route::Native);
        note_device(*native, r);
    }
    std::string no_layer;
    if (o.measure.emulated) {
        try {
            emulated = std::make_unique<BenchDevice>(Route::Emulated);
            note_device(*emulated, r);
        } catch (const std::runtime_error& e) {
            no_layer = std::string("no device through the layer: ") + e.what();  // the layer failed to load, say
        }
    }
    struct Timed {
        BenchDevice* device;
        GemmMeasurement* out;
        std::unique_ptr<GemmRun> run;
    };
    for (size_t i = 0; i < inputs.size(); ++i) {
        SizeResults& s = r.sizes[i];
        std::unique_ptr<GemmBuffers> native_buffers, emulated_buffers;
        if (native) native_buffers = std::make_unique<GemmBuffers>(native->context(), inputs[i]);
        if (emulated) emulated_buffers = std::make_unique<GemmBuffers>(emulated->context(), inputs[i]);
        std::vector<Timed> timed;
        const auto prepare = [&timed](BenchDevice& device, const KernelConfig& config, const GemmBuffers& buffers,
                                      GemmMeasurement& out) {
            if (auto run = prepare_gemm(device, config, buffers, out)) timed.push_back({&device, &out, std::move(run)});
        };
        for (size_t v = 0; v < o.coopmat.size(); ++v) {
            if (native && o.measure.native) prepare(*native, o.coopmat[v], *native_buffers, s.coopmat[v].native);
            if (emulated) prepare(*emulated, o.coopmat[v], *emulated_buffers, s.coopmat[v].emulated);
            if (!no_layer.empty()) s.coopmat[v].emulated.unavailable = no_layer;
        }
        if (native && o.measure.scalar) {
            for (size_t v = 0; v < o.scalar.size(); ++v) prepare(*native, o.scalar[v], *native_buffers, s.scalars[v]);
        }
        progress("timing " + s.shape.name() + ": " + std::to_string(o.reps) + " rounds of " + std::to_string(timed.size()) + " kernels");
        std::vector<Contender> contenders;
        for (Timed& t : timed) contenders.push_back(contender(*t.device, *t.out, [&t] { t.run->time_once(); }));
        take_turns(o.reps, contenders);
        for (const Timed& t : timed) {
            if (t.out->measured()) t.out->run = t.run->result();
        }
        s.fastest_scalar = fastest(s.scalars, r.cpu_device);
    }
}

}  // namespace

double GemmMeasurement::median_ms() const {
    return run.gpu_ms.count > 0 ? run.gpu_ms.median : run.wall_ms.median;
}

bool Results::all_verified() const {
    for (const SizeResults& s : sizes) {
        std::vector<const GemmMeasurement*> all;
        for (const GemmMeasurement& m : s.scalars) all.push_back(&m);
        for (const CoopmatGemm& c : s.coopmat) all.insert(all.end(), {&c.emulated, &c.native});
        for (const GemmMeasurement* m : all) {
            if (m->measured() && !m->run.verification.ok()) return false;
        }
    }
    return true;
}

Results run_benchmark(const Options& o) {
    Results r;
    r.options = o;
    r.load_before = load_average();
    const char* cache = std::getenv("MESA_SHADER_CACHE_DISABLE");
    r.mesa_shader_cache_disable = cache ? cache : "";
    const GemmMeasurement skipped{"not measured (--only)", {}};
    const CreationMeasurement creation_skipped{skipped.unavailable, {}};
    std::vector<GemmInputs> inputs;
    for (const uint32_t size : o.sizes) {
        const GemmShape shape{size, size, size};
        inputs.push_back(make_inputs(shape, kSeed + size));
        r.sizes.push_back({shape, std::vector<CoopmatGemm>(o.coopmat.size(), {skipped, skipped}),
                           std::vector<GemmMeasurement>(o.scalar.size(), skipped)});
    }
    r.scalar_without_layer = r.scalar_with_layer = r.scalar_with_emulating_layer = creation_skipped;
    r.coopmat_creation.assign(o.coopmat.size(), {creation_skipped, creation_skipped});

    if (o.measure.creation) measure_creation(o, r);
    if (o.measure.native || o.measure.scalar || o.measure.emulated) measure_gemms(o, inputs, r);
    r.load_after = load_average();
    return r;
}

}  // namespace vkpolyfill::bench
