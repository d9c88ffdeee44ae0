"""scripts/bench.sh's report: every benchmark's figures in one Markdown file, per capability a table
of medians with their spread (interquartile range and range) and the ratios of the series measured
side by side, and one PNG chart per capability drawn by gnuplot; a benchmark that writes no figures
file is quoted as it printed itself.
  python3 scripts/bench/report.py RESULTS_DIR    (reads RESULTS_DIR/*.json, writes report.md, *.png)"""
import glob
import os
import subprocess
import sys
from collections import OrderedDict

from figures import load

# Ratios worth a column, when both series are there: speed of the first against the second.
RATIOS = [("emulated", "native"), ("emulated", "scalar"), ("tile-image reads", "without the layer")]


def grouped(figures):
    """capability -> (driver, group, unit) -> series -> figure, in the order measured."""
    out = OrderedDict()
    for f in figures:
        out.setdefault(f["capability"], OrderedDict()).setdefault((f["driver"], f["group"], f["unit"]), OrderedDict())[f["series"]] = f
    return out


def number(v):
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"


def cell(f):
    return f"{number(f['median'])} [{number(f['q1'])}–{number(f['q3'])}] ({number(f['min'])}–{number(f['max'])})"


def ratio_columns(series_names):
    cols = []
    for a, b in RATIOS:
        sa = next((s for s in series_names if a in s), None)
        sb = next((s for s in series_names if b in s and s != sa), None)
        if sa and sb:
            cols.append((sa, sb))
    return cols


def capability_tables(rows):
    """One table per set of series (a benchmark's groups that measured the same things)."""
    by_series = OrderedDict()
    for key, r in rows.items():
        by_series.setdefault(tuple(r), OrderedDict())[key] = r
    return "\n\n".join(capability_table(part) for part in by_series.values())


def capability_table(rows):
    series = list(OrderedDict((s, None) for r in rows.values() for s in r))
    ratios = ratio_columns(series)
    head = ["driver", "what", "unit", *series, *[f"{a} vs {b}" for a, b in ratios]]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * 3 + " ---: |" * (len(series) + len(ratios))]
    for (driver, group, unit), r in rows.items():
        values = [cell(r[s]) if s in r else "-" for s in series]
        speedups = [f"{r[b]['median'] / r[a]['median']:.2f}" if a in r and b in r and r[a]["median"] else "-" for a, b in ratios]
        lines.append("| " + " | ".join([driver, group, unit, *values, *speedups]) + " |")
    return "\n".join(lines)


def chart(capability, rows, out_dir):
    """One PNG: per driver and unit a panel of clustered bars (median) with the range as error bars."""
    panels = OrderedDict()
    for (driver, group, unit), r in rows.items():
        panels.setdefault((driver, unit), OrderedDict())[group] = r
    data_files, plots = [], []
    for i, ((driver, unit), groups) in enumerate(panels.items()):
        series = list(OrderedDict((s, None) for r in groups.values() for s in r))
        path = os.path.join(out_dir, f".{capability}-{i}.dat")
        with open(path, "w") as f:
            for group, r in groups.items():
                label = group.replace('"', "'")
                values = " ".join(f"{r[s]['median']} {r[s]['min']} {r[s]['max']}" if s in r else "- - -" for s in series)
                f.write(f'"{label}" {values}\n')
        data_files.append(path)
        using = ", ".join(f"'{path}' using {2 + 3 * k}:{3 + 3 * k}:{4 + 3 * k}:xtic(1) title '{s}'"
                          for k, s in enumerate(series))
        plots.append(f"set title '{capability}, {driver} driver'; set ylabel '{unit}'; plot {using}")
    png = os.path.join(out_dir, f"{capability}.png")
    script = "\n".join([
        f"set terminal pngcairo noenhanced size 1400,{420 * len(panels)} font ',9'", f"set output '{png}'",
        "set datafile missing '-'", "set style data histogram", "set style histogram errorbars gap 2 lw 1",
        "set style fill solid 0.6 border -1", "set xtics rotate by -20 left", "set key top left", "set yrange [0:*]",
        "set grid ytics", f"set multiplot layout {len(panels)},1", *plots, "unset multiplot"])
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    for path in data_files:
        os.remove(path)
    return png


def main(results):
    figures = load(sorted(glob.glob(os.path.join(results, "*.json"))))
    lines = [f"# Benchmark report ({os.path.basename(os.path.normpath(results))})", "",
             "Each cell: median [interquartile range] (range) of the repetitions; series in one row were "
             "measured side by side in one process on one driver. Ratio columns are speed-ups of the first "
             "series against the second (median against median; above 1: the first is faster).", ""]
    load_file = os.path.join(results, "load.txt")  # bench.sh's: the machine is shared, so say how busy it was
    if os.path.exists(load_file):
        lines += [open(load_file).read().strip().replace("\n", "; ") + ".", ""]
    for capability, rows in grouped(figures).items():
        png = chart(capability, rows, results)
        lines += [f"## {capability}", "", capability_tables(rows), "", f"![{capability}]({os.path.basename(png)})", ""]
    for md in sorted(glob.glob(os.path.join(results, "*.md"))):  # benchmarks that write no figures
        if md.endswith("report.md") or os.path.exists(md[:-3] + ".json"):
            continue
        name, _, driver = os.path.basename(md)[:-3].rpartition("-")
        lines += [f"## {name} benchmark, {driver} driver (its own tables: it writes no figures file)", "",
                  open(md).read().strip().replace("\n## ", "\n### ").removeprefix("## ").strip(), ""]
    with open(os.path.join(results, "report.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
