"""llama.cpp's (ggml's) Vulkan kernels, built as its build builds them, for the GPU proxies' compilers.

Their code is not part of this project: `build` takes a checkout of llama.cpp or ggml, compiles its
shader generator (vulkan-shaders-gen.cpp) with the glslc feature macros its CMake would find (each
feature test of theirs compiled with glslc), and has the generator compile the sources the kernels
below come from, with its own defines and glslc -O; variants no kernel here uses are skipped (a glslc
stand-in that writes them empty). `list GPU` prints, per kernel, its name and the arguments of
vkpolyfill_compile_kernels --spirv that create it as ggml-vulkan.cpp would on that GPU: the
specialization constants its host code sets there.
  python3 scripts/gpu/engine_kernels.py build SOURCE OUT
  python3 scripts/gpu/engine_kernels.py list GPU SPV_DIR"""
import glob
import os
import shutil
import subprocess
import sys

# The GPU proxies' classes as ggml-vulkan.cpp tells them apart: vendor and subgroup size.
GPUS = {"rx6800": "amd64", "rx7900xtx": "amd64", "rtx2080": "nvidia32", "rtx3080": "nvidia32", "gtx1080": "nvidia32"}
# Drivers without shaderFloat16: the f16 kernels below run there only through the layer, which emulates
# it (docs/float16.md); ggml itself would pick its fp32 variants, which this list does not build.
NO_FLOAT16 = {"gtx1080"}

F16 = 1  # GGML_TYPE_F16, FaTypeK/FaTypeV; ggml_type_size(F16) = 2 is FaBlockBytes
MASK = 2  # the Flags bit of a flash attention with a mask (get_fa_pipeline_state)


def fa_scalar(hs, gpu_class):
    """get_fa_spec_constants of get_fa_tuning_params_scalar at head size hs (K and V), f16 K/V, a batch of
    512 rows over 4096 keys (n_rows >= 64, n_kv >= 1024), assuming its shared-memory check passes."""
    amd = gpu_class == "amd64"
    sg = 64 if amd else 32
    row_split = 1 if hs <= (128 if amd else 64) else 4
    wg = sg * 2 if sg > 32 and hs < (128 if row_split == 1 else 64) else sg * 4
    block_rows = 8 if row_split == 1 else 16
    d_split = min(min(sg, 8), hs // 4)
    staging = 0 if amd else 1
    limit = ((26 if hs <= 64 else 30) * 1024 // 16) if amd else 0  # RDNA's occupancy limit
    return [wg, block_rows, 32, hs, hs, 0, d_split, row_split, sg, staging, MASK, limit, F16, F16, 2, 2]


def fa_cm2(hs, gpu_class):
    """get_fa_tuning_params_coopmat2 for the same batch: 64x64 blocks, 128 invocations."""
    sg = 64 if gpu_class == "amd64" else 32
    return [128, 64, 64, hs, hs, 0, 0, 0, sg, 0, MASK, 0, F16, F16, 2, 2]


def fa_cm1(hs, gpu_class):
    """get_fa_tuning_params_coopmat1 for the same batch: 16 query rows x 64 keys, one 16x16 tile of keys
    for each of 4 subgroups; K and V staged through shared memory on NVIDIA's drivers."""
    sg = 64 if gpu_class == "amd64" else 32
    staging = 0 if gpu_class == "amd64" else 1
    return [4 * sg, 16, 64, hs, hs, 0, min(sg, 8, hs // 4), 4, sg, staging, MASK, 0, F16, F16, 2, 2]


def mul_mm(gpu_class, tm, tn, tk):
    """m_warptile (64x64 of C, K steps of 16, 128 invocations) and ALIGNED 0 (ggml_vk_mul_mm_spec);
    tm/tn/tk are the coopmat shape on devices with cooperative matrices, 4/2/1 without."""
    sg = 64 if gpu_class == "amd64" else 32
    return [128, 64, 64, 16, sg, 32, 2, tm, tn, tk, sg, 0]


# (kernel, the generator's output, route, constants per GPU class, what it computes per workgroup)
KERNELS = [
    ("mul_mm_cm2.f16", "matmul_f16_cm2", ["layer"], lambda c: [128, 64, 64, 64, 0, 0],
     "f16 GEMM, coopmat2 (s_warptile): 64x64 of C, K steps of 64, 128 invocations"),
    ("mul_mm_cm2.q4_0", "matmul_q4_0_f16_cm2", ["layer"], lambda c: [256, 32, 64, 128, 0, 0],
     "q4_0 x f16 GEMM, coopmat2 (s_warptile_mmq): 32x64 of C, K steps of 128, 256 invocations"),
    ("mul_mm_cm1.f16", "matmul_f16_cm1", ["layer", "emulated"], lambda c: mul_mm(c, 16, 16, 16),
     "f16 GEMM, KHR coopmat 16x16x16 (m_warptile): 64x64 of C, K steps of 16, 128 invocations"),
    ("mul_mm.f16", "matmul_f16", ["driver"], lambda c: mul_mm(c, 4, 2, 1),
     "f16 GEMM, scalar (m_warptile): 64x64 of C, K steps of 16, 128 invocations"),
    ("flash_attn_cm2.h64", "flash_attn_f32_f16_cm2", ["layer"], lambda c: fa_cm2(64, c),
     "flash attention, coopmat2, head 64: 64 query rows x 64 keys per step, 128 invocations"),
    ("flash_attn_cm2.h128", "flash_attn_f32_f16_cm2", ["layer"], lambda c: fa_cm2(128, c),
     "flash attention, coopmat2, head 128: 64 query rows x 64 keys per step, 128 invocations"),
    ("flash_attn_cm1.h64", "flash_attn_f32_f16_cm1", ["layer"], lambda c: fa_cm1(64, c),
     "flash attention, KHR coopmat 16x16x16, head 64: 16 query rows x 64 keys per step, 4 subgroups"),
    ("flash_attn_cm1.h128", "flash_attn_f32_f16_cm1", ["layer"], lambda c: fa_cm1(128, c),
     "flash attention, KHR coopmat 16x16x16, head 128: 16 query rows x 64 keys per step, 4 subgroups"),
    ("flash_attn.h64", "flash_attn_f32_f16", ["driver"], lambda c: fa_scalar(64, c),
     "flash attention, scalar, head 64 (its own row blocks per GPU)"),
    ("flash_attn.h128", "flash_attn_f32_f16", ["driver"], lambda c: fa_scalar(128, c),
     "flash attention, scalar, head 128 (its own row blocks per GPU)"),
]

# The generator's feature macros and the feature test of each (ggml-vulkan's CMakeLists.txt).
FEATURES = [("GGML_VULKAN_COOPMAT_GLSLC_SUPPORT", "coopmat.comp"),
            ("GGML_VULKAN_COOPMAT2_GLSLC_SUPPORT", "coopmat2.comp"),
            ("GGML_VULKAN_COOPMAT2_DECODE_VECTOR_GLSLC_SUPPORT", "coopmat2_decode_vector.comp"),
            ("GGML_VULKAN_INTEGER_DOT_GLSLC_SUPPORT", "integer_dot.comp"),
            ("GGML_VULKAN_BFLOAT16_GLSLC_SUPPORT", "bfloat16.comp"),
            ("GGML_VULKAN_FLOAT_E2M1_GLSLC_SUPPORT", "float_e2m1.comp"),
            ("GGML_VULKAN_FLOAT_E4M3_GLSLC_SUPPORT", "float_e4m3.comp")]
SOURCES = ["mul_mm.comp", "mul_mm_cm2.comp", "flash_attn.comp", "flash_attn_cm1.comp", "flash_attn_cm2.comp"]
# Every source the generator makes a _cm1 or _cm2 variant of (the catalogue, engine_catalogue.py).
COOPMAT_SOURCES = ["mul_mm.comp", "mul_mm_cm2.comp", "flash_attn_cm1.comp", "flash_attn_cm2.comp",
                   "conv2d_mm.comp", "conv3d_mm.comp"]


def shaders_dir(source):
    for candidate in ("src/ggml-vulkan/vulkan-shaders", "ggml/src/ggml-vulkan/vulkan-shaders"):
        path = os.path.join(source, candidate)
        if os.path.isfile(os.path.join(path, "vulkan-shaders-gen.cpp")):
            return path
    sys.exit(f"engine_kernels: no src/ggml-vulkan/vulkan-shaders/vulkan-shaders-gen.cpp under {source}")


def build(source, out, wanted=None, sources=SOURCES):
    """Builds the variants named in `wanted` (default: those KERNELS uses); wanted "coopmat" builds every
    _cm1 and _cm2 variant of `sources`."""
    shaders = shaders_dir(source)
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    macros = []
    for macro, test in FEATURES:
        probe = subprocess.run(["glslc", "-fshader-stage=compute", "--target-env=vulkan1.3",
                                os.path.join(shaders, "feature-tests", test), "-o", os.path.join(work, "probe.spv")],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            macros.append(macro)
    print(f"[engine-kernels] the generator's glslc features: {' '.join(macros)}", file=sys.stderr)
    generator = os.path.join(work, "vulkan-shaders-gen")
    subprocess.run(["g++", "-std=c++17", "-O1", "-pthread", *[f"-D{m}" for m in macros],
                    os.path.join(shaders, "vulkan-shaders-gen.cpp"), "-o", generator], check=True)
    # The stand-in compiles the variants the kernels use with glslc and writes the others empty.
    stand_in = os.path.join(work, "glslc")
    coopmat = wanted == "coopmat"
    if wanted is None:
        wanted = " ".join(sorted({spv for _, spv, _, _, _ in KERNELS}))
    with open(stand_in, "w") as f:
        f.write("#!/bin/sh\n# the generator's glslc: only the variants engine_kernels.py uses\n"
                'for a; do [ "$prev" = -o ] && out=$a; prev=$a; done\n'
                + ('case "$(basename "$out" .spv)" in *_cm1|*_cm2) exec glslc "$@" ;; esac\n' if coopmat else
                   f'case " {wanted} " in *" $(basename "$out" .spv) "*) exec glslc "$@" ;; esac\n')
                + ': >"$out"\n')
    os.chmod(stand_in, 0o755)
    for source_file in sources:
        subprocess.run([generator, "--glslc", stand_in, "--source", os.path.join(shaders, source_file),
                        "--output-dir", out, "--target-hpp", os.path.join(work, "shaders.hpp"),
                        "--target-cpp", os.path.join(work, "shaders.cpp")], check=True)
    if not coopmat:
        missing = [spv for spv in wanted.split() if not os.path.getsize(os.path.join(out, spv + ".spv"))]
        if missing:
            sys.exit(f"engine_kernels: the generator made no {', '.join(missing)}")
    for empty in glob.glob(os.path.join(out, "*.spv")):
        if not os.path.getsize(empty):
            os.remove(empty)
    built = len(glob.glob(os.path.join(out, "*.spv"))) if coopmat else len(wanted.split())
    print(f"[engine-kernels] {built} kernels in {out}", file=sys.stderr)


def list_kernels(gpu, spv_dir):
    gpu_class = GPUS.get(gpu)
    if gpu_class is None:
        return  # ggml's constants are worked out for these GPU classes only
    for name, spv, routes, constants, what in KERNELS:
        spec = " ".join(f"--spec {i}={v}" for i, v in enumerate(constants(gpu_class)))
        for route in routes:
            if route == "driver" and gpu in NO_FLOAT16:
                continue
            label = name if len(routes) == 1 else f"{name}.{route}"
            print(f"{label}\t--spirv {os.path.join(spv_dir, spv + '.spv')} --route {route} {spec}\t{what}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "list":
        list_kernels(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
