#include "pipeline_statistics.h"

#include <initializer_list>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

double as_number(const VkPipelineExecutableStatisticKHR& s) {
    switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s.value.b32;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return static_cast<double>(s.value.i64);
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return static_cast<double>(s.value.u64);
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return s.value.f64;
        default: return 0;
    }
}

// The first of `names` the executable reports (the compilers' names differ; Mesa 26.1's are listed).
std::optional<double> first_of(const ExecutableStatistics& s, std::initializer_list<const char*> names) {
    for (const char* name : names) {
        if (auto v = s.value(name)) return v;
    }
    return std::nullopt;
}

std::optional<double> sum_of(const ExecutableStatistics& s, std::initializer_list<const char*> names) {
    std::optional<double> total;
    for (const char* name : names) {
        if (auto v = s.value(name)) total = total.value_or(0) + *v;
    }
    return total;
}

}  // namespace

std::optional<double> ExecutableStatistics::value(const std::string& statistic) const {
    for (const auto& [reported, v] : values) {
        if (reported == statistic) return v;
    }
    return std::nullopt;
}

std::vector<ExecutableStatistics> read_pipeline_statistics(VkDevice device, const VolkDeviceTable& vk, VkPipeline pipeline) {
    VkPipelineInfoKHR pipeline_info = vku::InitStructHelper();
    pipeline_info.pipeline = pipeline;
    uint32_t count = 0;
    check(vk.vkGetPipelineExecutablePropertiesKHR(device, &pipeline_info, &count, nullptr), "vkGetPipelineExecutablePropertiesKHR");
    std::vector<VkPipelineExecutablePropertiesKHR> executables(count, vku::InitStruct<VkPipelineExecutablePropertiesKHR>());
    check(vk.vkGetPipelineExecutablePropertiesKHR(device, &pipeline_info, &count, executables.data()),
          "vkGetPipelineExecutablePropertiesKHR");
    std::vector<ExecutableStatistics> result;
    for (uint32_t i = 0; i < count; ++i) {
        VkPipelineExecutableInfoKHR executable = vku::InitStructHelper();
        executable.pipeline = pipeline;
        executable.executableIndex = i;
        uint32_t statistics = 0;
        check(vk.vkGetPipelineExecutableStatisticsKHR(device, &executable, &statistics, nullptr),
              "vkGetPipelineExecutableStatisticsKHR");
        std::vector<VkPipelineExecutableStatisticKHR> values(statistics, vku::InitStruct<VkPipelineExecutableStatisticKHR>());
        check(vk.vkGetPipelineExecutableStatisticsKHR(device, &executable, &statistics, values.data()),
              "vkGetPipelineExecutableStatisticsKHR");
        ExecutableStatistics s{executables[i].name, {}, executables[i].stages};
        for (const VkPipelineExecutableStatisticKHR& v : values) s.values.emplace_back(v.name, as_number(v));
        result.push_back(std::move(s));
    }
    return result;
}

CompilerFigures compiler_figures(const ExecutableStatistics& s) {
    // RADV (ACO): "Inverse Throughput" is ACO's static estimate of cycles per wave through the shader
    // once (loops counted once). NAK: "Static cycle count", its scheduler's count for one pass; "SLM
    // size" its local (scratch) memory per thread. Turnip (ir3): no cycle estimate and no spill count (its
    // private-memory stores, "STP Count", are local arrays as much as spills). Honeykrisp (AGX): no estimate.
    CompilerFigures f;
    f.registers = first_of(s, {"VGPRs", "Number of GPRs", "Registers used", "GPRs"});
    f.spilled = sum_of(s, {"Spilled VGPRs", "Spilled SGPRs", "Spills to memory", "Spills"});
    f.scratch = first_of(s, {"Scratch size", "SLM size", "Scratch"});
    f.shared = first_of(s, {"LDS size", "Shared memory size"});
    f.occupancy = first_of(s, {"Subgroups per SIMD", "Max warps/SM", "Max Waves Per Core", "Threads"});
    f.instructions = first_of(s, {"Instructions", "Instruction count", "Instruction Count"});
    f.cycles = first_of(s, {"Inverse Throughput", "Static cycle count"});
    return f;
}

}  // namespace vkpolyfill::test
