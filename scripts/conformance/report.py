"""The summary table, the reasons for skips, failures with what differed, and the JSON and JUnit
XML result files."""
import json
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

OUTCOMES = ("pass", "fail", "not supported", "skipped")


def case_record(test):
    n = test.name
    return {"name": n.full, "extension": n.extension, "group": n.group, "case": n.case, "driver": test.driver,
            "mode": n.mode, "ctest": test.ctest_name, "source": test.source, **test.outcome}


def summary(records):
    table = defaultdict(Counter)
    for r in records:
        table[(r["extension"], r["group"])][r["outcome"]] += 1
    return table


def summary_text(records):
    table = summary(records)
    lines = [f"{'extension / group':<44}{'pass':>7}{'fail':>7}{'not sup.':>10}{'skipped':>9}"]
    totals = Counter()
    extension = None
    for (ext, group), counts in sorted(table.items()):
        if ext != extension:
            extension = ext
            ext_counts = sum((c for (e, _), c in table.items() if e == ext), Counter())
            lines.append(f"{ext:<44}" + "".join(f"{ext_counts[o]:>{w}}" for o, w in zip(OUTCOMES, (7, 7, 10, 9))))
        lines.append(f"  {group:<42}" + "".join(f"{counts[o]:>{w}}" for o, w in zip(OUTCOMES, (7, 7, 10, 9))))
        totals.update(counts)
    lines.append(f"{'total':<44}" + "".join(f"{totals[o]:>{w}}" for o, w in zip(OUTCOMES, (7, 7, 10, 9))))
    by_run = defaultdict(Counter)
    for r in records:
        by_run[(r["driver"] or "-", r["mode"])][r["outcome"]] += 1
    lines += ["", f"{'driver / mode':<44}{'pass':>7}{'fail':>7}{'not sup.':>10}{'skipped':>9}"]
    for (driver, mode), counts in sorted(by_run.items()):
        lines.append(f"{driver + ' / ' + mode:<44}" + "".join(f"{counts[o]:>{w}}" for o, w in zip(OUTCOMES, (7, 7, 10, 9))))
    return "\n".join(lines)


def reasons_text(records, limit=12):
    lines = []
    for outcome in ("not supported", "skipped"):
        reasons = Counter(r["reason"][:150] for r in records if r["outcome"] == outcome)
        if not reasons:
            continue
        lines.append(f"{outcome} ({sum(reasons.values())}), by reason:")
        for reason, count in reasons.most_common(limit):
            lines.append(f"  {count:>5}  {reason}")
        if len(reasons) > limit:
            lines.append(f"         ... and {len(reasons) - limit} other reasons (results.json has each)")
    return "\n".join(lines)


def failures_text(records, max_lines=40):
    lines = []
    for r in records:
        if r["outcome"] != "fail":
            continue
        lines.append(f"FAIL {r['name']} [{r['driver'] or '-'} / {r['mode']}]  (ctest -R '{r['ctest']}')")
        detail = r.get("detail", "").splitlines()
        lines += ["    " + line for line in detail[:max_lines]]
        if len(detail) > max_lines:
            lines.append(f"    ... {len(detail) - max_lines} more lines in results.json")
        if r.get("spirv"):
            lines.append(f"    SPIR-V: {r['spirv']}")
    return "\n".join(lines)


def write_json(path, run, records, coverage):
    with open(path, "w") as f:
        json.dump({"run": run, "summary": {f"{e}.{g}": dict(c) for (e, g), c in summary(records).items()},
                   "coverage": coverage, "cases": records}, f, indent=1)


def write_junit(path, records):
    suites = ET.Element("testsuites", name="vkpolyfill conformance")
    by_extension = defaultdict(list)
    for r in records:
        by_extension[r["extension"]].append(r)
    for ext, cases in sorted(by_extension.items()):
        counts = Counter(r["outcome"] for r in cases)
        suite = ET.SubElement(suites, "testsuite", name=ext, tests=str(len(cases)), failures=str(counts["fail"]),
                              skipped=str(counts["not supported"] + counts["skipped"]),
                              time=f"{sum(r.get('time', 0) for r in cases):.3f}")
        for r in cases:
            case = ET.SubElement(suite, "testcase", classname=f"{ext}.{r['group']}",
                                 name=f"{r['case']} [{r['driver'] or '-'}/{r['mode']}]", time=f"{r.get('time', 0):.3f}")
            if r["outcome"] == "fail":
                ET.SubElement(case, "failure", message=r["reason"]).text = r.get("detail", "")
            elif r["outcome"] != "pass":
                ET.SubElement(case, "skipped", message=f"{r['outcome']}: {r['reason']}")
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)
