// The attention benchmark's two shaders (attention_coopmat2.comp, attention_scalar.comp): their
// specialization constants and what the coopmat2 one needs of a device. Shared by the benchmark and the
// compile-only statistics (compile_kernels.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "bench_device.h"

namespace vkpolyfill::bench {

inline constexpr uint32_t kAttentionBlockRows = 16;    // query rows per coopmat2 workgroup (one subgroup)
inline constexpr uint32_t kAttentionScalarGroup = 64;  // query rows per scalar workgroup

inline constexpr char kAttentionCoopmat2Shader[] = "bench/attention_coopmat2.comp";
inline constexpr char kAttentionScalarShader[] = "bench/attention_scalar.comp";

struct AttentionShape {
    uint32_t keys = 256, head = 16, block = 32;
};

// Constants 0-3 as both shaders declare them: the subgroup size (the coopmat2 workgroup), keys, the
// head dimension, keys per block. Not copyable: `info` points into it.
struct AttentionSpecialization {
    AttentionSpecialization(uint32_t subgroup_size, const AttentionShape& shape);
    AttentionSpecialization(const AttentionSpecialization&) = delete;
    AttentionSpecialization& operator=(const AttentionSpecialization&) = delete;

    uint32_t constants[4];
    VkSpecializationMapEntry entries[4] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
    VkSpecializationInfo info{4, entries, sizeof(constants), constants};
};

// Empty when the coopmat2 kernel's matrices can run on `device`, else why not: S = Q K^T is
// 16 x block x head, O += P V 16 x head x block.
std::string coopmat2_attention_unavailable(const BenchDevice& device, const AttentionShape& shape);

}  // namespace vkpolyfill::bench
