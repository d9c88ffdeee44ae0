#!/usr/bin/env python3
"""The GPU compilers' static cycle estimates with each loop weighted by its trip count.

ACO and NAK estimate a shader's cycles as the sum of its blocks' cycles, each weighted by a fixed
factor for its loop depth, whatever the loops' trip counts: ACO 8 for one loop, 32 for two, 64 for
three (aco_statistics.cpp), NAK 10, 38 and 100 (estimate_block_weight). A lowered cooperative-matrix
kernel puts a loop of 64 iterations inside the engine's loop over K, which ACO weighs 4 times the
outer body, so kernels with different loop nests do not compare.

This reads the compiler's per-instruction cycles (ACO_DEBUG=perfinfo; NAK_DEBUG=print, the delays
after calc_instr_deps) of the pipeline the command creates, finds each loop (a backward edge) and,
where the loop counts a scalar or uniform register from a constant to a constant, its trip count. It
prints the loops (for one pass through each, the loops inside it at their trip counts: one wave's or
warp's cycles and its instructions by unit, for one step of an engine's loop over K or over keys),
the compiler's weighting recomputed (its branch weights left out), the same blocks weighted by trip
counts (loops it cannot count: --unknown-trips, default one pass), and the compiler's estimate scaled
by the ratio of the two.

  scripts/gpu/loop_weighted_cycles.py [--unknown-trips N] [--loops] GPU -- COMMAND [ARGS...]

GPU is one of scripts/gpu-proxy.sh's AMD (ACO) or NVIDIA (NAK) proxies; COMMAND creates the
pipeline, e.g. build/release/tests/bench/vkpolyfill_compile_kernels.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field


@dataclass
class Block:
    name: int
    instrs: list = field(default_factory=list)  # (cycles, instruction text)
    successors: list = field(default_factory=list)  # block names


class Aco:
    debug = ("ACO_DEBUG", "perfinfo")
    increment = re.compile(r"^(s\d+), scc = s_add_u32 (s\d+), (\d+)$")
    compare = re.compile(r"^scc = s_cmpk?_(ge|lg|gt)_[ui]32 (s\d+),? (?:imm:)?(\d+)$")
    init = re.compile(r"^(s\d+) = s_mov(?:k_i32 imm:|_b32 )(-?\d+)$")
    defines = re.compile(r"^(s\d+)[ ,=]")
    estimate = re.compile(r"Inverse Throughput=([\d.e+]+)")
    units = (("valu", re.compile(r"(?:[^=]+= )?v_")), ("lds", re.compile(r"(?:[^=]+= )?ds_")),
             ("vmem", re.compile(r"(?:[^=]+= )?(?:buffer|global|scratch)_")),
             ("salu", re.compile(r"(?:[^=]+= )?s_(?!waitcnt|cbranch|branch|nop|endpgm|barrier)")))

    @staticmethod
    def blocks(text):
        """The last program's blocks in linear order; successors from the branches."""
        blocks = []
        for line in text.splitlines():
            if line.startswith("After lowering to hw instructions"):
                blocks = []
            m = re.match(r"^BB(\d+)$", line)
            if m:
                blocks.append(Block(int(m.group(1))))
                continue
            m = re.match(r"^\s*\(\s*(\d+) clk\)\s+(.*)$", line)
            if m and blocks:
                blocks[-1].instrs.append((int(m.group(1)), m.group(2)))
                blocks[-1].successors += [int(t) for t in re.findall(r"block:BB(\d+)", m.group(2))]
        for block, following in zip(blocks, blocks[1:]):
            last = block.instrs[-1][1] if block.instrs else ""
            if not re.match(r"s_(?:branch|endpgm|setpc)", last):  # falls through
                block.successors.append(following.name)
        return blocks

    @staticmethod
    def loop_weight(depth):
        weight = 8.0 if depth > 0 else 1.0
        weight *= 4.0 if depth > 1 else 1.0
        return weight * (2.0 ** (depth - 2) if depth > 2 else 1.0)


class Nak:
    debug = ("NAK_DEBUG", "print")
    # iadd3 r, imm, rZ; Pascal and Maxwell (the GTX 1080) have no iadd3: iadd2 r, imm.
    increment = re.compile(r"^(u?r\d+)\s+= iadd(?:3 (u?r\d+) (0x[0-9a-f]+|\d+) rZ|2 (u?r\d+) (0x[0-9a-f]+|\d+))\s*$")
    compare = re.compile(r"^u?p\d+\s+= isetp\.(ge|ne|gt)\.[ui]32 (u?r\d+) (0x[0-9a-f]+|\d+)\b")
    init = re.compile(r"^(u?r\d+)\s+= mov (rZ|0x[0-9a-f]+|\d+)\b")
    defines = re.compile(r"^(u?r\d+)\s+=")
    estimate = re.compile(r"Static cycle count=([\d.e+]+)")
    units = (("shared", re.compile(r"(?:[^=]+= )?(?:ld|st|atom)\.shared")),
             ("memory", re.compile(r"(?:[^=]+= )?(?:ld|st|atom)\.(?:global|local)")),
             ("uniform", re.compile(r"u[rp]\d+[^=]*= ")),
             ("alu", re.compile(r"[rp]\d+[^=]*= ")))

    @staticmethod
    def blocks(text):
        """The blocks after calc_instr_deps, with their delays and successors."""
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("NAK IR after calc_instr_deps")]
        blocks = []
        for line in lines[starts[-1] if starts else len(lines):]:
            # "block.u N" is uniform, "block N" divergent: both are blocks.
            m = re.match(r"^block(?:\.\w+)? (\d+) ", line)
            if m:
                blocks.append(Block(int(m.group(1))))
                continue
            m = re.match(r"^\} -> \[(.*)\]", line)
            if m and blocks:
                blocks[-1].successors = [int(s) for s in m.group(1).split(",") if s.strip()]
                continue
            m = re.match(r"^\s*(?:@!?u?p\w+\s+)?(.*?)\s*// delay=(\d+)", line)
            if m and blocks:
                blocks[-1].instrs.append((int(m.group(2)), m.group(1).strip()))
        return blocks

    @staticmethod
    def loop_weight(depth):
        return float(int(10.0 ** math.log2(depth + 1)))


def number(text):
    return int(text, 0) if text != "rZ" else 0


@dataclass
class Loop:
    header: int  # positions in the linear order
    latches: set
    body: set


def find_loops(blocks):
    """The natural loops of the backward edges, one per header: the header and every block that reaches
    a latch without passing through it (NAK places latches far from their loops, so a loop's blocks
    need not be contiguous)."""
    position = {b.name: i for i, b in enumerate(blocks)}
    predecessors = {i: [] for i in range(len(blocks))}
    for i, block in enumerate(blocks):
        for successor in block.successors:
            if successor in position:
                predecessors[position[successor]].append(i)
    loops = {}
    for i, block in enumerate(blocks):
        for successor in block.successors:
            h = position.get(successor)
            if h is None or h > i:
                continue
            loop = loops.setdefault(h, Loop(h, set(), {h}))
            loop.latches.add(i)
            stack = [i]
            while stack:
                b = stack.pop()
                if b not in loop.body:
                    loop.body.add(b)
                    stack.extend(predecessors[b])
    return [loops[h] for h in sorted(loops)]


def initial_value(compiler, blocks, header, register):
    """The constant the register holds on entering the loop, if a move before the header sets it."""
    for block in reversed(blocks[:header]):
        for _, text in reversed(block.instrs):
            m = compiler.init.match(text)
            if m and m.group(1) == register:
                return number(m.group(2))
            d = compiler.defines.match(text)
            if d and d.group(1) == register:
                return None
    return None


def trip_count(compiler, blocks, loop):
    """Iterations of a loop counting a register by a constant step to a constant limit, compared in a
    block that leaves the loop or goes back to its header."""
    position = {b.name: i for i, b in enumerate(blocks)}
    steps = {}
    for b in loop.body:
        for _, text in blocks[b].instrs:
            m = compiler.increment.match(text)
            if m:
                register, step = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
                if m.group(1) == register:
                    steps[register] = number(step)
    deciding = sorted(loop.latches | {b for b in loop.body
                                      if any(position.get(s) not in loop.body for s in blocks[b].successors)})
    for b in deciding:
        for _, text in reversed(blocks[b].instrs):
            m = compiler.compare.match(text)
            if m and m.group(2) in steps:
                start = initial_value(compiler, blocks, loop.header, m.group(2))
                step = steps[m.group(2)]
                if start is None or step <= 0:
                    return None
                limit = number(m.group(3)) + (1 if m.group(1) == "gt" else 0)
                return max(1, math.ceil((limit - start) / step))
    return None


def unit_counts(compiler, instrs):
    """A block's instructions by the unit that executes them."""
    counts = {name: 0 for name, _ in compiler.units}
    for _, text in instrs:
        for name, pattern in compiler.units:
            if pattern.match(text):
                counts[name] += 1
                break
    return counts


def estimate(compiler, text, unknown_trips):
    blocks = compiler.blocks(text)
    found = find_loops(blocks)
    trip_counts = [trip_count(compiler, blocks, loop) for loop in found]
    # Outer loops first: a loop inside another has fewer blocks.
    nesting = sorted(range(len(found)), key=lambda n: -len(found[n].body))
    depth_sum = trip_sum = 0.0
    passes = [dict.fromkeys(["latency"] + [name for name, _ in compiler.units], 0.0) for _ in found]
    for i, block in enumerate(blocks):
        cycles = sum(c for c, _ in block.instrs)
        counts = dict(unit_counts(compiler, block.instrs), latency=cycles)
        enclosing = [(n, trip_counts[n]) for n in nesting if i in found[n].body]
        trips = [unknown_trips if t is None else t for _, t in enclosing]
        depth_sum += cycles * compiler.loop_weight(len(enclosing))
        trip_sum += cycles * math.prod(trips)
        # One pass through each enclosing loop: the loops inside it at their trip counts.
        for depth, (n, _) in enumerate(enclosing):
            for key, value in counts.items():
                passes[n][key] += value * math.prod(trips[depth + 1:])
    estimates = compiler.estimate.findall(text)
    result = {
        "loops": [{"header": blocks[loop.header].name, "latches": [blocks[l].name for l in sorted(loop.latches)],
                   "blocks": len(loop.body), "trips": trip_counts[n], "pass": {k: round(v) for k, v in passes[n].items()}}
                  for n, loop in enumerate(found)],
        "loop_depth_cycles": round(depth_sum),
        "trip_weighted_cycles": round(trip_sum),
        "estimate": round(float(estimates[-1])) if estimates else None,
    }
    if result["estimate"] and depth_sum:
        result["trip_weighted_estimate"] = round(result["estimate"] * trip_sum / depth_sum)
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
    scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    listing = subprocess.run([os.path.join(scripts, "gpu-proxy.sh"), "--list"], capture_output=True, text=True).stdout
    drivers = {line.split()[0]: line.split()[1] for line in listing.splitlines() if line.strip()}
    compiler = {"radeon": Aco, "nouveau": Nak}.get(drivers.get(args.gpu))
    if not compiler:
        parser.error(f"{args.gpu} is not an AMD or NVIDIA proxy (scripts/gpu-proxy.sh --list)")
    env = dict(os.environ, **{compiler.debug[0]: compiler.debug[1]})
    run = subprocess.run([os.path.join(scripts, "gpu-proxy.sh"), args.gpu] + command, env=env, capture_output=True,
                         text=True)
    result = estimate(compiler, run.stdout + run.stderr, args.unknown_trips)
    if not result["estimate"]:
        sys.stderr.write(run.stderr[-2000:])
        sys.exit(f"no compiler statistics in the output (exit status {run.returncode})")
    if not args.loops:
        result.pop("loops")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
