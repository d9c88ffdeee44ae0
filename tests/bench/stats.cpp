#include "stats.h"

#include <algorithm>
#include <chrono>

#include <sys/resource.h>

namespace vkpolyfill::bench {
namespace {

// The q-quantile of sorted, non-empty samples.
double quantile(const std::vector<double>& sorted, double q) {
    const double position = q * static_cast<double>(sorted.size() - 1);
    const size_t below = static_cast<size_t>(position);
    const size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] * (1.0 - weight) + sorted[above] * weight;
}

double now_wall_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double now_process_cpu_ms() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) * 1e-3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

}  // namespace

Stopwatch::Stopwatch() : wall_start_(now_wall_ms()), cpu_start_(now_process_cpu_ms()) {}
double Stopwatch::wall_ms() const { return now_wall_ms() - wall_start_; }
double Stopwatch::cpu_ms() const { return now_process_cpu_ms() - cpu_start_; }

Summary summarize(std::vector<double> samples) {
    Summary s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.median = quantile(samples, 0.5);
    s.q1 = quantile(samples, 0.25);
    s.q3 = quantile(samples, 0.75);
    return s;
}

void TimingSamples::add(const Stopwatch& started_before_the_run) {
    wall_ms_.push_back(started_before_the_run.wall_ms());
    cpu_ms_.push_back(started_before_the_run.cpu_ms());
}

Timings TimingSamples::timings() const { return {summarize(wall_ms_), summarize(cpu_ms_)}; }

Timings time_run(uint32_t reps, const std::function<void()>& run) {
    run();
    TimingSamples samples;
    for (uint32_t r = 0; r < reps; ++r) {
        const Stopwatch watch;
        run();
        samples.add(watch);
    }
    return samples.timings();
}

Summary time_ms(uint32_t reps, const std::function<void()>& run) { return time_run(reps, run).wall_ms; }

}  // namespace vkpolyfill::bench
