// Order statistics of repeated measurements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace vkpolyfill::bench {

struct Summary {
    size_t count = 0;
    double median = 0, min = 0, max = 0;
    double q1 = 0, q3 = 0;  // quartiles (linear interpolation between order statistics)
};

Summary summarize(std::vector<double> samples);

// Wall-clock milliseconds of `run`, once to warm up (pipeline compiles, first-use costs), then `reps` times.
Summary time_ms(uint32_t reps, const std::function<void()>& run);

}  // namespace vkpolyfill::bench
