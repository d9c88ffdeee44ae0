#include "report.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "json_writer.h"

namespace vkpolyfill::bench {
namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// How much faster `subject` ran than `baseline` (baseline time / subject time), NaN unless both ran.
double speed_ratio(const GemmMeasurement& subject, const GemmMeasurement& baseline) {
    if (!subject.measured() || !baseline.measured()) return kNone;
    return baseline.median_ms() / subject.median_ms();
}

// The same by process CPU time: on a CPU device, the work each did, however busy the machine was.
double cpu_ratio(const Results& r, const GemmMeasurement& subject, const GemmMeasurement& baseline) {
    if (!r.cpu_device || !subject.measured() || !baseline.measured()) return kNone;
    return baseline.run.cpu_ms.median / subject.run.cpu_ms.median;
}

// The extra vkCreateComputePipelines time of `with` over `without`, in percent of `without`.
double overhead_percent(const CreationMeasurement& with, const CreationMeasurement& without) {
    if (!with.measured() || !without.measured()) return kNone;
    return (with.times.pipeline_ms.median / without.times.pipeline_ms.median - 1.0) * 100.0;
}

// Cooperative-matrix kernel `v` as it ran at this size.
KernelConfig sized_kernel(const Results& r, const SizeResults& s, size_t v) {
    return fitted(r.options.coopmat[v], s.shape.m, s.shape.n);
}

bool khr_shape(const KernelConfig& config) {
    return config.kernel == Kernel::Coopmat && !config.flexible;
}

// What coopmat2 variant `variant` is compared with: the emulated run of the KHR-shape variant that
// was fastest at this size. Null for KHR-shape variants, or when none ran.
const GemmMeasurement* khr_baseline(const Results& r, const SizeResults& s, size_t variant) {
    if (khr_shape(r.options.coopmat[variant])) return nullptr;
    const GemmMeasurement* fastest = nullptr;
    for (size_t v = 0; v < s.coopmat.size(); ++v) {
        const GemmMeasurement& m = s.coopmat[v].emulated;
        if (!khr_shape(r.options.coopmat[v]) || !m.measured()) continue;
        if (fastest == nullptr || m.median_ms() < fastest->median_ms()) fastest = &m;
    }
    return fastest;
}

double creation_ratio(const CoopmatCreation& c) {
    if (!c.emulated.measured() || !c.native.measured()) return kNone;
    return c.emulated.times.pipeline_ms.median / c.native.times.pipeline_ms.median;
}

std::string format(const char* pattern, double value) {
    if (std::isnan(value)) return "-";
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// The ratios of one coopmat variant at one size, by `ratio`; the last against `khr` (the fastest
// KHR-shape variant's emulated run), for the coopmat2 variants.
template <typename Ratio>
std::string ratio_cells(const SizeResults& s, const CoopmatGemm& c, const GemmMeasurement* khr, Ratio ratio) {
    return format("%.3f", ratio(c.emulated, c.native)) + " | " + format("%.3f", ratio(c.emulated, s.scalar())) + " | " +
           format("%.3f", ratio(c.native, s.scalar())) + " | " +
           format("%.3f", khr != nullptr ? ratio(c.emulated, *khr) : kNone);
}

double gflops(const GemmShape& shape, const GemmMeasurement& m) {
    return shape.flops() / (m.median_ms() * 1e6);
}

std::string check_text(const Verification& v) {
    if (v.ok()) return "ok (" + std::to_string(v.checked) + ")";
    return "FAILED " + std::to_string(v.failed) + "/" + std::to_string(v.checked) + ": " + v.failure;
}

void gemm_row(std::string& out, const Results& r, const GemmShape& shape, const std::string& path, const GemmMeasurement& m) {
    out += "| " + shape.name() + " | " + path + " | ";
    if (!m.measured()) {
        out += "unavailable: " + m.unavailable + " | | | | | | |\n";
        return;
    }
    const Summary& t = r.timestamps ? m.run.gpu_ms : m.run.wall_ms;
    out += format("%.2f", t.median) + " | " + format("%.3g", t.min) + " - " + format("%.3g", t.max) + " | " +
           format("%.2f", m.run.wall_ms.median) + " | " + format("%.1f", m.run.cpu_ms.median) + " | " +
           format("%.1f", m.run.first_ms) + " | " + format("%.2f", gflops(shape, m)) + " | " + check_text(m.run.verification) +
           " |\n";
}

void gemm_table(std::string& out, const Results& r) {
    out += std::string("| size | path | ") + (r.timestamps ? "GPU" : "wall") +
           " ms median | min - max | wall ms median | CPU ms median | first dispatch ms | GFLOP/s | check |\n";
    out += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
    for (const SizeResults& s : r.sizes) {
        for (size_t v = 0; v < s.coopmat.size(); ++v) {
            const std::string label = sized_kernel(r, s, v).label();
            gemm_row(out, r, s.shape, "(a) " + label + ", layer emulation", s.coopmat[v].emulated);
            gemm_row(out, r, s.shape, "(b) " + label + ", driver", s.coopmat[v].native);
        }
        for (size_t v = 0; v < s.scalars.size(); ++v) {
            const bool baseline = v == s.fastest_scalar;
            gemm_row(out, r, s.shape, std::string(baseline ? "(c) " : "") + "scalar [" + r.options.scalar[v].describe() + "], driver" +
                                          (baseline && s.scalars.size() > 1 ? ", the fastest tuning" : ""),
                     s.scalars[v]);
        }
    }
}

void ratio_table(std::string& out, const Results& r) {
    const std::string clock = r.timestamps ? "GPU" : "wall";
    out += "\nSpeed ratios, the baseline's time over the subject's (above 1: the subject is faster): (a)/(b) emulated vs "
           "driver coopmat, (a)/(c) emulated vs scalar, (b)/(c) driver coopmat vs scalar, (a)/(a') emulated vs the fastest "
           "emulated KHR-shape variant at that size; by median " + clock + " time" +
           (r.cpu_device ? ", and by median CPU time" : "") + ".\n\n";
    out += "| size | coopmat variant | (a)/(b) | (a)/(c) | (b)/(c) | (a)/(a') |" +
           std::string(r.cpu_device ? " (a)/(b) CPU | (a)/(c) CPU | (b)/(c) CPU | (a)/(a') CPU |" : "") + "\n";
    out += std::string("| --- | --- | ---: | ---: | ---: | ---: |") + (r.cpu_device ? " ---: | ---: | ---: | ---: |" : "") + "\n";
    const auto by_time = [](const GemmMeasurement& a, const GemmMeasurement& b) { return speed_ratio(a, b); };
    const auto by_cpu = [&r](const GemmMeasurement& a, const GemmMeasurement& b) { return cpu_ratio(r, a, b); };
    for (const SizeResults& s : r.sizes) {
        for (size_t v = 0; v < s.coopmat.size(); ++v) {
            const GemmMeasurement* baseline = khr_baseline(r, s, v);
            out += "| " + s.shape.name() + " | " + sized_kernel(r, s, v).label() + " | " + ratio_cells(s, s.coopmat[v], baseline, by_time);
            out += (r.cpu_device ? " | " + ratio_cells(s, s.coopmat[v], baseline, by_cpu) : "") + " |\n";
        }
    }
}

void creation_row(std::string& out, const std::string& label, const CreationMeasurement& c) {
    out += "| " + label + " | ";
    if (!c.measured()) {
        out += "unavailable: " + c.unavailable + " | | | |\n";
        return;
    }
    const CreationTimes& t = c.times;
    out += format("%.3f", t.module_ms.median) + " | " + format("%.3f", t.pipeline_ms.median) + " | " +
           format("%.3f", t.pipeline_ms.q1) + " - " + format("%.3f", t.pipeline_ms.q3) + " | " +
           format("%.3f", t.first_pipeline_ms) + " |\n";
}

void creation_table(std::string& out, const Results& r) {
    out += "\nPipeline creation, " + std::to_string(r.options.creation_reps) +
           " creations each, no VkPipelineCache, with and without the layer interleaved (ms: medians, interquartile "
           "range, the first creation):\n\n";
    out += "| shader, route | vkCreateShaderModule | vkCreateComputePipelines | IQR | first |\n";
    out += "| --- | ---: | ---: | ---: | ---: |\n";
    creation_row(out, "scalar, no layer", r.scalar_without_layer);
    creation_row(out, "scalar, through the layer (passed through), nothing emulated", r.scalar_with_layer);
    creation_row(out, "scalar, through the layer (passed through), coopmat emulated on the device", r.scalar_with_emulating_layer);
    for (size_t v = 0; v < r.coopmat_creation.size(); ++v) {
        const std::string label = r.options.coopmat[v].label();
        creation_row(out, label + ", driver", r.coopmat_creation[v].native);
        creation_row(out, label + ", layer (lowering + driver)", r.coopmat_creation[v].emulated);
    }
    out += "\nLayer pass-through overhead on vkCreateComputePipelines: " +
           format("%+.1f %%", overhead_percent(r.scalar_with_layer, r.scalar_without_layer)) + " (" +
           format("%+.1f %%", overhead_percent(r.scalar_with_emulating_layer, r.scalar_without_layer)) +
           " on the device where the layer emulates the cooperative-matrix extensions).\n";
    for (size_t v = 0; v < r.coopmat_creation.size(); ++v) {
        out += "Emulated vs driver pipeline creation, " + r.options.coopmat[v].label() + ": " +
               format("%.2fx", creation_ratio(r.coopmat_creation[v])) + ".\n";
    }
}

void json_summary(JsonWriter& j, const char* key, const Summary& s) {
    j.key(key);
    if (s.count == 0) {
        j.null();
        return;
    }
    j.begin_object();
    j.key("count").value(static_cast<double>(s.count)).key("median").value(s.median).key("min").value(s.min);
    j.key("max").value(s.max).key("q1").value(s.q1).key("q3").value(s.q3);
    j.end_object();
}

void json_gemm(JsonWriter& j, const char* key, const GemmShape& shape, const GemmMeasurement& m) {
    j.key(key).begin_object().key("available").value(m.measured());
    if (!m.measured()) {
        j.key("reason").value(m.unavailable).end_object();
        return;
    }
    json_summary(j, "gpu_ms", m.run.gpu_ms);
    json_summary(j, "wall_ms", m.run.wall_ms);
    json_summary(j, "process_cpu_ms", m.run.cpu_ms);
    j.key("first_dispatch_ms").value(m.run.first_ms);
    j.key("gflops").value(gflops(shape, m));
    const Verification& v = m.run.verification;
    j.key("verified").value(v.ok()).key("checked").value(static_cast<double>(v.checked));
    j.key("failed").value(static_cast<double>(v.failed)).key("worst_error_vs_tolerance").value(v.worst);
    if (!v.ok()) j.key("first_failure").value(v.failure);
    j.end_object();
}

void json_creation(JsonWriter& j, const char* key, const CreationMeasurement& c) {
    j.key(key).begin_object().key("available").value(c.measured());
    if (!c.measured()) {
        j.key("reason").value(c.unavailable).end_object();
        return;
    }
    json_summary(j, "shader_module_ms", c.times.module_ms);
    json_summary(j, "pipeline_ms", c.times.pipeline_ms);
    j.key("first_pipeline_ms").value(c.times.first_pipeline_ms);
    j.end_object();
}

}  // namespace

std::string markdown_report(const Results& r) {
    std::string out = "## vkpolyfill GEMM benchmark\n\n";
    out += "Device: " + r.device_name + " (driver: " + r.options.driver + ", subgroup size " +
           std::to_string(r.subgroup_size) + "). C (f32) = A (f16) x B (f16), row-major, f32 accumulation.\n";
    out += "Medians of " + std::to_string(r.options.reps) + " dispatches after a first one, whose result is checked against " +
           "a CPU reference on a full row, a full column and 512 random elements (relative tolerance 3/1024); the kernels " +
           "of a size take turns, one dispatch each per round, so that changing load on the machine meets them alike. " +
           "CPU ms is this process's CPU time per dispatch (on a CPU driver, the work done; other load still inflates it " +
           "through the shared caches and cores, less than it does the times). " +
           "Machine load average: " + r.load_before + " at the start, " + r.load_after + " at the end. " +
           "MESA_SHADER_CACHE_DISABLE=" + r.mesa_shader_cache_disable + " (Mesa drivers then compile every pipeline).\n";
    out += "Kernels: scalar";
    for (const KernelConfig& c : r.options.scalar) out += " [" + c.describe() + "]";
    out += " (each measured; (c) is the fastest at each size, by " + std::string(r.cpu_device ? "CPU" : "median") + " time); coopmat";
    for (const KernelConfig& c : r.options.coopmat) out += " [" + c.describe() + "]";
    out += ".\n\n";
    gemm_table(out, r);
    ratio_table(out, r);
    creation_table(out, r);
    return out;
}

std::string json_report(const Results& r) {
    JsonWriter j;
    j.begin_object();
    j.key("device").value(r.device_name).key("cpu_device").value(r.cpu_device).key("driver").value(r.options.driver);
    j.key("subgroup_size").value(static_cast<double>(r.subgroup_size)).key("gpu_timestamps").value(r.timestamps);
    j.key("load_average_before").value(r.load_before).key("load_average_after").value(r.load_after);
    j.key("mesa_shader_cache_disable").value(r.mesa_shader_cache_disable);
    j.key("reps").value(static_cast<double>(r.options.reps));
    j.key("creation_reps").value(static_cast<double>(r.options.creation_reps));
    j.key("coopmat_kernels").begin_array();
    for (const KernelConfig& c : r.options.coopmat) j.value(c.describe());
    j.end_array();
    j.key("gemm").begin_array();
    for (const SizeResults& s : r.sizes) {
        j.begin_object().key("size").value(s.shape.name()).key("flops").value(s.shape.flops());
        j.key("coopmat").begin_array();
        for (size_t v = 0; v < s.coopmat.size(); ++v) {
            const CoopmatGemm& c = s.coopmat[v];
            const KernelConfig kernel = sized_kernel(r, s, v);
            j.begin_object().key("kernel").value(kernel.describe()).key("variant").value(kernel.label());
            json_gemm(j, "emulated", s.shape, c.emulated);
            json_gemm(j, "native", s.shape, c.native);
            j.key("speed_ratio_emulated_vs_native").value(speed_ratio(c.emulated, c.native));
            j.key("speed_ratio_emulated_vs_scalar").value(speed_ratio(c.emulated, s.scalar()));
            j.key("speed_ratio_native_vs_scalar").value(speed_ratio(c.native, s.scalar()));
            j.key("cpu_time_ratio_emulated_vs_native").value(cpu_ratio(r, c.emulated, c.native));
            j.key("cpu_time_ratio_emulated_vs_scalar").value(cpu_ratio(r, c.emulated, s.scalar()));
            j.key("cpu_time_ratio_native_vs_scalar").value(cpu_ratio(r, c.native, s.scalar()));
            const GemmMeasurement* khr = khr_baseline(r, s, v);
            j.key("speed_ratio_emulated_vs_fastest_khr_emulated").value(khr ? speed_ratio(c.emulated, *khr) : kNone);
            j.key("cpu_time_ratio_emulated_vs_fastest_khr_emulated").value(khr ? cpu_ratio(r, c.emulated, *khr) : kNone);
            j.end_object();
        }
        j.end_array();
        // "scalar" is (c), the fastest of "scalar_tunings".
        json_gemm(j, "scalar", s.shape, s.scalar());
        j.key("scalar_kernel").value(r.options.scalar[s.fastest_scalar].describe());
        j.key("scalar_tunings").begin_array();
        for (size_t v = 0; v < s.scalars.size(); ++v) {
            j.begin_object().key("kernel").value(r.options.scalar[v].describe());
            json_gemm(j, "run", s.shape, s.scalars[v]);
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();
    j.key("pipeline_creation").begin_object();
    json_creation(j, "scalar_without_layer", r.scalar_without_layer);
    json_creation(j, "scalar_with_layer", r.scalar_with_layer);
    json_creation(j, "scalar_with_emulating_layer", r.scalar_with_emulating_layer);
    j.key("layer_overhead_percent").value(overhead_percent(r.scalar_with_layer, r.scalar_without_layer));
    j.key("layer_overhead_percent_emulating_device").value(overhead_percent(r.scalar_with_emulating_layer, r.scalar_without_layer));
    j.key("coopmat").begin_array();
    for (size_t v = 0; v < r.coopmat_creation.size(); ++v) {
        j.begin_object().key("kernel").value(r.options.coopmat[v].describe());
        json_creation(j, "native", r.coopmat_creation[v].native);
        json_creation(j, "emulated", r.coopmat_creation[v].emulated);
        j.key("emulated_vs_native_ratio").value(creation_ratio(r.coopmat_creation[v]));
        j.end_object();
    }
    j.end_array();
    j.end_object();
    j.end_object();
    return j.text();
}

}  // namespace vkpolyfill::bench
