// What creating one pipeline cost and what the compiler reports about it (vkpolyfill_compile_kernels):
// wall and CPU time, the process's peak memory, the executables' statistics, and the verdicts on the
// [G] budgets (created; within 10 s of CPU time, so that other load on the machine does not decide it;
// peak within 2 GiB; no spills, the compiler saying so).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pipeline_statistics.h"
#include "vulkan_context.h"

namespace vkpolyfill::bench {

// What is compiled, as the output names it.
struct CompileSubject {
    std::string name, what;
    std::string route;      // driver | layer | emulated
    std::string workgroup;  // the work of one workgroup, to compare like with like
};

struct Outcome {
    std::string problem;  // empty when the pipeline was created
    std::string device;
    double seconds = 0, cpu_seconds = 0, peak = 0;  // wall and CPU time to create the pipeline; peak MiB
    std::vector<test::ExecutableStatistics> statistics;
    test::CompilerFigures figures;

    bool created() const { return problem.empty(); }
    // The verdict on each budget; a budget that cannot be judged (no pipeline) is unmet.
    std::map<std::string, bool> verdicts() const;
};

// Creates a pipeline with `make` (given the flags that capture statistics; it returns the pipeline and
// keeps it alive until `release` is called) on `context`, timing it and reading its statistics. A
// std::runtime_error becomes the outcome's problem, with the layer's `problems` appended.
Outcome compile(test::Context& context, const std::string& device, const std::function<std::string()>& problems,
                const std::function<VkPipeline(VkPipelineCreateFlags)>& make, const std::function<void()>& release);

void print_json(const CompileSubject& subject, const Outcome& outcome);
void print_text(const CompileSubject& subject, const Outcome& outcome);
// The number of `expect`ed budgets (comma-separated names) the outcome does not meet, each named on stderr.
int unmet_budgets(const CompileSubject& subject, const Outcome& outcome, const std::string& expect);
// The exit status of a run that expects the layer to refuse the pipeline (beyond what it offers on the
// device): 0 when it failed and the layer said why (`said`, its error messages), printed as not
// supported; 1, saying so on stderr, when it was created or failed otherwise.
int expected_refusal(const CompileSubject& subject, const Outcome& outcome, const std::string& said);

}  // namespace vkpolyfill::bench
