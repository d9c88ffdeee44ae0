"""Tables of a scripts/gpu-sweep.sh run: the capability matrix (feature bits x devices) with the reasons
for what is unavailable; the compile-only statistics per GPU and kernel, of the benchmark kernels and of
llama.cpp's; and per GPU, the suite's modules: how many were created within the budgets, the heaviest,
and every failure. Writes capabilities.md, compile.md, engine.md and modules.md beside the JSON and
prints them.
  python3 scripts/gpu/report.py DIR"""
import glob
import json
import os
import sys

SHORT = {"native": "native", "emulated": "emulated", "unavailable": "-"}
EXTENSION_SHORT = {"VK_KHR_cooperative_matrix": "KHR coopmat", "VK_NV_cooperative_matrix2": "coopmat2",
                   "VK_NV_cooperative_matrix_decode_vector": "decode vector", "VK_ARM_tensors": "ARM tensors",
                   "VK_EXT_shader_tile_image": "tile image", "SPV_INTEL_long_composites": "long composites",
                   "VK_KHR_shader_float16_int8": "f16 arithmetic"}


def device_label(path):
    return os.path.basename(path)[:-5].split("-", 1)[1]


def load(path):
    with open(path) as f:
        return json.load(f)


def capabilities_table(directory):
    devices = [(device_label(p), load(p)) for p in sorted(glob.glob(os.path.join(directory, "capabilities", "*.json")))]
    rows, cells, reasons = [], {}, []
    for label, report in devices:
        if "failed" in report:
            reasons.append(f"- {label}: the matrix could not be read (exit {report['failed']}): "
                           f"{report['stderr'].strip().splitlines()[-1:] or ''}")
            continue
        seen = set()
        for r in report["rows"]:
            key = (r["extension"], r["feature"])
            if key not in rows:
                rows.append(key)
            cells[(key, label)] = SHORT[r["provision"]]
            if r["provision"] == "unavailable" and (r["extension"], r["reason"]) not in seen:
                seen.add((r["extension"], r["reason"]))
                reasons.append(f"- {label}, {EXTENSION_SHORT.get(r['extension'], r['extension'])}: {r['reason']}")
    labels = [label for label, _ in devices]
    lines = ["| capability | feature | " + " | ".join(labels) + " |",
             "| --- | --- | " + " | ".join("---" for _ in labels) + " |"]
    for key in rows:
        extension, feature = key
        lines.append(f"| {EXTENSION_SHORT.get(extension, extension)} | {feature} | " +
                     " | ".join(cells.get((key, label), "?") for label in labels) + " |")
    return "\n".join(lines) + ("\n\nUnavailable, and why:\n" + "\n".join(reasons) if reasons else "") + "\n"


def figure(value):
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def failure_text(r):
    return {124: "over the sweep's time limit", 134: "the process aborted (memory cap?)",
            139: "the process crashed (memory cap?)"}.get(r["failed"], f"exit {r['failed']}")


def compile_table(directory, part="compile"):
    lines = ["| GPU | kernel | route | registers | spilled | scratch B | shared B | occupancy | instructions | "
             "cycle estimate | CPU s | peak MiB | budgets not met |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for gpu_dir in sorted(glob.glob(os.path.join(directory, part, "*"))):
        gpu = os.path.basename(gpu_dir)
        for path in sorted(glob.glob(os.path.join(gpu_dir, "*.json"))):
            kernel = os.path.basename(path)[:-5]
            r = load(path)
            if "failed" in r:
                lines.append(f"| {gpu} | {kernel} | | | | | | | | | | | all: {failure_text(r)} |")
                continue
            if r["problem"].startswith("not applicable"):
                lines.append(f"| {gpu} | {kernel} | {r['route']} | {r['problem']} | | | | | | | | | |")
                continue
            unmet = ", ".join(b for b, met in r["verdicts"].items() if not met) or "none"
            if r["problem"]:
                unmet += f" ({r['problem'][:120]})"
            lines.append(f"| {gpu} | {kernel} | {r['route']} | " + " | ".join(figure(r[k]) for k in (
                "registers", "spilled", "scratch", "shared", "occupancy", "instructions", "cycles")) +
                f" | {r['cpu_seconds']:.2f} | {r['peak_mib']:.0f} | {unmet} |")
    notes = ("\nregisters: AMD VGPRs, NVIDIA GPRs per invocation; occupancy: AMD subgroups (waves) per SIMD, NVIDIA warps "
             "per SM; cycle estimate: ACO's \"Inverse Throughput\" (AMD) and NAK's \"Static cycle count\" (NVIDIA), "
             "each a static estimate of one pass through the shader with loops counted once, so they compare kernels "
             "of the same work per workgroup on one compiler, not across compilers; CPU s: the process's CPU time creating "
             "the pipeline (the time budget's measure); peak MiB: the compiling process's peak resident memory, the "
             "device's own included; spills and scratch on Adreno: not reported by ir3, so those budgets stay unmet there.\n")
    return "\n".join(lines) + "\n" + notes


def modules_table(directory):
    lines = ["| GPU | modules | not applicable | created | within 10 s | within 2 GiB | no spills | most registers | most spilled |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    failures, lacking = [], {}
    for gpu_dir in sorted(glob.glob(os.path.join(directory, "modules", "*"))):
        gpu = os.path.basename(gpu_dir)
        paths = sorted(glob.glob(os.path.join(gpu_dir, "*.json")))
        records = [load(p) for p in paths]
        inapplicable = [r for r in records if "failed" not in r and r["problem"].startswith("not applicable")]
        made = [r for r in records if "failed" not in r and not r["problem"]]
        for path, r in zip(paths, records):
            name = os.path.basename(path)[:-5].replace("+", "/")
            if r in inapplicable:
                lacking.setdefault((gpu, r["problem"]), []).append(name)
            elif "failed" in r or r["problem"]:
                failures.append(f"- {gpu}, {name}: " + (failure_text(r) if "failed" in r else r["problem"][:300]))
        met = lambda budget: sum(1 for r in made if r["verdicts"][budget])
        heaviest = lambda key: max(made, key=lambda r: r[key] or 0, default=None)
        most = lambda key: (f"{figure(heaviest(key)[key])} ({heaviest(key)['kernel']})" if made and heaviest(key)[key] else "")
        lines.append(f"| {gpu} | {len(records)} | {len(inapplicable)} | {len(made)} | {met('time')} | {met('memory')} | "
                     f"{met('spills')} | {most('registers')} | {most('spilled')} |")
    text = "\n".join(lines) + "\n\n"
    if lacking:
        text += "Not applicable (the module needs what the device, through the layer, does not offer):\n" + "\n".join(
            f"- {gpu}: {len(names)} modules, {problem[len('not applicable here: '):]}" for (gpu, problem), names in lacking.items()) + "\n\n"
    return text + ("Not created:\n" + "\n".join(failures) if failures else "Every applicable module was created.") + "\n"


def main():
    directory = sys.argv[1]
    outputs = [("capabilities.md", "## Capability matrix\n\n" + capabilities_table(directory))]
    if glob.glob(os.path.join(directory, "compile", "*", "*.json")):
        outputs.append(("compile.md", "## Compile-only statistics on the GPU proxies\n\n" + compile_table(directory)))
    if glob.glob(os.path.join(directory, "engine", "*", "*.json")):
        outputs.append(("engine.md", "## llama.cpp's kernels on the GPU proxies\n\n" + compile_table(directory, "engine")))
    if glob.glob(os.path.join(directory, "modules", "*", "*.json")):
        outputs.append(("modules.md", "## The suite's compute modules on the GPU proxies\n\n" + modules_table(directory)))
    for name, text in outputs:
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
        print(text)


if __name__ == "__main__":
    main()
