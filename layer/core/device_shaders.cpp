#include "core/device_shaders.h"

#include "core/feature_enabling.h"

#include "tile_image/capability_ext_shader_tile_image.h"
#include "cooperative_matrix/capability_nv_cooperative_matrix2.h"
#include "cooperative_matrix/native_matrices.h"

namespace vkpolyfill {
namespace {

// The SPIR-V versions each Vulkan version must consume.
uint32_t spirv_version_for(uint32_t api_version) {
    if (api_version >= VK_API_VERSION_1_3) return 0x00010600;
    if (api_version >= VK_API_VERSION_1_2) return 0x00010500;
    if (api_version >= VK_API_VERSION_1_1) return 0x00010300;
    return 0x00010000;
}

// Lavapipe before Mesa 26: lavapipe 25.0.7 reports driverVersion 0.0.1, Mesa 26 its own version, so
// an older lavapipe (or one reporting no version) counts as before 26.
bool lavapipe_before_26(const PhysicalDeviceFacts& facts) {
    return facts.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE && VK_API_VERSION_MAJOR(facts.properties.driverVersion) < 26;
}

// Whether the driver loads a value every invocation of a subgroup reads from one address once per
// subgroup. GPUs do (scalar or uniform loads); lavapipe does from Mesa 26 on. Lavapipe 25.0.7 loads it
// per invocation (measured: the workgroup GEMM's A and B in subgroup bands made it 1.4x slower there
// and 1.6x faster on 26.1.6).
// The `uniform_loads` setting overrides it (a driver that mishandles one form can be given the other).
bool scalar_uniform_loads(const PhysicalDeviceFacts& facts, UniformLoads setting) {
    if (setting != UniformLoads::Auto) return setting == UniformLoads::Scalar;
    return !lavapipe_before_26(facts);
}

// Whether compute shaders may shuffle and broadcast values between a subgroup's invocations.
bool subgroup_shuffles(const PhysicalDeviceFacts& facts, uint32_t spirv_version) {
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
    return spirv_version >= 0x00010300 && (facts.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
           (facts.subgroup.supportedOperations & needed) == needed;
}

// Whether subgroup-scope A matrices are distributed over the subgroup: on GPUs, whose invocations have
// about 255 registers (a replicated 16x16 A spills on every GPU compiler measured), not on lavapipe,
// where invocations are SIMD lanes of a CPU thread and the replicated A's multiply-add runs without
// shuffles. The `matrix_layout` setting overrides it.
bool distributed_matrices(const PhysicalDeviceFacts& facts, MatrixLayout setting) {
    if (setting != MatrixLayout::Auto) return setting == MatrixLayout::Distributed;
    return facts.driver.driverID != VK_DRIVER_ID_MESA_LLVMPIPE;
}

// Whether a distributed A reaches the invocations multiplying with it through shared memory rather
// than by shuffles: on AMD's GPUs, whose shuffles with per-invocation lanes are LDS instructions
// themselves (ACO's estimates for the project's GEMMs and attention and llama.cpp's coopmat1 GEMM fell
// 5-63% on the RX 6800), and on Turnip, whose compiler writes a shuffle out as many instructions (the
// project's kernels 6-13 times shorter on the Adreno 740); not on NVK, where NAK's estimates rose for
// some kernels, nor on Honeykrisp, where AGX spilled more for some (docs/real_gpus.md). The
// `distributed_a` setting overrides it.
bool distributed_a_from_shared_memory(const PhysicalDeviceFacts& facts, DistributedA setting) {
    if (setting != DistributedA::Auto) return setting == DistributedA::SharedMemory;
    switch (facts.driver.driverID) {
        case VK_DRIVER_ID_MESA_RADV:
        case VK_DRIVER_ID_AMD_PROPRIETARY:
        case VK_DRIVER_ID_AMD_OPEN_SOURCE:
        case VK_DRIVER_ID_MESA_TURNIP:
            return true;
        default:
            return false;
    }
}

// Whether B's K rows are split over the row groups where A's values are shuffled: everywhere but
// Honeykrisp, where AGX spilled more with it (the project's 16x16x16 GEMM 548 -> 619, its attention
// 15 -> 35); NAK held that GEMM without spilling (docs/real_gpus.md).
bool split_b_rows(const PhysicalDeviceFacts& facts) { return facts.driver.driverID != VK_DRIVER_ID_MESA_HONEYKRISP; }

// How long tensor loads of narrow components iterate (lowering::LongNarrowLoads): a word at a time,
// in a loop kept rolled on NVK, where NAK unrolled the halved loops and spilled (llama.cpp's flash
// attention at head 128 on the RTX 2080); an element at a time on lavapipe 25, where ggml's f16 GEMM
// ran slower by words.
lowering::LongNarrowLoads long_narrow_loads(const PhysicalDeviceFacts& facts) {
    if (facts.driver.driverID == VK_DRIVER_ID_MESA_NVK) return lowering::LongNarrowLoads::RolledWords;
    if (lavapipe_before_26(facts)) return lowering::LongNarrowLoads::Elements;
    return lowering::LongNarrowLoads::Words;
}

// Long tensor loads and stores in chunks the driver unrolls (lowering::Target::chunked_element_loops):
// on NVK, where NAK kept the rolled loops' components in local memory; the `tensor_loops` setting
// overrides it.
bool chunked_element_loops(const PhysicalDeviceFacts& facts, TensorLoops setting) {
    if (setting != TensorLoops::Auto) return setting == TensorLoops::Chunked;
    return facts.driver.driverID == VK_DRIVER_ID_MESA_NVK;
}

// Which workgroup multiply-adds run on the driver's own cooperative matrices. By default those whose
// accumulators stay in the tiles, on NVIDIA's and AMD's GPUs: measured at the loops' trip counts on NAK
// and ACO, llama.cpp's f16 and q4_0 GEMMs take about 40% fewer cycles on Turing's tensor cores and on
// RDNA3's WMMA, at the plain code's occupancy or close, while its flash attention, whose accumulators
// leave the tiles at every step, spills more there (it stays plain under KeptAccumulators). Not on
// lavapipe 26, where the two run alike, nor on drivers not measured (docs/real_gpus.md).
lowering::NativeMultiplyAdds native_multiply_adds(const PhysicalDeviceFacts& facts, MatrixUnits setting) {
    switch (setting) {
        case MatrixUnits::Native: return lowering::NativeMultiplyAdds::All;
        case MatrixUnits::KeptAccumulators: return lowering::NativeMultiplyAdds::KeptAccumulators;
        case MatrixUnits::Plain: return lowering::NativeMultiplyAdds::None;
        case MatrixUnits::Auto: break;
    }
    switch (facts.driver.driverID) {
        case VK_DRIVER_ID_MESA_NVK:
        case VK_DRIVER_ID_NVIDIA_PROPRIETARY:
        case VK_DRIVER_ID_MESA_RADV:
        case VK_DRIVER_ID_AMD_PROPRIETARY:
        case VK_DRIVER_ID_AMD_OPEN_SOURCE:
            return lowering::NativeMultiplyAdds::KeptAccumulators;
        default:
            return lowering::NativeMultiplyAdds::None;
    }
}

}  // namespace

std::unique_ptr<DeviceShaders> make_device_shaders(const PhysicalDeviceRecord& record, lowering::EmulatedSet enabled,
                                                   uint32_t api_version, const VkDeviceCreateInfo* create_info,
                                                   const Settings& settings) {
    if (enabled == 0) return nullptr;
    lowering::Target target;
    target.vulkan_version = api_version;
    target.spirv_version = spirv_version_for(api_version);
    target.max_shared_memory_bytes = record.facts.properties.limits.maxComputeSharedMemorySize;
    // What the layer reported reserving: a shader that fits the rest must not fail for the lowering's sake.
    if (enabled & lowering::bit(lowering::Emulated::NvCooperativeMatrix2)) {
        target.reserved_shared_memory_bytes = reserved_shared_memory(record.facts);
    }
    target.emulate = enabled;
    target.shader_int16 = enables_core_feature(*create_info, &VkPhysicalDeviceFeatures::shaderInt16);
    target.native = record.native_set();
    target.simd_lane_invocations = record.facts.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
    target.scalar_uniform_loads = scalar_uniform_loads(record.facts, settings.uniform_loads);
    target.unflattened_selections = lavapipe_before_26(record.facts);  // measured there only (lowering::Target)
    target.subgroup_shuffles = subgroup_shuffles(record.facts, target.spirv_version);
    target.distributed_matrices = distributed_matrices(record.facts, settings.matrix_layout);
    target.distributed_a_from_shared_memory = distributed_a_from_shared_memory(record.facts, settings.distributed_a);
    target.split_b_rows = split_b_rows(record.facts);
    target.long_narrow_loads = long_narrow_loads(record.facts);
    target.chunked_element_loops = chunked_element_loops(record.facts, settings.tensor_loops);
    if (!(enabled & lowering::bit(lowering::Emulated::KhrCooperativeMatrix))) {
        target.native_matrices = native_matrices(record.facts, *create_info);
        target.multiply_on_native_matrices = native_multiply_adds(record.facts, settings.matrix_units);
    }
    target.tile_image = tile_image_target(record.facts);
    if (settings.tile_image_indexing == TileImageIndexing::Constant) target.tile_image.dynamic_indexing = false;
    return std::make_unique<DeviceShaders>(record, target, subgroup_control(record.facts, create_info),
                                          settings.cache_dir);
}

}  // namespace vkpolyfill
