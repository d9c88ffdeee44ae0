// Compute pipelines for a GEMM kernel configuration: set 0 holds A, B and C (storage buffers 0-2),
// push constants M, N, K; the configuration's specialization constants; and, where the device
// allows, its subgroup size required and full subgroups. Also the timing of their creation.
#pragma once

#include <memory>
#include <string>
#include <span>
#include <vector>

#include "bench_device.h"
#include "kernels.h"
#include "stats.h"

namespace vkpolyfill::bench {

struct GemmPush {
    uint32_t m, n, k;
};

// Why `config` cannot run on `device` at all, or empty.
std::string kernel_unavailable(const BenchDevice& device, const KernelConfig& config);

// The descriptor-set and pipeline layouts every GEMM pipeline uses.
class GemmLayouts {
  public:
    explicit GemmLayouts(test::Context& context);
    ~GemmLayouts();
    GemmLayouts(const GemmLayouts&) = delete;
    GemmLayouts& operator=(const GemmLayouts&) = delete;

    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    test::Context& context() const { return context_; }

  private:
    test::Context& context_;
};

class GemmPipeline {
  public:
    // Throws std::runtime_error when the device refuses the module or the pipeline.
    GemmPipeline(BenchDevice& device, std::span<const uint32_t> spirv, const KernelConfig& config,
                 VkPipelineCreateFlags flags = 0);
    ~GemmPipeline();
    GemmPipeline(const GemmPipeline&) = delete;
    GemmPipeline& operator=(const GemmPipeline&) = delete;

    GemmLayouts layouts;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

struct CreationTimes {
    Summary module_ms;    // vkCreateShaderModule
    Summary pipeline_ms;  // vkCreateComputePipelines, no VkPipelineCache
    double first_pipeline_ms = 0;  // the first of them
};

class PipelineStage;  // the shader stage of a configuration (gemm_pipeline.cpp)

// Times the creation of a configuration's shader module and pipeline, one creation at a time (so
// that creations on several devices can be interleaved), destroying each right away.
class CreationTimer {
  public:
    CreationTimer(BenchDevice& device, const KernelConfig& config);
    ~CreationTimer();
    CreationTimer(const CreationTimer&) = delete;
    CreationTimer& operator=(const CreationTimer&) = delete;

    void create_once();  // throws std::runtime_error when the device refuses
    CreationTimes times() const;

  private:
    test::Context& context_;
    std::vector<uint32_t> spirv_;
    GemmLayouts layouts_;
    std::unique_ptr<PipelineStage> stage_;
    std::vector<double> module_ms_, pipeline_ms_;
};

}  // namespace vkpolyfill::bench
