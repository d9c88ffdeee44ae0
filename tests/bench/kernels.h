// The GEMM shaders and their specialization constants. Constant 0 is the workgroup size and
// constant 1 the subgroup size, both derived; the named parameters are constants 2, 3, ... in
// order, and can be overridden from the command line ("rm=8,rn=2").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vkpolyfill::bench {

// Coopmat: subgroup-scope matrices (gemm_coopmat.comp), of a VK_KHR_cooperative_matrix shape, or,
// when `flexible`, of a shape only VK_NV_cooperative_matrix2's flexible dimensions allow.
// Coopmat2: workgroup-scope matrices (gemm_coopmat2.comp, VK_NV_cooperative_matrix2).
enum class Kernel { Scalar, Coopmat, Coopmat2 };

struct KernelConfig {
    Kernel kernel;
    std::vector<std::pair<std::string, uint32_t>> parameters;
    bool flexible = false;

    uint32_t get(std::string_view name) const;
    std::string describe() const;  // "rm=8 rn=2 ..."
    std::string label() const;     // what the variant is, for people: "coopmat, A/B via shared memory"
    // Sets parameters from "name=value,name=value"; throws std::invalid_argument naming a bad one.
    void override_with(std::string_view assignments);
};

// Tuned on lavapipe 26 (the native driver); see the shaders.
KernelConfig default_config(Kernel kernel);
// gemm_coopmat.comp's configuration for the matrix shape tm x tn x tk: the tiling of the default
// (tuned for 8x8x8) unless that shape has its own (see kernels.cpp).
KernelConfig coopmat_config(uint32_t tm, uint32_t tn, uint32_t tk);
// The subgroup-scope flexible-dimension variant of the coopmat kernel, loading from the buffers.
KernelConfig flexible_coopmat_config();
// The configuration for an M x N GEMM. Engines pick their tile by the matrix's size (llama.cpp's
// large, medium and small mul_mm tiles), so the workgroup kernel's BM and BN are at most M and N;
// the other kernels are returned as they are.
KernelConfig fitted(KernelConfig config, uint32_t m, uint32_t n);
// The scalar kernel's tunings for `driver` (native | plain | system). Its best tiling depends on the
// driver and on the CPU (gemm_scalar.comp has the sweeps), so the benchmark measures every tuning and
// takes the fastest at each size as its baseline: the first is the driver's tuning on an AMD Zen 5.
std::vector<KernelConfig> scalar_tunings(std::string_view driver);
// The workgroup kernel there: its A and B are striped and staged through shared memory (per-invocation
// uniform loads, Target::scalar_uniform_loads), so the widest tile amortizes the staging best. Process
// CPU ms at 1024^3 / 2048^3 (2026-11-23, load 5): 256x256x16 / 128 invocations 187-200 / 1394,
// 256x256x16 / 256 228-243 / 1688, 256x128x16 / 128 218-244 / 1753, 128x128x16 / 256 (lavapipe 26's
// old default) 381-385 / 3137; the scalar shader 249-265 / 2579. 512x64 and 512x128 needed more shared
// memory than the lowering reserved then (18-20 kB of 16); it stages K in chunks since. Swept again on
// an Intel Xeon (2026-11-29, two processes, (a)/(c) in CPU time at 1024^3, then 1024^3 / 2048^3):
// 512x128x16 / 128 1.26, 1.21 / 1.24; 512x128x16 / 256 1.22 / 1.22; 256x128x16 / 128 1.05, 1.10 /
// 1.07; 256x256x16 / 256 1.07; 512x64x16 / 128 0.93 / 0.91; 1024x64x16 / 256 0.91 / 0.93; 128x128x16
// / 128 0.87; 256x256x16 / 128 (the previous default) 0.84, 0.99 / 0.81 (tests/bench/README.md).
inline constexpr char kCoopmat2OnLavapipe25[] = "invocations=128,bm=512,bn=128";
// A GPU tile for the workgroup kernel: the shape of llama.cpp's medium coopmat2 tile, 128x128 of C over
// 256 invocations (64 accumulators an invocation). Lavapipe's tiles hold 256 and more an invocation,
// beyond the about 255 registers a GPU invocation has, natively as much as lowered.
inline constexpr char kCoopmat2OnGpus[] = "invocations=256,bm=128,bn=128";
// The flexible kernel there, 1024^3 (2026-11-23, load 5, one process): 32x32x16 in 1x4 tiles of 2x1
// subgroups 272 ms CPU, in 1x1 tiles of 2x2 494, 16x64x16 in 1x1 of 4x4 412, lavapipe 26's
// 32x64x16 in 2x1 of 2x2 841, 16x16 and 16x32 811-819, 2x2 tiles of 32x32 936 (scalar: 276). Each A,
// whose every element every invocation loads, serves four multiply-adds.
inline constexpr char kFlexibleOnLavapipe25[] = "tm=32,tn=32,wm=1,wn=4,sgm=2,sgn=1";
const char* shader_path(Kernel kernel);  // under shaders/

// What a configuration means for dispatch: workgroup size and the block of C one workgroup
// computes (the GEMM's M and N must be multiples of it, K a multiple of tile_k).
struct Geometry {
    uint32_t invocations = 0;
    uint32_t tile_m = 0, tile_n = 0, tile_k = 0;
};
Geometry geometry(const KernelConfig& config, uint32_t subgroup_size);

// Every specialization constant's value, constant 0 first.
std::vector<uint32_t> specialization(const KernelConfig& config, uint32_t subgroup_size);

}  // namespace vkpolyfill::bench
