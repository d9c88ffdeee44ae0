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

// Wall-clock and process CPU time since construction. The process's CPU time (every thread) is, on a
// CPU driver such as lavapipe, the work done, which other load on the machine does not inflate the
// way it inflates wall-clock time.
class Stopwatch {
  public:
    Stopwatch();
    double wall_ms() const;
    double cpu_ms() const;

  private:
    double wall_start_, cpu_start_;
};

struct Timings {
    Summary wall_ms, cpu_ms;
};

// The times of runs timed one at a time (as kernels taking turns are, turns.h).
class TimingSamples {
  public:
    void add(const Stopwatch& started_before_the_run);
    Timings timings() const;

  private:
    std::vector<double> wall_ms_, cpu_ms_;
};

// Wall-clock and process CPU milliseconds of `run`, once to warm up (pipeline compiles, first-use
// costs), then `reps` times.
Timings time_run(uint32_t reps, const std::function<void()>& run);

// The wall-clock part of time_run.
Summary time_ms(uint32_t reps, const std::function<void()>& run);

}  // namespace vkpolyfill::bench
