#!/usr/bin/env python3
"""scripts/gpu/loop_weighted_cycles.py on excerpts shaped like ACO's and NAK's dumps: the loops it
finds, their trip counts and the weighted sums, against the figures worked out by hand below."""
import importlib.util
import os
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "gpu", "loop_weighted_cycles.py")
spec = importlib.util.spec_from_file_location("loop_weighted_cycles", SCRIPT)
lwc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lwc)

# An engine's loop over K (bounded by a register: trips unknown) around 8 steps, each a streamed
# multiply-add of 64 iterations (ACO_DEBUG=perfinfo's format).
ACO = """After lowering to hw instructions:
BB0
/* logical preds: / linear preds: / kind: uniform, top-level, */
\t(  2 clk)   s1 = s_mov_b32 0
BB1
/* logical preds: BB0, BB5, / linear preds: BB0, BB5, / kind: uniform, loop-header, */
\t(  1 clk)   scc = s_cmp_ge_u32 s1, s0
\t(  1 clk)   s_cbranch_scc1 block:BB6
\t(  1 clk)   s49 = s_mov_b32 0
BB2
/* logical preds: BB1, BB4, / linear preds: BB1, BB4, / kind: uniform, loop-preheader, loop-header, */
\t(  1 clk)   s51 = s_mov_b32 0
BB3
/* logical preds: BB2, BB3, / linear preds: BB2, BB3, / kind: uniform, loop-header, */
\t(  2 clk)   v0 = v_fma_mix_f32 lo(v1[0:16]), hi(v2), v0
\t(  2 clk)   v1[0:16] = ds_read_u16_d16 v4 storage:shared
\t(  1 clk)   s51, scc = s_add_u32 s51, 1
\t(  1 clk)   scc = s_cmp_ge_u32 s51, 64
\t(  1 clk)   s_cbranch_scc0 block:BB3
BB4
/* logical preds: BB3, / linear preds: BB3, / kind: uniform, loop-exit, */
\t(  1 clk)   s49, scc = s_add_u32 s49, 1
\t(  1 clk)   scc = s_cmpk_ge_u32 s49 imm:8
\t(  1 clk)   s_cbranch_scc0 block:BB2
BB5
/* logical preds: BB4, / linear preds: BB4, / kind: uniform, */
\t(  1 clk)   s1, scc = s_add_u32 s1, 1
\t(  1 clk)   s_branch block:BB1
BB6
/* logical preds: BB1, / linear preds: BB1, / kind: uniform, loop-exit, */
\t(  1 clk)   s_endpgm
  compute: Latency=700; Inverse Throughput=1000; VMEM Clause=0;
"""

# One loop of 32 iterations counting a uniform register (NAK_DEBUG=print after calc_instr_deps).
NAK = """NAK IR after calc_instr_deps:
block.u 0 L2 [] -> {
      ur4       = mov rZ                                      // delay=1
} -> [1]
block.u 1 L3 [0, 1] -> {
      r1        = ffma.ftz r2 r3 r1                           // delay=2
      r5        = ld.shared.strong.cta.b32 [r6], pT           // delay=1
      ur4       = iadd3 ur4 0x1 rZ                            // delay=4
      up0       = isetp.ge.u32 ur4 0x20                       // delay=6
@!p1              bra pT L3                                   // delay=1
} -> [2, 1]
block.u 2 L4 [1] -> {
                  exit                                        // delay=1
} -> []
  compute: Instruction count=9; Static cycle count=500; Max warps/SM=16;
"""

# A loop whose latch (a block of spill reloads) NAK placed after the loop's exit: the loop is its
# header and latch, not the exit between them.
NAK_LATCH_AFTER_EXIT = """NAK IR after calc_instr_deps:
block.u 0 L0 [] -> {
      ur4       = mov rZ                                      // delay=1
} -> [1]
block.u 1 L1 [0, 3] -> {
      r1        = ffma.ftz r2 r3 r1                           // delay=2
      ur4       = iadd3 ur4 0x2 rZ                            // delay=1
      up0       = isetp.ge.u32 ur4 0x10                       // delay=1
} -> [2, 3]
block.u 2 L2 [1] -> {
                  exit                                        // delay=5
} -> []
block.u 3 L3 [1] -> {
      r7        = ld.local.strong.cta.b32 [rZ+0x10], pT       // delay=3
                  bra pT L1                                   // delay=1
} -> [1]
  compute: Static cycle count=1.79059e+06;
"""


# A loop with a divergent branch ("block N", no ".u") and a divergent exit block: each is a block
# of its own, the branch inside the loop and the exit outside it.
NAK_DIVERGENT = """NAK IR after calc_instr_deps:
block.u 0 L0 [] -> {
      ur4       = mov rZ                                      // delay=1
} -> [1]
block.u 1 L1 [0, 3] -> {
      p0        = isetp.ge.u32 r0 c[0x0][0x8]                 // delay=2
@!p0              bra pT L3                                   // delay=1
} -> [2, 3]
block 2 L2 [1] -> {
      r1        = ffma.ftz r2 r3 r1                           // delay=6
} -> [3]
block.u 3 L3 [1, 2] -> {
      ur4       = iadd3 ur4 0x1 rZ                            // delay=1
      up0       = isetp.ge.u32 ur4 0x4                        // delay=1
} -> [4, 1]
block 4 L4 [3] -> {
      r5        = ld.global.a64.strong.gpu.b32 [r6], pT       // delay=40
} -> [5]
block.u 5 L5 [4] -> {
                  exit                                        // delay=1
} -> []
  compute: Static cycle count=100;
"""

# The GTX 1080's NAK (Pascal): no iadd3 and no uniform registers, so a loop counts with iadd2.
NAK_PASCAL = """NAK IR after calc_instr_deps:
block.u 0 L0 [] -> {
      r91       = mov rZ                                          // delay=1
} -> [1]
block.u 1 L1 [0, 2] -> {
                  pcnt L1                                         // delay=13
      r93       = ld.shared.strong.cta.b32 [r92+0x20], pT         // delay=1
      r91       = iadd2 r91 0x1                                   // delay=1
      r94       = iadd2 r91 r95                                   // delay=1
      p2        = isetp.ge.u32 r91 0x20                           // delay=1
} -> [2, 3]
block.u 2 L2 [1] -> {
                  cont L1                                         // delay=13
} -> [1]
block.u 3 L3 [1] -> {
                  exit                                            // delay=1
} -> []
  compute: Static cycle count=1000;
"""


class LoopWeightedCycles(unittest.TestCase):
    def test_aco_nested_loops_at_their_trip_counts(self):
        result = lwc.estimate(lwc.Aco, ACO, 1.0)
        self.assertEqual([(l["header"], l["latches"], l["blocks"], l["trips"]) for l in result["loops"]],
                         [(1, [5], 5, None), (2, [4], 3, 8), (3, [3], 1, 64)])
        inner, middle, outer = (l["pass"] for l in reversed(result["loops"]))
        self.assertEqual(inner, {"latency": 7, "valu": 1, "lds": 1, "vmem": 0, "salu": 2})
        # 1 + 64 x 7 + 3 cycles; the mov, 64 x (add, compare), add and compare
        self.assertEqual(middle, {"latency": 452, "valu": 64, "lds": 64, "vmem": 0, "salu": 131})
        self.assertEqual(outer["latency"], 3 + 8 * 452 + 2)
        self.assertEqual(result["trip_weighted_cycles"], 2 + 3621 + 1)
        # ACO's weights: 1, 8, 32, 64 by depth
        self.assertEqual(result["loop_depth_cycles"], 2 + 3 * 8 + 1 * 32 + 7 * 64 + 3 * 32 + 2 * 8 + 1)
        self.assertEqual(result["estimate"], 1000)
        self.assertEqual(result["trip_weighted_estimate"], round(1000 * 3624 / 619))

    def test_aco_unknown_trips_as_asked(self):
        result = lwc.estimate(lwc.Aco, ACO, 16.0)
        self.assertEqual(result["trip_weighted_cycles"], 2 + 16 * 3621 + 1)

    def test_nak_uniform_counter(self):
        result = lwc.estimate(lwc.Nak, NAK, 1.0)
        self.assertEqual(result["loops"], [{"header": 1, "latches": [1], "blocks": 1, "trips": 32,
                                            "pass": {"latency": 14, "shared": 1, "memory": 0, "uniform": 2, "alu": 1}}])
        self.assertEqual(result["trip_weighted_cycles"], 1 + 32 * 14 + 1)
        self.assertEqual(result["loop_depth_cycles"], 1 + 10 * 14 + 1)  # NAK weighs one loop 10
        self.assertEqual(result["trip_weighted_estimate"], round(500 * 450 / 142))

    def test_nak_loop_of_blocks_apart(self):
        result = lwc.estimate(lwc.Nak, NAK_LATCH_AFTER_EXIT, 1.0)
        self.assertEqual(result["loops"], [{"header": 1, "latches": [3], "blocks": 2, "trips": 8,
                                            "pass": {"latency": 8, "shared": 0, "memory": 1, "uniform": 2, "alu": 1}}])
        self.assertEqual(result["trip_weighted_cycles"], 1 + 8 * 8 + 5)
        self.assertEqual(result["loop_depth_cycles"], 1 + 10 * 8 + 5)
        self.assertEqual(result["estimate"], 1790590)  # printed as %g past a million

    def test_nak_divergent_blocks(self):
        result = lwc.estimate(lwc.Nak, NAK_DIVERGENT, 1.0)
        self.assertEqual(result["loops"], [{"header": 1, "latches": [3], "blocks": 3, "trips": 4,
                                            "pass": {"latency": 11, "shared": 0, "memory": 0, "uniform": 2, "alu": 2}}])
        self.assertEqual(result["trip_weighted_cycles"], 1 + 4 * 11 + 40 + 1)

    def test_nak_pascal_counter(self):
        result = lwc.estimate(lwc.Nak, NAK_PASCAL, 1.0)
        self.assertEqual([(l["header"], l["blocks"], l["trips"]) for l in result["loops"]], [(1, 2, 32)])
        self.assertEqual(result["loops"][0]["pass"]["latency"], 17 + 13)
        # iadd2 with a register operand is not a counter
        text = NAK_PASCAL.replace("r91       = iadd2 r91 0x1", "r91       = iadd2 r91 r96")
        self.assertEqual([l["trips"] for l in lwc.estimate(lwc.Nak, text, 1.0)["loops"]], [None])

    def test_a_counter_without_a_known_start_is_unknown(self):
        text = ACO.replace("\t(  1 clk)   s51 = s_mov_b32 0\n", "\t(  1 clk)   s51 = s_mov_b32 s7\n")
        self.assertEqual([l["trips"] for l in lwc.estimate(lwc.Aco, text, 1.0)["loops"]], [None, 8, None])


if __name__ == "__main__":
    unittest.main()
