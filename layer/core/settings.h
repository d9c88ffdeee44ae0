// The layer's settings, read once per instance through Vulkan-Utility-Libraries' layer settings:
// VkLayerSettingsCreateInfoEXT, vk_layer_settings.txt, or environment variables
// (VK_POLYFILL_EXTENSIONS_<SETTING>, e.g. VK_POLYFILL_EXTENSIONS_LOG_LEVEL=debug). The manifest
// (json/) declares the same settings for vkconfig.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace vkpolyfill {

enum class LogLevel { Error = 0, Warning = 1, Info = 2, Debug = 3 };

// How the lowering loads a value that every invocation of a subgroup reads from one address
// (lowering::Target::scalar_uniform_loads): as the device is known to do it best, or as chosen.
enum class UniformLoads { Auto = 0, Scalar = 1, PerInvocation = 2 };

// How subgroup-scope A matrices are held (lowering::Target::distributed_matrices): as suits the device (replicated
// on lavapipe, distributed on GPUs), or as chosen.
enum class MatrixLayout { Auto = 0, Replicated = 1, Distributed = 2 };

// How a distributed A's values reach the invocations multiplying with them
// (lowering::Target::distributed_a_from_shared_memory): as measured faster on the device (through
// shared memory on AMD's GPUs and Turnip, by shuffles elsewhere), or as chosen.
enum class DistributedA { Auto = 0, Shuffles = 1, SharedMemory = 2 };

// How tensor loads and stores of more components an invocation than Mesa's drivers unroll iterate
// (lowering::Target::chunked_element_loops): in chunks the driver unrolls where that keeps them out of
// local memory (NVK), or as chosen.
enum class TensorLoops { Auto = 0, Chunked = 1, PerElement = 2 };

// How lowered tile-image reads index the layer's input-attachment array (lowering::TileImageTarget::
// dynamic_indexing): at run time where the device can, or with constants only, as on devices without
// shaderInputAttachmentArrayDynamicIndexing.
enum class TileImageIndexing { Auto = 0, Constant = 1 };

// Where VK_NV_cooperative_matrix2's workgroup-scope multiply-adds run on a driver with native
// VK_KHR_cooperative_matrix (lowering::Target::multiply_on_native_matrices): where that is measured faster (NVIDIA's
// drivers, for multiply-adds whose accumulators stay in the units' tiles), on the driver's units wherever
// its configurations fit, there only where the accumulators stay in the tiles (on any driver), or
// nowhere (plain lowered code).
enum class MatrixUnits { Auto = 0, Native = 1, KeptAccumulators = 2, Plain = 3 };

// How coherent tile-image reads are ordered: by the device's rasterization-order attachment access
// where it has it, else by a fragment shader interlock where the device and the pipeline allow it,
// else by splitting draws per primitive with by-region barriers; or always by splitting, or by the
// interlock wherever a pipeline allows it (then splitting).
enum class TileImageOrdering { Auto = 0, DrawSplitting = 1, Interlock = 2 };

struct Settings {
    std::vector<std::string> force_emulation;  // extension names, or "all": emulate even where native
    LogLevel log_level = LogLevel::Warning;     // what reaches stderr
    bool validate_output = true;                // spirv-val every lowered module before the driver sees it
    std::string dump_dir;                       // where original and lowered modules are written, if set
    std::string cache_dir;                      // on-disk cache of lowered modules, if set
    UniformLoads uniform_loads = UniformLoads::Auto;
    MatrixLayout matrix_layout = MatrixLayout::Auto;
    DistributedA distributed_a = DistributedA::Auto;
    MatrixUnits matrix_units = MatrixUnits::Auto;
    TensorLoops tensor_loops = TensorLoops::Auto;
    TileImageIndexing tile_image_indexing = TileImageIndexing::Auto;
    TileImageOrdering tile_image_ordering = TileImageOrdering::Auto;

    bool forces_emulation_of(std::string_view extension) const;
};

// Reads the settings for one instance. Problems (unknown settings, bad values) are appended to
// `problems` as sentences; the instance is created anyway with the defaults for those values.
Settings read_settings(const VkInstanceCreateInfo* create_info, std::vector<std::string>& problems);

const char* to_string(LogLevel level);
const char* to_string(UniformLoads loads);
const char* to_string(MatrixLayout layout);
const char* to_string(DistributedA exchange);
const char* to_string(MatrixUnits units);
const char* to_string(TensorLoops loops);
const char* to_string(TileImageIndexing indexing);
const char* to_string(TileImageOrdering ordering);

}  // namespace vkpolyfill
