// The figures a benchmark hands scripts/bench.sh's report (scripts/bench/report.py): per group of
// measurements taken side by side in one process (one scene, one size), each series' statistics.
// Written with --json PATH by the benchmarks that print only Markdown otherwise; vkpolyfill_bench
// has its own, richer JSON, which the report reads as well.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stats.h"

namespace vkpolyfill::bench {

struct Figure {
    std::string group;   // "blending 512x512, 64 quads"
    std::string series;  // "tile-image reads through the layer"
    std::string unit;    // "ms per frame"
    Summary summary;
};

class Figures {
  public:
    Figures(std::string capability, std::string driver) : capability_(std::move(capability)), driver_(std::move(driver)) {}
    void add(std::string group, std::string series, std::string unit, const Summary& summary);
    // Writes {"capability", "driver", "figures": [...]}; throws std::runtime_error when it cannot.
    void write(const std::string& path) const;

  private:
    std::string capability_, driver_;
    std::vector<Figure> figures_;
};

// `s` with every statistic multiplied by `factor` (per-frame or per-call figures from totals).
Summary scaled(Summary s, double factor);

}  // namespace vkpolyfill::bench
