// vkpolyfill_attention_bench: coopmat2 attention (shaders/bench/attention_coopmat2.comp, blocks of
// --block keys with an online softmax: S = Q K^T, row maxima by a reduction, exp by a per-element operation,
// row sums by a reduction, the conversion to an f16 A matrix, O = P V / sum) through the layer, which
// lowers it (force_emulation of both cooperative-matrix extensions, so on either driver), against
// attention_scalar.comp doing the same math on the same device, and the driver's own coopmat2 where
// it has what the kernel uses. Each result is checked against a CPU reference before it is timed.
// Times are medians of --reps dispatches (bind, dispatch, wait), as process CPU time (on lavapipe the
// work done, which other load on the machine inflates less) and as wall-clock time; the lowered
// kernel and the scalar shader take turns, a dispatch each per round (turns.h).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <format>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attention_kernels.h"
#include "bench_device.h"
#include "driver_selection.h"
#include "figures.h"
#include "half.h"
#include "stats.h"
#include "text_parsing.h"
#include "turns.h"

namespace vkpolyfill::bench {
namespace {

constexpr const char* kUsage =
    "usage: vkpolyfill_attention_bench [--driver plain|native|system] [--queries N] [--keys N] [--head N] [--block N]\n"
    "                                  [--reps N] [--json PATH]\n"
    "  --driver   the driver (default native: lavapipe 26 through scripts/env.sh)\n"
    "  --queries  query rows, a multiple of 64 (default 2048)\n"
    "  --keys     keys, a multiple of --block (default 256)\n"
    "  --head     the head dimension, a multiple of 16 (default 16)\n"
    "  --block    keys per block of the coopmat2 kernel, a multiple of 16 (default 32)\n"
    "  --reps     measured dispatches per figure; the median is reported (default 5)\n"
    "  --json     also write the figures for scripts/bench.sh's report\n";

struct Options {
    std::string driver = "native";
    // Blocks of 32 keys: process CPU ms of the lowered kernel, 2048 x 256 x 16, 2026-11-23, load 6-8,
    // four and five processes: lavapipe 26 4.3-5.5 against 5.2-6.3 with blocks of 16, lavapipe 25
    // 10.1-11.3 against 12.2-14.2; blocks of 64 (a 16 x 64 A, 1024 components an invocation, looped)
    // 22.5-23.2. tests/bench/README.md, Attention benchmark.
    uint32_t queries = 2048, keys = 256, head = 16, block = 32, reps = 5;
    std::string json;

    AttentionShape shape() const { return {keys, head, block}; }
};

Options parse(int argc, char** argv) {
    Options options;
    const std::pair<const char*, std::string*> texts[] = {{"--driver", &options.driver}, {"--json", &options.json}};
    const std::pair<const char*, uint32_t*> numbers[] = {{"--queries", &options.queries}, {"--keys", &options.keys},
                                                        {"--head", &options.head},       {"--block", &options.block},
                                                        {"--reps", &options.reps}};
    parse_flags(argc, argv, texts, numbers);
    if (options.queries == 0 || options.queries % kAttentionScalarGroup != 0) throw std::invalid_argument("--queries must be a multiple of 64");
    if (options.head == 0 || options.head % 16 != 0) throw std::invalid_argument("--head must be a multiple of 16");
    if (options.block == 0 || options.block % 16 != 0) throw std::invalid_argument("--block must be a multiple of 16");
    if (options.keys == 0 || options.keys % options.block != 0) throw std::invalid_argument("--keys must be a multiple of --block");
    return options;
}

// Small multiples of 1/8 in [-1, 1]: exact in f16.
std::vector<float> inputs(size_t count, uint32_t seed) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(static_cast<int>((i * 37 + seed * 11) % 17) - 8) / 8.0f;
    return values;
}

// O = softmax(Q K^T / sqrt(D)) V, row by row, in double.
std::vector<double> reference(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, uint32_t rows,
                              uint32_t keys, uint32_t head) {
    std::vector<double> out(size_t{rows} * head), scores(keys);
    for (uint32_t r = 0; r < rows; ++r) {
        double row_max = -INFINITY, sum = 0;
        for (uint32_t j = 0; j < keys; ++j) {
            double dot = 0;
            for (uint32_t d = 0; d < head; ++d) dot += double(q[r * head + d]) * k[j * head + d];
            scores[j] = dot;
            row_max = std::max(row_max, dot);
        }
        for (uint32_t j = 0; j < keys; ++j) sum += scores[j] = std::exp((scores[j] - row_max) / std::sqrt(double(head)));
        for (uint32_t d = 0; d < head; ++d) {
            double acc = 0;
            for (uint32_t j = 0; j < keys; ++j) acc += scores[j] * v[j * head + d];
            out[r * head + d] = acc / sum;
        }
    }
    return out;
}

// The largest difference from the reference; P rounded to f16 before P V costs about 1e-3.
double worst_error(const test::Buffer& out, const std::vector<double>& expected) {
    double worst = 0;
    for (size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::abs(out.as<float>()[i] - expected[i]));
    return worst;
}

struct Kernel {
    std::string name;
    const char* shader;
    uint32_t groups;
};

struct Measured {
    std::string problem;  // empty when measured: why there is no time
    double error = 0;
    double create_ms = 0;  // wall time to create the pipeline: the layer's lowering and the driver's compilation
    Timings ms;
};

// One kernel made ready on a device (its pipeline created, one dispatch checked against the CPU),
// then timed a dispatch at a time, so that the kernels of a device can take turns (turns.h).
struct KernelRun {
    Measured measured;  // its problem is set when the kernel cannot run
    test::Context* context = nullptr;
    test::ComputePipeline pipeline;
    std::vector<test::Buffer> buffers;  // Q, K, V, O
    uint32_t groups = 0;
    TimingSamples samples;

    void dispatch() const {
        const test::Buffer* bound[] = {&buffers[0], &buffers[1], &buffers[2], &buffers[3]};
        context->dispatch(pipeline, bound, {}, groups);
    }
    void time_once() {
        const Stopwatch watch;
        dispatch();
        samples.add(watch);
    }
    Contender contender() {
        return {[this] { time_once(); }, [this](const std::string& what) { measured.problem = what; }};
    }
    Measured result() const {
        Measured m = measured;
        if (m.problem.empty()) m.ms = samples.timings();
        return m;
    }
};

// The kernel on `device` with Q, K, V from the inputs, its first dispatch checked against `expected`.
KernelRun prepare(BenchDevice& device, const Kernel& kernel, const Options& o, const std::vector<float>* qkv,
                  const std::vector<double>& expected) {
    KernelRun run;
    test::Context& c = *(run.context = &device.context());
    const auto upload = [&](const std::vector<float>& values) {
        test::Buffer b = c.create_buffer(values.size() * 2);
        for (size_t i = 0; i < values.size(); ++i) b.as<uint16_t>()[i] = half_from_float(values[i]);
        return b;
    };
    run.buffers = {upload(qkv[0]), upload(qkv[1]), upload(qkv[2]), c.create_buffer(expected.size() * 4)};
    run.groups = kernel.groups;
    const AttentionSpecialization specialization(device.subgroup_size, o.shape());
    Measured& m = run.measured;
    const Stopwatch watch;
    try {
        run.pipeline = c.create_compute_pipeline(test::read_shader(kernel.shader), 4, 0, &specialization.info);
    } catch (const std::runtime_error& e) {  // with what the layer and the driver said, which names the culprit
        const std::string said = device.layer_problems();
        m.problem = std::format("{} after {:.0f} s{}", e.what(), watch.wall_ms() / 1e3, said.empty() ? "" : " (messages: " + said + ")");
        return run;
    }
    m.create_ms = watch.wall_ms();
    run.dispatch();  // warm-up, and the result checked
    m.error = worst_error(run.buffers[3], expected);
    if (!(m.error < 5e-3)) m.problem = "wrong result (largest error " + std::to_string(m.error) + ")";
    return run;
}

void run(const Options& o) {
    const std::vector<float> qkv[] = {inputs(size_t{o.queries} * o.head, 1), inputs(size_t{o.keys} * o.head, 2),
                                      inputs(size_t{o.keys} * o.head, 3)};
    const std::vector<double> expected = reference(qkv[0], qkv[1], qkv[2], o.queries, o.keys, o.head);
    const Kernel coopmat2{"coopmat2, lowered by the layer", kAttentionCoopmat2Shader, o.queries / kAttentionBlockRows};
    const Kernel scalar{"scalar shader", kAttentionScalarShader, o.queries / kAttentionScalarGroup};
    std::vector<std::pair<std::string, Measured>> rows;

    {  // one device at a time: the harness loads each instance's commands globally (volk)
        BenchDevice emulated(Route::Emulated);
        const std::string why_not = coopmat2_attention_unavailable(emulated, o.shape());
        if (!why_not.empty()) {
            throw std::runtime_error("the coopmat2 kernel cannot run through the layer: " + why_not + emulated.layer_problems());
        }
        std::printf("## Attention, %u queries x %u keys, head dimension %u, blocks of %u keys (%s, median of %u)\n\n", o.queries,
                    o.keys, o.head, o.block, emulated.device_name.c_str(), o.reps);
        // The lowered kernel and the scalar shader take turns, so that the load meets them alike.
        KernelRun runs[] = {prepare(emulated, coopmat2, o, qkv, expected), prepare(emulated, scalar, o, qkv, expected)};
        std::vector<Contender> contenders;
        for (KernelRun& run : runs) {
            if (run.measured.problem.empty()) contenders.push_back(run.contender());
        }
        take_turns(static_cast<int>(o.reps), contenders);
        rows.emplace_back(coopmat2.name, runs[0].result());
        rows.emplace_back(scalar.name, runs[1].result());
    }
    if (!rows[0].second.problem.empty() || !rows[1].second.problem.empty()) {
        throw std::runtime_error(rows[0].second.problem.empty() ? "the scalar shader: " + rows[1].second.problem
                                                                 : "the lowered kernel: " + rows[0].second.problem);
    }
    {
        BenchDevice native(Route::Native);  // the driver's own VK_NV_cooperative_matrix2, where it has what the kernel uses
        const std::string native_why_not = coopmat2_attention_unavailable(native, o.shape());
        Measured on_driver;
        on_driver.problem = native_why_not.empty() ? "" : "unavailable: " + native_why_not;
        if (native_why_not.empty()) {
            KernelRun run = prepare(native, coopmat2, o, qkv, expected);
            if (run.measured.problem.empty()) {
                Contender alone[] = {run.contender()};
                take_turns(static_cast<int>(o.reps), alone);
            }
            on_driver = run.result();
        }
        rows.emplace_back("coopmat2 on the driver, without the layer", on_driver);
    }

    std::printf("| kernel | process CPU ms per dispatch | wall ms per dispatch | largest error against the CPU | ms to create the pipeline |\n"
                "| --- | ---: | ---: | ---: | ---: |\n");
    for (const auto& [name, m] : rows) {
        if (m.problem.empty()) {
            std::printf("| %s | %.2f | %.2f | %.1e | %.0f |\n", name.c_str(), m.ms.cpu_ms.median, m.ms.wall_ms.median, m.error, m.create_ms);
        } else {
            std::printf("| %s | %s | | | |\n", name.c_str(), m.problem.c_str());
        }
    }
    const Timings &lowered = rows[0].second.ms, &scalar_shader = rows[1].second.ms;
    std::printf("\nlowered coopmat2 / scalar speed: %.2f in CPU time, %.2f in wall time\n\n",
                scalar_shader.cpu_ms.median / lowered.cpu_ms.median, scalar_shader.wall_ms.median / lowered.wall_ms.median);
    if (!o.json.empty()) {
        Figures figures("VK_NV_cooperative_matrix2", o.driver);
        std::string group = "attention " + std::to_string(o.queries) + "x" + std::to_string(o.keys) + "x" + std::to_string(o.head);
        group += " (blocks of " + std::to_string(o.block) + ")";
        for (const auto& [name, m] : rows) {
            if (m.problem.empty()) {
                figures.add(group, name, "process CPU ms per dispatch", m.ms.cpu_ms);
                figures.add(group, name, "wall ms per dispatch", m.ms.wall_ms);
            }
        }
        figures.write(o.json);
    }
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    return tool_main<Options>("vkpolyfill_attention_bench", kUsage, argc, argv, parse, run);
}
