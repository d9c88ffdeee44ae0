"""The catalogue check: every coopmat2 (_cm2) and coopmat1 (_cm1) SPIR-V module llama.cpp's (ggml's) Vulkan
shader generator builds, specialized as ggml-vulkan.cpp specializes it on three GPU classes, lowered by
vkpolyfill-lower --validate. Their code stays outside this project: `build` takes a checkout of ggml or
llama.cpp (engine_kernels.build with every _cm1/_cm2 variant of the sources that have one).

  python3 scripts/gpu/engine_catalogue.py build SOURCE SPV_DIR
  python3 scripts/gpu/engine_catalogue.py list SPV_DIR [CLASS]          the specializations, one a line
  python3 scripts/gpu/engine_catalogue.py run SPV_DIR LOWER OUT [--jobs N] [--only REGEX] [--classes a,b]
  python3 scripts/gpu/engine_catalogue.py table OUT [--source-date DATE]  markdown from OUT/results.jsonl

The GPU classes are what ggml-vulkan.cpp tells apart when it picks constants: vendor, architecture, subgroup
size and shared memory. Each runs with the layer's target for such a device (every extension emulated):
  lavapipe  Mesa's CPU driver: subgroup 8, 32 KiB (--target lavapipe)
  nvidia32  an NVIDIA Ampere GPU: subgroup 32, 48 KiB, subgroup shuffles, the GPUs' matrix layout
  amd64     an AMD RDNA3 GPU under RADV: subgroup 64, 64 KiB, subgroup shuffles, the GPUs' matrix layout
  pascal32  an NVIDIA Pascal GPU under NVK (GTX 1080): nvidia32 without shaderFloat16, whose f16
            arithmetic the layer emulates in f32 (--emulate all,Float16 --shader-int16)
The constants follow ggml-vulkan.cpp of the source's date (ggml_vk_load_shaders' warptiles and
CREATE_MM macros, get_fa_tuning_params_coopmat1/2 and get_fa_spec_constants, the conv2d/conv3d block
shapes); a module ggml builds but never loads on such a device is still specialized like its family and
marked `unused` in the table."""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_kernels  # noqa: E402

CLASSES = {
    "lavapipe": {"sg": 8, "vendor": "mesa", "shmem": 32768, "args": ["--target", "lavapipe"],
                 "what": "lavapipe-like: subgroup 8, 32 KiB shared memory"},
    "nvidia32": {"sg": 32, "vendor": "nvidia", "shmem": 49152,
                 "args": ["--target", "vulkan1.3", "--subgroup-size", "32", "--shared-memory", "49152",
                          "--subgroup-shuffles", "yes", "--matrix-layout", "distributed"],
                 "what": "NVIDIA Ampere-like: subgroup 32, 48 KiB shared memory"},
    "amd64": {"sg": 64, "vendor": "amd", "shmem": 65536,
              "args": ["--target", "vulkan1.3", "--subgroup-size", "64", "--shared-memory", "65536",
                       "--subgroup-shuffles", "yes", "--matrix-layout", "distributed"],
              "what": "AMD RDNA3-like (RADV): subgroup 64, 64 KiB shared memory"},
    "pascal32": {"sg": 32, "vendor": "nvidia", "shmem": 49152,
                 "args": ["--target", "vulkan1.3", "--subgroup-size", "32", "--shared-memory", "49152",
                          "--subgroup-shuffles", "yes", "--matrix-layout", "distributed", "--emulate", "all,Float16",
                          "--shader-int16"],
                 "what": "NVIDIA Pascal-like (NVK): subgroup 32, 48 KiB shared memory, f16 arithmetic emulated"},
}

# ggml_type values and ggml_type_size of the types flash attention takes as K and V.
GGML_TYPE = {"f32": 0, "f16": 1, "q4_0": 2, "q4_1": 3, "q5_0": 6, "q5_1": 7, "q8_0": 8, "q2_k": 10, "q3_k": 11,
             "q4_k": 12, "q5_k": 13, "q6_k": 14, "iq2_xxs": 16, "iq2_xs": 17, "iq3_xxs": 18, "iq1_s": 19,
             "iq4_nl": 20, "iq3_s": 21, "iq2_s": 22, "iq4_xs": 23, "iq1_m": 29, "bf16": 30, "tq2_0": 35,
             "mxfp4": 39}
FA_BLOCK_BYTES = {"f32": 16, "f16": 2, "bf16": 2, "q4_0": 18, "q4_1": 20, "q5_0": 22, "q5_1": 24, "q8_0": 34,
                  "iq4_nl": 18}
FA_KV_TYPES = ["f16", "f32", "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "iq4_nl"]
FA_HEADS = [(64, 64), (80, 80), (96, 96), (112, 112), (128, 128), (192, 128), (256, 256), (576, 512)]
FA_MASK = 2  # the Flags bit of a flash attention with a mask (get_fa_pipeline_state)
K_QUANTS = {"q2_k", "q3_k", "q4_k", "q5_k", "q6_k", "tq2_0"}
NON_QUANT = {"f32", "f16", "bf16"}
# ggml_vk_matmul_shmem_support's lookup tables per A type, in bytes.
LUT_BYTES = {"iq1_s": 4096, "iq1_m": 4096, "iq2_xxs": 2048, "iq2_xs": 4096, "iq2_s": 8192, "iq3_xxs": 1024,
             "iq3_s": 2048, "iq4_nl": 64, "iq4_xs": 64, "mxfp4": 64, "nvfp4": 64 + 512}


def spec(values):
    return [f"{i}={v}" for i, v in enumerate(values)]


# ---- matrix multiplication (mul_mm_cm2.comp, mul_mm.comp with COOPMAT) ----

MATMUL = re.compile(r"^matmul_(?P<id>id_subgroup_)?(?P<a>[a-z0-9_]+?)(?:_(?P<b>f16|f32))?(?P<ocp>_ocp)?"
                    r"(?P<acc>_f16acc)?_(?P<cm>cm1|cm2)$")


def parse_matmul(name):
    m = MATMUL.match(name)
    if not m:
        return None
    a, b = m["a"], m["b"]
    if a in ("f16", "bf16") and b is None:
        b = a  # matmul_f16: f16 A and B
    return {"id": bool(m["id"]), "a": a, "b": b, "ocp": bool(m["ocp"]), "f16acc": bool(m["acc"]), "cm": m["cm"]}


def cm2_matmul(v, gpu):
    """ggml_vk_load_shaders with device->coopmat2 (and coopmat2_decode_vector): CREATE_MM's six pipelines."""
    sg = gpu["sg"]
    a = v["a"]
    if v["id"] and a not in NON_QUANT:
        tiles = {"l": [256, 128, 128, 64, 1, sg], "m": [256, 128, 64, 64, 0, sg], "s": [256, 128, 64, 64, 0, sg]}
    elif a in NON_QUANT:
        tiles = {"l": [256, 128, 256, 64, 1], "m": [256, 128, 128, 64, 0], "s": [128, 64, 64, 64, 0]}
    else:  # warptile_mmq and warptile_mmq_k hold the same values
        tiles = {"l": [256, 128, 256, 64, 1], "m": [256, 128, 128, 64, 1], "s": [256, 32, 64, 128, 0]}
    # Loaded: f16 and bf16 (f32 accumulators only) matmul and matmul_id, and every quant with an f16 B;
    # the OCP FP4 forms where the device has float e2m1/e4m3 (device->ocp_fp4).
    used = (a in ("f16",) and v["b"] == "f16") or (a == "bf16" and not v["f16acc"]) or \
           (a not in NON_QUANT and v["b"] == "f16")
    out = []
    for tile, warptile in tiles.items():
        for aligned in (0, 1):
            s = list(warptile)
            if v["id"] and len(s) > 5:
                s.insert(5, aligned)
            else:
                s.append(aligned)
            if v["id"] and len(s) == 6:
                s.append(32)
            out.append((f"{tile}{'_aligned' if aligned else ''}", s, used, ""))
    return out


def matmul_shmem_support(gpu, warptile, mul_mat_id, a):
    """ggml_vk_matmul_shmem_support on a device with coopmat_support and fp16."""
    warps = warptile[0] // warptile[10]
    load_bufs = (warptile[1] + warptile[2]) * (warptile[3] + 8) * 2
    mmid_row_ids = warptile[2] * 2 * 2 if mul_mat_id else 0
    coopmat_stage = warptile[7] * warptile[8] // warps * 4
    ballots = warps * 4 * 4 if mul_mat_id else 0
    return load_bufs + mmid_row_ids + coopmat_stage + LUT_BYTES.get(a, 0) + ballots <= gpu["shmem"]


def cm1_warptiles(gpu):
    sg = gpu["sg"]
    sg8, sg32 = max(sg, 8), max(sg, 32)
    wm = 8 if sg == 8 else 32
    t = 16  # the layer's 16x16x16 f16 configurations (ggml takes the first f16 one it finds)
    w = {"l": [128, 128, 128, 16, sg8 * 2, 64, 2, t, t, t, sg8],
         "m": [128, 64, 64, 16, sg8, 32, 2, t, t, t, sg8],
         "s": [sg32, 32, 32, 16, wm, 32, 2, t, t, t, sg8]}
    mmq = {k: v[:3] + [32] + v[4:] for k, v in w.items()}
    mmqid = dict(mmq)  # mul_mat_subgroup_size is the subgroup size off Intel
    if gpu["vendor"] == "amd":  # RADV with coopmat_support (not GCN): the large tiles
        w["l"] = [256, 128, 128, 16, sg8, 64, 2, t, t, t, sg8]
        mmq["l"] = [256, 128, 128, 32, sg8, 64, 2, t, t, t, sg8]
    return w, mmq, mmqid


def cm1_matmul(v, gpu):
    """ggml_vk_load_shaders with device->coopmat_support and not coopmat2: CREATE_MM's six pipelines,
    those whose tile fits the shared memory (mul_mat_{l,m,s}, mul_mat_id_{l,m,s})."""
    w, mmq, mmqid = cm1_warptiles(gpu)
    a = v["a"]
    warptile = w if a in NON_QUANT else mmq
    check = mmqid if v["id"] else mmq
    # Loaded: f32 and f16 A with f32 or f16 B, bf16; quants with an f32 B only.
    used = (a in ("f32", "f16") and v["b"] in ("f32", "f16")) or (a == "bf16" and not v["f16acc"]) or \
           (a not in NON_QUANT and v["b"] == "f32")
    if a == "f32" and v["f16acc"]:
        used = False  # CREATE_MM (one accumulator) for matmul_f32_f32 and matmul_f32_f16
    if v["id"] and a == "f32" and v["b"] == "f16":
        used = False  # matmul_id has no f32 x f16 pipeline
    out = []
    for tile in ("l", "m", "s"):
        fits = matmul_shmem_support(gpu, check[tile], v["id"], a) and \
            (tile == "s" or matmul_shmem_support(gpu, check["s"], v["id"], a))
        if tile == "l":
            fits = fits and matmul_shmem_support(gpu, check["m"], v["id"], a)
        for aligned in (0, 1):
            note = "" if fits else "ggml leaves this tile out: its shared memory exceeds the device's"
            out.append((f"{tile}{'_aligned' if aligned else ''}", warptile[tile] + [aligned], used and fits, note))
    return out


# ---- flash attention (flash_attn_cm2.comp, flash_attn_cm1.comp) ----

def fa_constants(wg, br, bc, hsk, hsv, clamp, d_split, row_split, sg, staging, k, v):
    return [wg, br, bc, hsk, hsv, clamp, d_split, row_split, sg, staging, FA_MASK, 0,
            GGML_TYPE[k], GGML_TYPE[v], FA_BLOCK_BYTES[k], FA_BLOCK_BYTES[v]]


def fa_cases(name):
    """(K type, V type, f32acc) the module serves."""
    if "_bf16_" in name:
        return [("bf16", "bf16", True)]
    f32acc = "_f16acc" not in name
    cases = [(t, t, f32acc) for t in FA_KV_TYPES]
    cases.append(("q8_0", "f16", f32acc))  # K and V of different types
    return cases


def cm2_fa(name, gpu):
    """get_fa_tuning_params_coopmat2 for a batch of 512 rows and of 8 rows (small_rows), aligned
    (Clamp 0) and not, at each head size."""
    out = []
    for k, v, _ in fa_cases(name):
        quant = k not in NON_QUANT or v not in NON_QUANT
        for hsk, hsv in FA_HEADS:
            for rows in (512, 8):
                small = rows < 32
                if small:
                    br, bc = 32, 32
                elif quant or hsk >= 256 or hsv >= 256:
                    br, bc = (32 if hsk >= 512 or hsv >= 512 else 64), 32
                else:
                    br, bc = 64, 64
                wg = 256 if small and (hsk | hsv) % 32 == 0 else 128
                for clamp in (0, 1) if (k, v) == ("f16", "f16") else (1,):
                    label = f"{k}/{v} hs{hsk}" + (f"/{hsv}" if hsv != hsk else "") + \
                        f" rows{rows}{'' if clamp else ' aligned'}"
                    out.append((label, fa_constants(wg, br, bc, hsk, hsv, clamp, 0, 0, gpu["sg"], 0, k, v), True, ""))
    return out


def fa_cm1_shmem_support(gpu, br, bc, hsk, hsv, f32acc, staging, row_split, k):
    """ggml_vk_flash_attn_coopmat_shmem_support."""
    def pad16(x):
        return (x + 15) // 16 * 16
    acctype = 4 if f32acc else 2
    tmpsh = (bc // 16) * 4
    iq = 16 * 2
    qf = br * (pad16(hsk) // 4 + 2) * 8
    psh = bc * (br // 4 + 2) * 8
    sfsh = bc * ((br + 8) if hsk <= 128 else br) * acctype
    kvstride = (max(pad16(hsk), pad16(hsv)) if staging else 16) // 4 + 2
    vsh_stride = 16 // 4 * (bc // 16)
    ksh = (bc * kvstride if kvstride >= vsh_stride else bc * vsh_stride) * 8
    pvsh = 16 * (row_split * 16 // 4) * (16 if k == "bf16" else 8)
    return tmpsh + iq + qf + psh + sfsh + ksh + pvsh + br * acctype <= gpu["shmem"]


def cm1_fa(name, gpu):
    """get_fa_tuning_params_coopmat1 (any batch of more than one row), aligned and not."""
    sg = gpu["sg"]
    out = []
    for k, v, f32acc in fa_cases(name):
        for hsk, hsv in FA_HEADS:
            d = hsk | hsv
            d_lsb = d & -d
            d_split = min(min(sg, 8), d_lsb // 4)
            staging = 1 if gpu["vendor"] == "nvidia" and hsk < 256 and hsv < 256 else 0
            br, bc, row_split, wg = 16, 64, 4, 4 * sg
            used = fa_cm1_shmem_support(gpu, br, bc, hsk, hsv, f32acc, staging, row_split, k)
            note = "" if used else "ggml takes its scalar path here: the shared memory exceeds the device's"
            for clamp in (0, 1) if (k, v) == ("f16", "f16") else (1,):
                label = f"{k}/{v} hs{hsk}" + (f"/{hsv}" if hsv != hsk else "") + ("" if clamp else " aligned")
                out.append((label, fa_constants(wg, br, bc, hsk, hsv, clamp, d_split, row_split, sg, staging, k, v),
                            used, note))
    return out


# ---- convolutions (conv2d_mm.comp, conv3d_mm.comp with COOPMAT2 or COOPMAT) ----

CONV_SHAPES = {"128x128": (128, 128, 16), "64x32": (64, 32, 32), "32x256": (32, 256, 16), "64x128": (64, 128, 16)}


def conv(name, gpu):
    """ggml_vk_load_shaders' conv2d/conv3d loop per block shape, for a 3x3(x3) kernel of stride, padding
    and dilation 1, not aligned."""
    sg, vendor = gpu["sg"], gpu["vendor"]
    cm2 = name.endswith("_cm2")
    out = []
    for shape, (bk, bnpq, bcrs) in CONV_SHAPES.items():
        wg = 128 if shape == "64x32" else 256
        ts_k = 4 if shape == "64x32" else 8
        pad = 8 if cm2 else 4
        if vendor == "amd":
            pad = 4
        collectives = 1 if vendor not in ("nvidia", "amd") else 0  # Ampere and RDNA3 leave them off
        crs = min(sg, bcrs) if collectives else bcrs
        use_cm1 = not cm2 and sg in (32, 64) and shape != "128x128"

        def shmem(p, csh, fp16):
            return (bk * (crs + p) + crs * (bnpq + p) + (bk * bnpq if csh else 0)) * (2 if fp16 else 4)
        if use_cm1 and gpu["shmem"] < shmem(8, True, True):
            use_cm1 = False
        wm, wn = 16, 16
        if use_cm1:
            pad = 8
            sg64 = sg == 64
            wm, wn = {"64x32": (32 if sg64 else 16, 16), "64x128": (32, 64 if sg64 else 32),
                      "32x256": (16 if sg64 else 32, 128 if sg64 else 32)}[shape]
            wg = (bk // wm) * (bnpq // wn) * sg
        csh_store = 1 if (cm2 and shape != "128x128") or use_cm1 else 0
        if gpu["shmem"] < shmem(pad, csh_store, True):
            crs = min(sg, 8) if collectives else 8
            csh_store = 0
        used = cm2 or use_cm1
        note = "" if used else ("ggml's coopmat1 convolution needs subgroups of 32 or 64" if sg not in (32, 64)
                                else "ggml takes no coopmat1 convolution at 128x128")
        if "conv3d" in name:
            values = [wg, bk, crs, bnpq, ts_k, pad] + [1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 0, csh_store, wm, wn]
        else:
            values = [wg, bk, crs, bnpq, ts_k, collectives, pad] + [1, 1, 1, 1, 1, 1, 3, 3, 0, csh_store, wm, wn]
        out.append((shape, values, used, note))
    return out


def specializations(name, gpu):
    """(label, constants, ggml loads it on such a device, note) of module `name`."""
    if name.startswith("matmul_"):
        v = parse_matmul(name)
        return cm2_matmul(v, gpu) if v["cm"] == "cm2" else cm1_matmul(v, gpu)
    if name.startswith("flash_attn_"):
        return cm2_fa(name, gpu) if name.endswith("_cm2") else cm1_fa(name, gpu)
    if name.startswith("conv"):
        return conv(name, gpu)
    raise SystemExit(f"engine_catalogue: no constants for {name}")


def family(name):
    if name.startswith("matmul_id"):
        return "matmul_id"
    if name.startswith("matmul"):
        return "matmul"
    if name.startswith("flash_attn"):
        return "flash_attn"
    return "conv"


def modules(spv_dir):
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(spv_dir, "*_cm[12].spv")))


def jobs(spv_dir, classes):
    for name in modules(spv_dir):
        for cls in classes:
            for label, values, used, note in specializations(name, CLASSES[cls]):
                yield {"module": name, "class": cls, "label": label, "spec": values, "used": used, "note": note}


# ---- running ----

def classify(returncode, stderr):
    if returncode == 0:
        return "lowered", ""
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    message = next((l for l in lines if "error:" in l), lines[-1] if lines else "")
    if returncode == 124:
        return "timeout", message
    if returncode < 0 or returncode > 128:
        return "crashed", f"signal {-returncode if returncode < 0 else returncode - 128}: {message}"
    if "the lowered module is invalid" in stderr:
        return "invalid", message
    return "refused", message


def limit_memory():
    os.nice(19)
    cap = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run_one(job, spv_dir, lower, out_dir, timeout):
    args = [lower, *CLASSES[job["class"]]["args"]]
    for item in spec(job["spec"]):
        args += ["--spec-const", item]
    lowered = os.path.join(out_dir, "lowered.tmp", f"{threading.get_ident()}-{job['module']}.spv")
    args += ["--validate", "-o", lowered, os.path.join(spv_dir, job["module"] + ".spv")]
    start = time.monotonic()
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, preexec_fn=limit_memory)
        returncode, stderr = p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        returncode, stderr = 124, (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    seconds = time.monotonic() - start
    size = os.path.getsize(lowered) if returncode == 0 and os.path.exists(lowered) else 0
    if os.path.exists(lowered):
        os.remove(lowered)  # only this thread writes it
    outcome, message = classify(returncode, stderr)
    return dict(job, outcome=outcome, message=message[:2000], seconds=round(seconds, 3), words=size // 4)


def run(spv_dir, lower, out_dir, jobs_n, only, classes, timeout):
    os.makedirs(os.path.join(out_dir, "lowered.tmp"), exist_ok=True)
    todo = [j for j in jobs(spv_dir, classes) if not only or re.search(only, j["module"])]
    print(f"[catalogue] {len(modules(spv_dir))} modules, {len(todo)} specializations over "
          f"{', '.join(classes)}, {jobs_n} at a time", file=sys.stderr)
    start = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(jobs_n) as pool, \
            open(os.path.join(out_dir, "results.jsonl"), "w") as f:
        for i, r in enumerate(pool.map(lambda j: run_one(j, spv_dir, lower, out_dir, timeout), todo)):
            results.append(r)
            f.write(json.dumps(r) + "\n")
            if r["outcome"] != "lowered":
                print(f"[catalogue] {r['class']} {r['module']} {r['label']}: {r['outcome']}: {r['message'][:300]}",
                      file=sys.stderr)
            if (i + 1) % 200 == 0:
                print(f"[catalogue] {i + 1}/{len(todo)} ({time.monotonic() - start:.0f} s)", file=sys.stderr)
    elapsed = time.monotonic() - start
    with open(os.path.join(out_dir, "run.json"), "w") as f:
        json.dump({"seconds": round(elapsed), "jobs": jobs_n, "specializations": len(todo)}, f)
    counts = {}
    for r in results:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print(f"[catalogue] {len(results)} specializations in {elapsed:.0f} s: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())), file=sys.stderr)
    return 0 if counts.get("lowered", 0) == len(results) else 1


# ---- the table ----

OUTCOMES = ["lowered", "refused", "invalid", "crashed", "timeout"]


def table(out_dir, source_date):
    results = [json.loads(l) for l in open(os.path.join(out_dir, "results.jsonl"))]
    run_info = json.load(open(os.path.join(out_dir, "run.json"))) if os.path.exists(os.path.join(out_dir, "run.json")) else {}
    classes = [c for c in CLASSES if any(r["class"] == c for r in results)]
    lines = []
    n_modules = len({r["module"] for r in results})
    n_cm2 = len({r["module"] for r in results if r["module"].endswith("_cm2")})
    lines.append(f"{n_modules} modules ({n_cm2} coopmat2, {n_modules - n_cm2} coopmat1), "
                 f"{len(results)} specializations; ggml source of {source_date}; "
                 f"{run_info.get('seconds', '?')} s with {run_info.get('jobs', '?')} at a time.\n")

    def totals(rows, title):
        out = [f"| {title} | " + " | ".join(f"{c}: " + " / ".join(OUTCOMES[:3]) + " / crashed" for c in classes) + " |",
               "| --- | " + " | ".join("---" for _ in classes) + " |"]
        groups = {}
        for r in rows:
            groups.setdefault(r["group"], []).append(r)
        for g in sorted(groups):
            cells = []
            for c in classes:
                rs = [r for r in groups[g] if r["class"] == c]
                n = {o: sum(1 for r in rs if r["outcome"] == o) for o in OUTCOMES}
                cells.append(f"{n['lowered']} / {n['refused']} / {n['invalid']} / {n['crashed'] + n['timeout']}")
            out.append(f"| {g} | " + " | ".join(cells) + " |")
        return out

    for r in results:
        r["group"] = f"{family(r['module'])} {r['module'][-3:]}"
    lines.append("Lowered and valid / refused by the lowering / lowered but invalid (spirv-val) / crashed or "
                 "timed out, per kernel family and GPU class; every specialization:\n")
    lines += totals(results, "family")
    everything = [dict(r, group="**all**") for r in results]
    lines += totals(everything, "family")[2:]
    used = [dict(r, group=r["group"] + " (loaded by ggml)") for r in results if r["used"]]
    lines.append("\nThe specializations ggml-vulkan.cpp creates on such a device (the others are modules it builds "
                 "but does not load there, or tiles it leaves out for lack of shared memory):\n")
    lines += totals(used, "family")
    lines += totals([dict(r, group="**all loaded**") for r in used], "family")[2:]

    failures = [r for r in results if r["outcome"] != "lowered"]
    lines.append(f"\n### Every specialization that did not lower ({len(failures)})\n")
    if failures:
        by_cause = {}
        for r in failures:
            cause = re.sub(r"^\S+\.spv: ", "", r["message"])
            cause = re.sub(r"%\d+", "%N", re.sub(r"at word \d+", "at word N", cause))[:400]
            by_cause.setdefault((r["outcome"], cause), []).append(r)
        for (outcome, cause), rs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"- **{outcome}**, {len(rs)} specializations: `{cause}`")
            mods = sorted({(r["module"], r["class"]) for r in rs})
            shown = ", ".join(f"`{m}` ({c})" for m, c in mods[:8])
            lines.append(f"  - {len({m for m, _ in mods})} modules, e.g. {shown}" + (" ..." if len(mods) > 8 else ""))
    else:
        lines.append("None.")

    lines.append("\n### Per module\n")
    lines.append("Lowered / specializations per GPU class; time is the slowest lowering of the module.\n")
    lines.append("| module | " + " | ".join(classes) + " | slowest |")
    lines.append("| --- | " + " | ".join("---" for _ in classes) + " | --- |")
    by_module = {}
    for r in results:
        by_module.setdefault(r["module"], []).append(r)
    for m in sorted(by_module):
        rs = by_module[m]
        cells = []
        for c in classes:
            rc = [r for r in rs if r["class"] == c]
            ok = sum(1 for r in rc if r["outcome"] == "lowered")
            cells.append(f"{ok}/{len(rc)}" + ("" if ok == len(rc) else " **!**"))
        unused = "" if any(r["used"] for r in rs) else " (unused)"
        lines.append(f"| `{m}`{unused} | " + " | ".join(cells) + f" | {max(r['seconds'] for r in rs):.2f} s |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "catalogue.md"), "w") as f:
        f.write(text)
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("source")
    b.add_argument("spv_dir")
    li = sub.add_parser("list")
    li.add_argument("spv_dir")
    li.add_argument("classes", nargs="?", default=",".join(CLASSES))
    r = sub.add_parser("run")
    r.add_argument("spv_dir")
    r.add_argument("lower")
    r.add_argument("out")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    r.add_argument("--only", default="")
    r.add_argument("--classes", default=",".join(CLASSES))
    r.add_argument("--timeout", type=int, default=600)
    t = sub.add_parser("table")
    t.add_argument("out")
    t.add_argument("--source-date", default="unknown")
    a = parser.parse_args()
    if a.command == "build":
        engine_kernels.build(a.source, a.spv_dir, "coopmat", engine_kernels.COOPMAT_SOURCES)
    elif a.command == "list":
        for j in jobs(a.spv_dir, a.classes.split(",")):
            print(f"{j['class']}\t{j['module']}\t{j['label']}\t{'used' if j['used'] else 'unused'}\t"
                  + " ".join(f"--spec-const {s}" for s in spec(j["spec"])))
    elif a.command == "run":
        sys.exit(run(a.spv_dir, a.lower, a.out, a.jobs, a.only, a.classes.split(","), a.timeout))
    else:
        table(a.out, a.source_date)


if __name__ == "__main__":
    main()
