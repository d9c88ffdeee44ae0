#include "stats.h"

#include <algorithm>
#include <chrono>

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

}  // namespace

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

Summary time_ms(uint32_t reps, const std::function<void()>& run) {
    run();
    std::vector<double> ms;
    for (uint32_t r = 0; r < reps; ++r) {
        const auto start = std::chrono::steady_clock::now();
        run();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return summarize(ms);
}

}  // namespace vkpolyfill::bench
