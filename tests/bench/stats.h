// Order statistics of repeated measurements.
#pragma once

#include <cstddef>
#include <vector>

namespace vkpolyfill::bench {

struct Summary {
    size_t count = 0;
    double median = 0, min = 0, max = 0;
    double q1 = 0, q3 = 0;  // quartiles (linear interpolation between order statistics)
};

Summary summarize(std::vector<double> samples);

}  // namespace vkpolyfill::bench
