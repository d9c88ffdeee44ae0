// Runs one GEMM pipeline repeatedly on a device: GPU time from timestamp queries where the queue
// has them, wall time from submit to fence, and the result checked against the CPU reference.
#pragma once

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
    // CPU time of this process (every thread) per dispatch: on a CPU driver such as lavapipe, the
    // work done, which other load on the machine does not inflate the way it inflates the times.
    Summary cpu_ms;
    Verification verification;  // of the first dispatch's result
};

// One dispatch to warm up and verify, then `reps` timed ones.
RunResult run_gemm(BenchDevice& device, const GemmPipeline& pipeline, const GemmBuffers& buffers, const Geometry& geometry,
                   int reps);

}  // namespace vkpolyfill::bench
