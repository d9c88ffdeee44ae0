"""A test's outcome in CTS terms, from what ctest saw and what GoogleTest printed.

pass / fail / not supported / skipped. A GoogleTest skip is "not supported" when its message
starts with "not supported" (the device, with or without the layer, does not report what the case
needs: CTS's NotSupported), otherwise "skipped", with the message as the reason either way. A
compile-only test on a GPU proxy also says what the compiler reported (registers, spills, occupancy,
cycle estimate, times, the budgets' verdicts: vkpolyfill_compile_kernels' "[ COMPILER ]" line), which
the case keeps as "compiler"."""
import json
import re

SKIP = re.compile(r"^[^\n]*: Skipped\n(.*?)(?=^\[  |\Z)", re.M | re.S)
RUN = re.compile(r"^\[ RUN      \] .*?\n(.*?)(?=^\[  FAILED  \]|^\[  SKIPPED \]|^\[       OK \]|\Z)", re.M | re.S)
COVERS = re.compile(r"^\[  COVERS  \] (\S+)", re.M)
COMPILER = re.compile(r"^\[ COMPILER \] (\{.*\})$", re.M)


def classify(result):
    """{outcome, reason, detail, tags} for one ctest result (and "compiler" where it reported one)."""
    outcome = _classify(result)
    reported = COMPILER.search(result["output"])
    if reported:
        outcome["compiler"] = json.loads(reported.group(1))
    return outcome


def _classify(result):
    output = result["output"]
    tags = COVERS.findall(output)
    if result["status"] == "passed":
        return {"outcome": "pass", "reason": "", "detail": "", "tags": tags}
    if result["status"] == "skipped":
        m = SKIP.search(output)
        reason = " ".join(m.group(1).split()) if m else (result["skip_note"] or "not run")
        kind = "not supported" if reason.lower().startswith("not supported") else "skipped"
        return {"outcome": kind, "reason": reason, "detail": "", "tags": []}
    m = RUN.search(output)
    detail = COVERS.sub("", m.group(1) if m else output).strip()
    first = next((line for line in detail.splitlines() if line.strip()), "failed")
    return {"outcome": "fail", "reason": first[:200], "detail": detail, "tags": []}
