// The benchmark's results as a Markdown report (stdout, build/bench-results/*.md) and as JSON.
#pragma once

#include <string>

#include "benchmark.h"

namespace vkpolyfill::bench {

std::string markdown_report(const Results& results);
std::string json_report(const Results& results);

}  // namespace vkpolyfill::bench
