"""The benchmarks' JSON files as one list of figures: (capability, driver, group, series, unit,
statistics). vkpolyfill_bench's GEMM JSON is read here; the other benchmarks write the common
schema (tests/bench/figures.h) with --json."""
import json

GEMM_METRIC = "process_cpu_ms"  # what the GEMM tables in docs/cooperative_matrix*.md report


def _stats(measured):
    if not measured or not measured.get("available"):
        return None
    s = measured.get(GEMM_METRIC) or measured.get("wall_ms")
    return {k: s[k] for k in ("count", "median", "min", "max", "q1", "q3")}


def gemm_figures(data):
    driver = data.get("driver", "?")
    for entry in data.get("gemm", []):
        size = entry["size"].split("x")[0] + "³"
        scalar = _stats(entry.get("scalar"))
        for kernel in entry.get("coopmat", []):
            capability = "VK_NV_cooperative_matrix2" if kernel["variant"].startswith("coopmat2") else "VK_KHR_cooperative_matrix"
            group = f"{size} {kernel['variant']}"
            for series, stats in (("emulated", _stats(kernel.get("emulated"))), ("native", _stats(kernel.get("native"))),
                                  ("scalar", scalar)):
                if stats:
                    yield {"capability": capability, "driver": driver, "group": group, "series": series,
                           "unit": "process CPU ms per dispatch", **stats}


def load(paths):
    figures = []
    for path in paths:
        data = json.load(open(path))
        if "gemm" in data:
            figures += list(gemm_figures(data))
        elif "figures" in data:
            figures += [{"capability": data["capability"], "driver": data.get("driver", "?"), **f} for f in data["figures"]]
    return figures
