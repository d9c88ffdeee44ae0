"""ctest as the executor: the list of tests (with the driver each runs on), and a run of a chosen
set with its JUnit results, reporting each test as it ends."""
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from case_names import name_case

RESULT_LINE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: (\S+) \.+\**\s*(\w[\w ]*?)\s+[\d.]+ sec")


@dataclass
class Test:
    ctest_name: str
    tier: str         # vulkan, lowering, linked_app, bench, devices, gpu
    driver: str       # plain, native, a GPU proxy (scripts/gpu-proxy.sh), or "" for tests that use no driver
    name: object      # case_names.CaseName
    gtest: str        # the GoogleTest name (or the add_test name without tier and driver)
    source: str = ""  # where the test is defined (DEF_SOURCE_LINE), when ctest knows
    labels: tuple = ()  # its ctest LABELS
    outcome: dict = field(default_factory=dict)


# The layer settings the suite forces paths with (tests/vulkan/CMakeLists.txt), and the driver suffix of
# their runs: vulkan.plain@distributed.* is driver plain@distributed, and so on.
FORCED_PATHS = {
    "VK_POLYFILL_EXTENSIONS_MATRIX_LAYOUT": "{}",
    "VK_POLYFILL_EXTENSIONS_DISTRIBUTED_A": "a_{}",
    "VK_POLYFILL_EXTENSIONS_MATRIX_UNITS": "matrix_units",
    "VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING": "{}",
    "VK_POLYFILL_EXTENSIONS_TILE_IMAGE_INDEXING": "{}_indexing",
    "VK_POLYFILL_EXTENSIONS_FORCE_EMULATION": "{}",
}


def _property(test, key):
    for p in test.get("properties", []):
        if p["name"] == key:
            return p["value"]
    return None


def list_tests(build_dir, ctest_args):
    """The tests ctest would run with `ctest_args` (-R, -E, ... select as they do for a run)."""
    listing = subprocess.run(["ctest", "--show-only=json-v1", *ctest_args], cwd=build_dir, check=True,
                             capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(listing)["tests"]:
        env = dict(e.split("=", 1) for e in (_property(t, "ENVIRONMENT") or []))
        tier, _, rest = t["name"].partition(".")
        driver = env.get("VKPOLYFILL_TEST_DRIVER", "")
        if "LP_NATIVE_VECTOR_WIDTH" in env and driver:  # lavapipe at another subgroup size: a driver of its own
            width = int(env['LP_NATIVE_VECTOR_WIDTH']) // 32
            driver += f"@subgroup{width}" if width != 8 else ""
        for setting, suffix in FORCED_PATHS.items():  # a layer path forced by a setting: likewise
            if setting in env and driver:
                driver += "@" + suffix.format(env[setting])
        gtest = next((a.split("=", 1)[1] for a in t.get("command", []) if a.startswith("--gtest_filter=")), None)
        if gtest is None or any(c in gtest for c in ":*?"):  # an add_test (maybe running a list of
            # GoogleTest tests, as the valgrind one does): drop the tier and a driver word from its name
            # (or a GPU proxy's name: gpu.rx6800.capability_matrix)
            first, _, tail = rest.partition(".")
            gtest = tail if first in ("plain", "native", driver) and tail else rest
            driver = driver or (first if first in ("plain", "native") else "")
        tests.append(Test(t["name"], tier, driver, name_case(tier, gtest), gtest,
                          _property(t, "DEF_SOURCE_LINE") or "", tuple(_property(t, "LABELS") or ())))
    return tests


def run(build_dir, tests, junit_path, jobs, env, extra_args, on_result):
    """Runs `tests` through ctest; calls on_result(ctest_name, status word) as each ends; returns
    {ctest_name: {status, output, time}} from the JUnit file."""
    selection = junit_path + ".tests"
    with open(selection, "w") as f:
        f.write("".join(t.ctest_name + "\n" for t in tests))
    command = ["ctest", "--tests-from-file", selection, "--output-junit", junit_path, "-j", str(jobs),
               "--test-output-size-passed", "262144", "--test-output-size-failed", "1048576", *extra_args]
    process = subprocess.Popen(command, cwd=build_dir, env={**os.environ, **env}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    tail = []
    for line in process.stdout:
        m = RESULT_LINE.match(line)
        if m:
            on_result(m.group(1), m.group(2))
        tail = (tail + [line])[-20:]
    process.wait()
    if not os.path.exists(junit_path):
        raise RuntimeError("ctest wrote no results:\n" + "".join(tail))
    results = {}
    for case in ET.parse(junit_path).getroot().iter("testcase"):
        skipped = case.find("skipped")
        status = {"run": "passed", "fail": "failed"}.get(case.get("status"), "failed")
        if skipped is not None and "SKIP_REGULAR_EXPRESSION_MATCHED" in (skipped.get("message") or ""):
            status = "skipped"  # a GoogleTest skip; any other "not run" (no executable, ...) is a failure
        if case.find("failure") is not None:
            status = "failed"
        results[case.get("name")] = {"status": status, "output": case.findtext("system-out") or "",
                                     "time": float(case.get("time") or 0),
                                     "skip_note": skipped.get("message") if skipped is not None else ""}
    return results
