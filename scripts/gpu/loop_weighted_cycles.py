#!/usr/bin/env python3
"""ACO's static cycle estimate with each loop weighted by its trip count.

ACO estimates a shader's cycles as the sum of its blocks' cycles, each weighted by a fixed factor for
its loop depth (8 for one loop, 32 for two, 64 for three), whatever the loops' trip counts. A lowered
cooperative-matrix kernel puts a loop of 64 iterations inside the engine's loop over K: ACO weighs
it 4 times the outer body where it runs 64 times, so kernels with different loop nests do not compare.

This reads ACO's per-instruction cycles (ACO_DEBUG=perfinfo) of the command's compute pipeline,
finds each loop (a backward branch) and, where the loop counts a scalar register from a constant to a
constant (`s_add_u32 sN, sN, STEP` ... `s_cmp_ge_u32 sN, LIMIT`), its trip count. It prints the
loops (for one pass through each, the loops inside it at their trip counts: one wave's latency and
its instructions by unit, VALU, LDS, VMEM and SALU, for one step of an engine's loop over K), ACO's weighting recomputed (its if-weights left out), the same blocks weighted by trip counts
(loops it cannot count: --unknown-trips, default one pass), and ACO's inverse throughput scaled by
the ratio of the two.

  scripts/gpu/loop_weighted_cycles.py [--unknown-trips N] [--loops] GPU -- COMMAND [ARGS...]

GPU is one of scripts/gpu-proxy.sh's AMD proxies; COMMAND compiles the pipeline, e.g.
build/release/tests/bench/vkpolyfill_compile_kernels.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

BLOCK = re.compile(r"^BB(\d+)$")
INSTR = re.compile(r"^\s*\(\s*(\d+) clk\)\s+(.*)$")
TARGET = re.compile(r"block:BB(\d+)")
INCREMENT = re.compile(r"^(s\d+), scc = s_add_u32 (s\d+), (\d+)$")
COMPARE = re.compile(r"^scc = s_cmpk?_(ge|lg|gt)_[ui]32 (s\d+),? (?:imm:)?(\d+)$")
INIT = re.compile(r"^(s\d+) = s_mov(?:k_i32 imm:|_b32 )(-?\d+)$")
DEFINES = re.compile(r"^(s\d+)[ ,=]")
INVERSE_THROUGHPUT = re.compile(r"Inverse Throughput=(\d+)")
REPORTED_LATENCY = re.compile(r"^latency: ([\d.]+)$")


def parse_blocks(text):
    """The last program's blocks in linear order: [(name, [(cycles, instruction)])]."""
    blocks = []
    for line in text.splitlines():
        if line.startswith("After lowering to hw instructions"):
            blocks = []
        m = BLOCK.match(line)
        if m:
            blocks.append((int(m.group(1)), []))
            continue
        m = INSTR.match(line)
        if m and blocks:
            blocks[-1][1].append((int(m.group(1)), m.group(2)))
    return blocks


def find_loops(blocks):
    """Each loop as [header position, latch position], from its backward branches."""
    position = {name: i for i, (name, _) in enumerate(blocks)}
    loops = {}
    for i, (_, instrs) in enumerate(blocks):
        for _, text in instrs:
            for target in TARGET.findall(text):
                h = position.get(int(target))
                if h is not None and h <= i:
                    loops[h] = max(loops.get(h, i), i)
    return sorted(loops.items())


def initial_value(blocks, header, register):
    """The constant the register holds on entering the loop, if a move before the header sets it."""
    for _, instrs in reversed(blocks[:header]):
        for _, text in reversed(instrs):
            m = INIT.match(text)
            if m and m.group(1) == register:
                return int(m.group(2))
            d = DEFINES.match(text)
            if d and d.group(1) == register:
                return None
    return None


def trip_count(blocks, header, latch):
    """Iterations of a loop counting a scalar register by a constant step to a constant limit."""
    steps = {}
    for _, instrs in blocks[header:latch + 1]:
        for _, text in instrs:
            m = INCREMENT.match(text)
            if m and m.group(1) == m.group(2):
                steps[m.group(1)] = int(m.group(3))
    for _, text in reversed(blocks[latch][1]):
        m = COMPARE.match(text)
        if m and m.group(2) in steps:
            start = initial_value(blocks, header, m.group(2))
            step = steps[m.group(2)]
            if start is None or step <= 0:
                return None
            limit = int(m.group(3)) + (1 if m.group(1) == "gt" else 0)
            return max(1, math.ceil((limit - start) / step))
    return None


CLASSES = (("valu", re.compile(r"(?:\S+ = )?v_")), ("lds", re.compile(r"(?:\S+ = )?ds_")),
           ("vmem", re.compile(r"(?:\S+ = )?(?:buffer|global|scratch)_")),
           ("salu", re.compile(r"(?:\S+ = )?s_(?!waitcnt|cbranch|branch|nop|endpgm|barrier)")))


def instruction_counts(instrs):
    """A block's instructions by the unit that executes them."""
    counts = {name: 0 for name, _ in CLASSES}
    for _, text in instrs:
        for name, pattern in CLASSES:
            if pattern.match(text):
                counts[name] += 1
                break
    return counts


def aco_loop_weight(depth):
    """ACO's factor for a block at this loop depth (aco_statistics.cpp)."""
    weight = 8.0 if depth > 0 else 1.0
    weight *= 4.0 if depth > 1 else 1.0
    weight *= 2.0 ** (depth - 2) if depth > 2 else 1.0
    return weight


def estimate(text, unknown_trips):
    blocks = parse_blocks(text)
    loops = [(h, l, trip_count(blocks, h, l)) for h, l in find_loops(blocks)]
    aco_sum = trip_sum = 0.0
    passes = [dict.fromkeys(["latency"] + [name for name, _ in CLASSES], 0.0) for _ in loops]
    for i, (_, instrs) in enumerate(blocks):
        cycles = sum(c for c, _ in instrs)
        counts = dict(instruction_counts(instrs), latency=cycles)
        enclosing = [(n, t) for n, (h, l, t) in enumerate(loops) if h <= i <= l]
        aco_sum += cycles * aco_loop_weight(len(enclosing))
        trips = [unknown_trips if t is None else t for _, t in enclosing]
        trip_sum += cycles * math.prod(trips)
        # One pass through each enclosing loop: the loops inside it at their trip counts.
        for depth, (n, _) in enumerate(enclosing):
            for key, value in counts.items():
                passes[n][key] += value * math.prod(trips[depth + 1:])
    reported = [float(m.group(1)) for m in map(REPORTED_LATENCY.match, text.splitlines()) if m]
    throughput = INVERSE_THROUGHPUT.findall(text)
    result = {
        "loops": [{"header": f"BB{blocks[h][0]}", "latch": f"BB{blocks[l][0]}", "trips": t,
                   "pass": {k: round(v) for k, v in passes[n].items()}} for n, (h, l, t) in enumerate(loops)],
        "aco_latency": reported[-1] if reported else None,
        "loop_depth_latency": round(aco_sum),
        "trip_weighted_latency": round(trip_sum),
        "aco_cycles": int(throughput[-1]) if throughput else None,
    }
    if result["aco_cycles"] and aco_sum:
        result["trip_weighted_cycles"] = round(result["aco_cycles"] * trip_sum / aco_sum)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unknown-trips", type=float, default=1.0,
                        help="iterations assumed for a loop whose count is not constant (default 1)")
    parser.add_argument("--loops", action="store_true", help="also list the loops found")
    parser.add_argument("gpu")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command that creates the pipeline is required")
    proxy = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gpu-proxy.sh")
    env = dict(os.environ, ACO_DEBUG="perfinfo")
    run = subprocess.run([proxy, args.gpu] + command, env=env, capture_output=True, text=True)
    result = estimate(run.stdout + run.stderr, args.unknown_trips)
    if not result["aco_cycles"]:
        sys.stderr.write(run.stderr[-2000:])
        sys.exit(f"no ACO statistics in the output (an AMD proxy? exit status {run.returncode})")
    if not args.loops:
        result.pop("loops")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
