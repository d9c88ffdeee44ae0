// The benchmark's command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels.h"

namespace vkpolyfill::bench {

// What to measure; each can be left out.
struct Measurements {
    bool emulated = true;  // (a) the coopmat shaders through the layer, emulation forced
    bool native = true;    // (b) the coopmat shaders on the driver, no layer
    bool scalar = true;    // (c) the scalar shader on the driver, no layer
    bool creation = true;  // pipeline-creation times with and without the layer
};

struct Options {
    std::vector<uint32_t> sizes{1024, 2048};  // square GEMMs, M = N = K
    int reps = 5;
    int creation_reps = 50;
    std::string driver = "native";  // native | plain | system (leave VK_DRIVER_FILES alone)
    std::string json_path;
    Measurements measure;
    // (c)'s candidates, each measured: the fastest at a size is the baseline (scalar_tunings).
    std::vector<KernelConfig> scalar;
    // The cooperative-matrix kernels: the KHR shader with A/B staged through shared memory and
    // loaded from the buffers, the workgroup-scope coopmat2 shader, the flexible-dimension variant.
    std::vector<KernelConfig> coopmat;
};

// Throws std::invalid_argument on a bad command line; `help` is set for --help.
Options parse_options(int argc, char** argv, bool& help);
extern const char kUsage[];

}  // namespace vkpolyfill::bench
