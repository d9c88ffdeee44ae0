#include "benchmark.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>

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

// Why `config` cannot run on `device` at all, or empty.
std::string kernel_unavailable(const BenchDevice& device, const KernelConfig& config) {
    if (config.kernel == Kernel::Coopmat2) {
        // The workgroup multiplies a BM x BK A by a BK x BN B.
        const Geometry g = geometry(config, device.subgroup_size);
        return device.flexible_unavailable({g.tile_m, g.tile_n, g.tile_k}, g.invocations);
    }
    if (config.kernel == Kernel::Coopmat) {
        const MatrixShape shape{config.get("tm"), config.get("tn"), config.get("tk")};
        return config.flexible ? device.flexible_unavailable(shape, 0) : device.coopmat_unavailable(shape);
    }
    const uint32_t size = device.subgroup_size;
    if (size < 8 || (size & (size - 1)) != 0) {
        return "the scalar shader needs a subgroup size that is a power of two of at least 8, not " + std::to_string(size);
    }
    return {};
}

std::string with_layer_problems(const BenchDevice& device, const std::string& what) {
    const std::string problems = device.layer_problems();
    return problems.empty() ? what : what + " (layer: " + problems + ")";
}

GemmMeasurement measure_gemm(BenchDevice& device, const KernelConfig& requested, const GemmBuffers& buffers, int reps) {
    const GemmShape& s = buffers.inputs.shape;
    const KernelConfig config = fitted(requested, s.m, s.n);
    const Geometry g = geometry(config, device.subgroup_size);
    if (s.m % g.tile_m != 0 || s.n % g.tile_n != 0 || s.k % g.tile_k != 0) {
        return {"the size is not a multiple of the kernel's " + std::to_string(g.tile_m) + "x" + std::to_string(g.tile_n) +
                    "x" + std::to_string(g.tile_k) + " tile", {}};
    }
    if (std::string why = kernel_unavailable(device, config); !why.empty()) return {why, {}};
    progress(config.label() + ", " + s.name() + (device.route == Route::Emulated ? ", through the layer" : ""));
    try {
        const GemmPipeline pipeline(device, test::read_shader(shader_path(config.kernel)), config);
        return {{}, run_gemm(device, pipeline, buffers, g, reps)};
    } catch (const std::runtime_error& e) {
        return {with_layer_problems(device, e.what()), {}};
    }
}

void note_device(const BenchDevice& device, Results& r) {
    r.device_name = device.device_name;
    r.cpu_device = device.cpu_device;
    r.subgroup_size = device.subgroup_size;
    r.timestamps = device.timestamp_period_ns > 0;
}

// Pipeline creation with and without the layer, on two devices at once, creations interleaved
// (in reverse order every other round) so that drift on the machine touches every figure alike.
void measure_creation(const Options& o, Results& r) {
    progress("pipeline creation with and without the layer");
    BenchDevice native(Route::Native);
    note_device(native, r);
    std::unique_ptr<BenchDevice> layered;
    std::string no_layer;
    try {
        layered = std::make_unique<BenchDevice>(Route::Emulated);
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
    add(&native, o.scalar, r.scalar_without_layer);
    add(layered.get(), o.scalar, r.scalar_with_layer);
    for (size_t v = 0; v < o.coopmat.size(); ++v) {
        add(&native, o.coopmat[v], r.coopmat_creation[v].native);
        add(layered.get(), o.coopmat[v], r.coopmat_creation[v].emulated);
    }
    for (int round = 0; round < o.creation_reps; ++round) {
        for (size_t i = 0; i < timed.size(); ++i) {
            Timed& t = timed[round % 2 ? timed.size() - 1 - i : i];
            if (!t.out->measured()) continue;  // failed in an earlier round
            try {
                t.timer->create_once();
            } catch (const std::runtime_error& e) {
                t.out->unavailable = with_layer_problems(*t.device, e.what());
            }
        }
    }
    for (const Timed& t : timed) {
        if (t.out->measured()) t.out->times = t.timer->times();
    }
}

// The GEMMs of one route; the native route runs the scalar shader too.
void measure_gemms(Route route, const Options& o, const std::vector<GemmInputs>& inputs, Results& r) {
    const bool native = route == Route::Native;
    BenchDevice device(route);
    note_device(device, r);
    const bool coopmat = native ? o.measure.native : o.measure.emulated;
    const bool scalar = native && o.measure.scalar;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const GemmBuffers buffers(device.context(), inputs[i]);
        SizeResults& s = r.sizes[i];
        for (size_t v = 0; coopmat && v < o.coopmat.size(); ++v) {
            (native ? s.coopmat[v].native : s.coopmat[v].emulated) = measure_gemm(device, o.coopmat[v], buffers, o.reps);
        }
        if (scalar) s.scalar = measure_gemm(device, o.scalar, buffers, o.reps);
    }
}

}  // namespace

double GemmMeasurement::median_ms() const {
    return run.gpu_ms.count > 0 ? run.gpu_ms.median : run.wall_ms.median;
}

bool Results::all_verified() const {
    for (const SizeResults& s : sizes) {
        std::vector<const GemmMeasurement*> all{&s.scalar};
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
        r.sizes.push_back({shape, std::vector<CoopmatGemm>(o.coopmat.size(), {skipped, skipped}), skipped});
    }
    r.scalar_without_layer = r.scalar_with_layer = creation_skipped;
    r.coopmat_creation.assign(o.coopmat.size(), {creation_skipped, creation_skipped});

    if (o.measure.creation) measure_creation(o, r);
    if (o.measure.native || o.measure.scalar) measure_gemms(Route::Native, o, inputs, r);
    if (o.measure.emulated) {
        try {
            measure_gemms(Route::Emulated, o, inputs, r);
        } catch (const std::runtime_error& e) {
            // No device through the layer at all (the layer failed to load, say).
            for (SizeResults& s : r.sizes) {
                for (CoopmatGemm& c : s.coopmat) c.emulated.unavailable = std::string("no device through the layer: ") + e.what();
            }
        }
    }
    r.load_after = load_average();
    return r;
}

}  // namespace vkpolyfill::bench
