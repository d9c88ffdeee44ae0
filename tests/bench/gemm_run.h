// Runs one GEMM pipeline repeatedly on a device: GPU time from timestamp queries where the queue
// has them, wall time from submit to fence, process CPU time, and the result checked against the
// CPU reference.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "gemm_pipeline.h"
#include "gemm_problem.h"

namespace vkpolyfill::bench {

// A, B (from the inputs) and C of one problem on one device; they live as long as the device.
struct GemmBuffers {
    GemmBuffers(test::Context& context, const GemmInputs& inputs);
    const GemmInputs& inputs;
    test::Buffer a, b, c;
};

struct RunResult {
    double first_ms = 0;  // wall time of the first dispatch: on lavapipe it includes compiling the shader
    Summary gpu_ms;       // count 0 when the queue has no timestamps
    Summary wall_ms;
    Summary cpu_ms;       // CPU time of this process per dispatch (Stopwatch in stats.h): on lavapipe, the work done
    Verification verification;  // of the first dispatch's result
};

struct GemmSubmission;  // the command buffer and the objects it needs (gemm_run.cpp)

// One GEMM pipeline made ready on a device: the command buffer recorded once, and a first dispatch
// (on lavapipe it compiles the shader) run and its result checked. Then timed dispatches, one at a
// time, so that the runs of several kernels on several devices can be interleaved.
class GemmRun {
  public:
    // Throws std::runtime_error when the device refuses the module, the pipeline or a command.
    GemmRun(BenchDevice& device, std::span<const uint32_t> spirv, const KernelConfig& config, const GemmBuffers& buffers,
            const Geometry& geometry);
    ~GemmRun();
    GemmRun(const GemmRun&) = delete;
    GemmRun& operator=(const GemmRun&) = delete;

    void time_once();  // throws std::runtime_error
    RunResult result() const;

  private:
    BenchDevice& device_;
    GemmPipeline pipeline_;
    std::unique_ptr<GemmSubmission> submission_;
    RunResult first_;  // first_ms and verification
    std::vector<double> gpu_ms_, wall_ms_, cpu_ms_;
};

}  // namespace vkpolyfill::bench
