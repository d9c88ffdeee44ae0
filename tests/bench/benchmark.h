// The whole measurement, on one driver: every GEMM size on each path, and pipeline-creation times.
#pragma once

#include <string>
#include <vector>

#include "gemm_run.h"
#include "options.h"

namespace vkpolyfill::bench {

struct GemmMeasurement {
    std::string unavailable;  // empty: measured, else why not
    RunResult run;
    bool measured() const { return unavailable.empty(); }
    double median_ms() const;  // GPU time where there are timestamps, else wall time
};

// One coopmat variant (Options::coopmat) at one size.
struct CoopmatGemm {
    GemmMeasurement emulated;  // (a) through the layer, emulation forced
    GemmMeasurement native;    // (b) on the driver
};

struct SizeResults {
    GemmShape shape;
    std::vector<CoopmatGemm> coopmat;      // in the order of Options::coopmat
    std::vector<GemmMeasurement> scalars;  // in the order of Options::scalar
    size_t fastest_scalar = 0;             // by CPU time on a CPU device, else by median_ms()
    const GemmMeasurement& scalar() const { return scalars[fastest_scalar]; }  // (c)
};

struct CreationMeasurement {
    std::string unavailable;
    CreationTimes times;
    bool measured() const { return unavailable.empty(); }
};

struct CoopmatCreation {
    CreationMeasurement native;    // the driver alone
    CreationMeasurement emulated;  // the layer's lowering, then the driver
};

struct Results {
    Options options;
    std::string device_name;
    bool cpu_device = false;  // then process CPU time measures the work, and ratios are given by it too
    uint32_t subgroup_size = 0;
    bool timestamps = false;
    std::string load_before, load_after;  // the machine's 1-minute load average, when known
    std::string mesa_shader_cache_disable;  // the environment variable's value (main sets it)
    std::vector<SizeResults> sizes;
    // The layer's pass-through cost: through it on a device where it emulates nothing, and on the
    // device where it emulates the cooperative-matrix extensions.
    CreationMeasurement scalar_without_layer, scalar_with_layer, scalar_with_emulating_layer;
    std::vector<CoopmatCreation> coopmat_creation;                 // per coopmat variant

    bool all_verified() const;  // every measured GEMM matched the reference
};

Results run_benchmark(const Options& options);

}  // namespace vkpolyfill::bench
