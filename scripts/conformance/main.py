"""scripts/conformance.sh: the project's suites as a CTS-style conformance run (see docs/testing.md,
"Conformance runs"). Runs inside scripts/env.sh; ctest runs the tests."""
import argparse
import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict

import ctest_run
import report
from coverage import account, advertised, coverage_text, gaps
from outcomes import classify
from progress import Progress
from registry import GRAMMAR, VulkanRegistry
from spirv_scan import Grammar

QUICK_PER_GROUP = 4  # cases per extension, group, driver and mode in --quick runs


def parse_args():
    p = argparse.ArgumentParser(prog="scripts/conformance.sh", description=__doc__,
                                epilog="Other arguments (-R REGEX, -E REGEX, ...) go to ctest.")
    p.add_argument("--case", action="append", default=[], metavar="GLOB",
                   help="only cases whose CTS-style name matches (repeatable), e.g. 'cooperative_matrix.*.mul_add.*'")
    p.add_argument("--quick", action="store_true", help=f"at most {QUICK_PER_GROUP} cases per group, driver and mode")
    p.add_argument("--spread", action="append", default=[], metavar="LABEL",
                   help="--quick (per GoogleTest suite too) for the tests with this ctest label only (repeatable), "
                        "e.g. subgroup-widths")
    p.add_argument("--spread-case", action="append", default=[], metavar="GLOB",
                   help="--quick as --spread does, for the cases whose CTS-style name matches (repeatable)")
    p.add_argument("--dump-spirv", metavar="DIR", help="original and lowered SPIR-V of failing cases, disassembled")
    p.add_argument("--results", metavar="DIR", help="where results go (default <build>/conformance/<time>)")
    p.add_argument("--icd", action="append", default=[], metavar="NAME=JSON", help="another driver to run on")
    p.add_argument("--fail-on-gaps", action="store_true", help="fail when an advertised feature has no passing case")
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    return p.parse_known_args()


def quick_sample(tests, by_suite=False):
    """At most QUICK_PER_GROUP cases per extension, group, driver and mode (and GoogleTest suite, with
    `by_suite`: a tier such as validation.* is one group per extension), spread over each: one from the
    middle of each of QUICK_PER_GROUP equal slices, so a sample leans to neither end of the parameter
    lists (whose last entries are usually the largest shapes, the slowest to compile)."""
    groups = defaultdict(list)
    for t in tests:
        suite = t.gtest.partition(".")[0] if by_suite else ""
        groups[(t.name.extension, t.name.group, suite, t.driver, t.name.mode)].append(t)
    chosen = []
    for members in groups.values():
        if len(members) <= QUICK_PER_GROUP:
            chosen += members
        else:
            step = len(members) / QUICK_PER_GROUP
            chosen += [members[int((i + 0.5) * step)] for i in range(QUICK_PER_GROUP)]
    chosen = {id(t) for t in chosen}
    return [t for t in tests if id(t) in chosen]


def has_device(manifest):
    probe = subprocess.run(["vulkaninfo", "--summary"], env={**os.environ, "VK_DRIVER_FILES": manifest},
                           capture_output=True, text=True)
    return probe.returncode == 0 and "deviceName" in probe.stdout


def other_icds(given):
    """NAME -> manifest: the ones given, and any other installed driver that finds a device (Mesa's
    package brings manifests for every GPU it knows, whether this machine has one or not)."""
    icds = dict(g.split("=", 1) for g in given)
    for manifest in sorted(glob.glob("/usr/share/vulkan/icd.d/*.json") + glob.glob("/etc/vulkan/icd.d/*.json")):
        try:
            library = json.load(open(manifest))["ICD"]["library_path"]
        except (OSError, ValueError, KeyError):
            continue
        if "lvp" not in os.path.basename(library) and has_device(manifest):
            icds.setdefault(os.path.basename(manifest).removesuffix(".json"), manifest)
    return icds


def dump_failing_spirv(records, tests, out_dir):
    for r, t in zip(records, tests):
        if r["outcome"] != "fail":
            continue
        source = t.dump_dir
        if not os.path.isdir(source) or not os.listdir(source):
            r["spirv"] = "(the layer lowered nothing in this case)"
            continue
        target = os.path.join(out_dir, f"{r['name']}.{t.driver or 'default'}.{r['mode']}")
        shutil.copytree(source, target, dirs_exist_ok=True)
        for spv in glob.glob(os.path.join(target, "*.spv")):
            subprocess.run(["spirv-dis", spv, "-o", spv[:-4] + ".spvasm"], capture_output=True)
        r["spirv"] = target


def select(args, build_dir, ctest_args):
    tests = ctest_run.list_tests(build_dir, ctest_args)
    if args.case:
        tests = [t for t in tests if any(fnmatch.fnmatchcase(t.name.full, g) for g in args.case)]
    if args.quick:
        return quick_sample(tests)
    spread = [t for t in tests if set(t.labels) & set(args.spread)
              or any(fnmatch.fnmatchcase(t.name.full, g) for g in args.spread_case)]
    left_out = {id(t) for t in spread} - {id(t) for t in quick_sample(spread, by_suite=True)}
    return [t for t in tests if id(t) not in left_out]


def plan_runs(tests, extra):
    """[(label, environment, [(test as reported, test as listed)])]: both lavapipes in one ctest run,
    then each other driver running each test set (plain, native) with both manifests pointing at it."""
    runs = [("", {}, [(t, t) for t in tests])]
    for name, icd in extra.items():
        for t_set in ("plain", "native"):
            pairs = [(ctest_run.Test(t.ctest_name, t.tier, f"{name}~{t_set}", t.name, t.gtest, t.source), t)
                     for t in tests if t.driver == t_set]
            runs.append((name, {"VKPOLYFILL_ICD_PLAIN": icd, "VKPOLYFILL_ICD_NATIVE": icd}, pairs))
    return [r for r in runs if r[2]]


def execute(runs, build_dir, results, jobs, ctest_args):
    """Runs each planned run; returns the tests with their outcome and dump directory."""
    progress = Progress(sum(len(pairs) for _, _, pairs in runs))
    ran = []
    for index, (label, env, pairs) in enumerate(runs):
        root = os.path.join(results, "spirv-dumps", label or "default")
        names = {listed.ctest_name: t.name.full for t, listed in pairs}
        outcome = ctest_run.run(build_dir, [listed for _, listed in pairs], os.path.join(results, f"ctest-{index}.xml"),
                                jobs, {**env, "VKPOLYFILL_CONFORMANCE_DUMP_ROOT": root}, ctest_args,
                                lambda name, status: progress.update(names.get(name, name), status))
        for t, listed in pairs:
            result = outcome.get(t.ctest_name, {"status": "failed", "output": "ctest did not report this test",
                                                "time": 0, "skip_note": ""})
            t.outcome = {**classify(result), "time": result["time"]}
            # where the conformance listener had the layer dump this test's modules
            t.dump_dir = os.path.join(root, listed.driver or "default", t.gtest.replace("/", "~"))
            ran.append(t)
    progress.finish()
    return ran


def main():
    args, ctest_args = parse_args()
    build_dir = os.path.abspath(os.environ.get("VKPOLYFILL_BUILD_DIR", "build/release"))
    if not os.path.isfile(os.path.join(build_dir, "CTestTestfile.cmake")):
        sys.exit(f"conformance: no build in {build_dir}: run scripts/build.sh first")
    tests = select(args, build_dir, ctest_args)
    if args.list:
        for t in tests:
            print(f"{t.name.full}  [{t.driver or '-'} / {t.name.mode}]")
        return 0
    stamp = time.strftime("%Y%m%d-%H%M%S")
    results = os.path.abspath(args.results or os.path.join(build_dir, "conformance", stamp))
    if not args.results:  # keep the last ten runs
        for old in sorted(glob.glob(os.path.join(build_dir, "conformance", "2*")))[:-9]:
            shutil.rmtree(old, ignore_errors=True)
    os.makedirs(results, exist_ok=True)
    extra = other_icds(args.icd)
    runs = plan_runs(tests, extra)
    print(f"[conformance] {sum(len(r[2]) for r in runs)} cases from {build_dir}; results in {results}", flush=True)
    start = time.monotonic()
    ran = execute(runs, build_dir, results, args.jobs, ctest_args)
    seconds = round(time.monotonic() - start, 1)

    records = [report.case_record(t) for t in ran]
    if args.dump_spirv:
        dump_failing_spirv(records, ran, os.path.abspath(args.dump_spirv))
    grammar_json = json.load(open(GRAMMAR))
    icds = [os.environ["VKPOLYFILL_ICD_PLAIN"], os.environ["VKPOLYFILL_ICD_NATIVE"], *extra.values()]
    coverage = account(ran, grammar_json, Grammar(grammar_json), VulkanRegistry(), advertised(build_dir, icds))
    shutil.rmtree(os.path.join(results, "spirv-dumps"), ignore_errors=True)

    run_info = {"time": stamp, "seconds": seconds, "build": build_dir, "filters": args.case, "quick": args.quick,
                "ctest_args": ctest_args, "drivers": {"plain": os.environ.get("VKPOLYFILL_ICD_PLAIN"),
                                                      "native": os.environ.get("VKPOLYFILL_ICD_NATIVE"), **extra}}
    report.write_json(os.path.join(results, "results.json"), run_info, records, coverage)
    report.write_junit(os.path.join(results, "results.xml"), records)
    text = "\n\n".join(x for x in (report.failures_text(records), report.summary_text(records),
                                   report.reasons_text(records),
                                   coverage_text(coverage, list_gaps=not (args.case or ctest_args))) if x)
    with open(os.path.join(results, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    failed = sum(1 for r in records if r["outcome"] == "fail")
    missing = gaps(coverage)
    verdict = "FAILED" if failed or (args.fail_on_gaps and missing) else "passed"
    print(f"\n[conformance] {verdict}: {failed} failing cases, {len(missing)} coverage gaps, {seconds} s; "
          f"{results}/results.json, results.xml, summary.txt")
    return 1 if verdict == "FAILED" else 0


if __name__ == "__main__":
    sys.exit(main())
