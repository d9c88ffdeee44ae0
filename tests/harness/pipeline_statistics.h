// What a driver's compiler reports about a pipeline through VK_KHR_pipeline_executable_properties
// (created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR on a device with pipelineExecutableInfo):
// each executable's statistics as the driver names them, and the figures compared across compilers.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

namespace vkpolyfill::test {

struct ExecutableStatistics {
    std::string name;  // the driver's name for the executable ("Compute Shader")
    std::vector<std::pair<std::string, double>> values;  // as the driver names them, in its order
    VkShaderStageFlags stages = 0;                        // the stages it runs

    std::optional<double> value(const std::string& statistic) const;
};

std::vector<ExecutableStatistics> read_pipeline_statistics(VkDevice device, const VolkDeviceTable& vk, VkPipeline pipeline);

// The figures [G] compares, from whichever statistics of one executable the compiler reports under
// its own names (pipeline_statistics.cpp lists them per compiler); absent when it reports none.
struct CompilerFigures {
    std::optional<double> registers;     // per invocation: AMD VGPRs, NVIDIA GPRs, Adreno registers, Apple GPRs
    std::optional<double> spilled;       // AMD VGPRs + SGPRs, NVIDIA and Apple spills (Adreno reports none)
    std::optional<double> scratch;       // scratch memory, bytes (NVIDIA: per thread)
    std::optional<double> shared;        // shared memory (LDS), bytes
    std::optional<double> occupancy;     // AMD subgroups per SIMD, NVIDIA warps per SM, Adreno waves, Apple threads
    std::optional<double> instructions;  // the compiler's instruction count
    std::optional<double> cycles;        // the compiler's static cost estimate (see the per-compiler notes)
};

CompilerFigures compiler_figures(const ExecutableStatistics& statistics);

}  // namespace vkpolyfill::test
