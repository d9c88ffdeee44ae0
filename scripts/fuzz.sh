#!/usr/bin/env bash
# Runs the lowering's libFuzzer targets (tests/fuzz), one after the other, each for a bounded time or count:
#   scripts/fuzz.sh [--seconds N] [--seed S] [TARGET...]    (default: 600 s each, a random seed, every target)
#   scripts/fuzz.sh --runs N --seed S [TARGET...]          (N inputs each from the seeds alone)
# Builds the `fuzz` preset, seeds each target with the release build's SPIR-V (scripts/fuzz_seeds.sh),
# and keeps under build/fuzz/runs/TARGET/ the grown corpus (corpus/, reused by the next timed run and
# merged after it: only inputs that add coverage stay), the inputs that crashed (crashes/), the seeds
# (seeds/) and libFuzzer's logs (log, merge.log). Prints executions and crashes per target; exits 1
# if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
runs=0  # a bounded count instead of a bounded time: with a fixed seed, nearly the same inputs anywhere
seed=0  # libFuzzer's "random"; a fixed seed repeats the same mutations (the test suite's short run)
max_len=300000
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- parse lower_khr_coopmat lower_nv_coopmat2 lower_tile_image lower_long_composites lower_arm_tensors

bash scripts/setup.sh >/dev/null
bash scripts/build.sh fuzz

# Inputs that failed a check (crash-, leak-, timeout-, oom-); slow-unit- files only say the machine was busy.
failed_inputs() { find "$1" -type f ! -name 'slow-unit-*' | wc -l; }

# The target $target, with no allocation stacks recorded (ASan's stack depot and unwinding were 15-25%
# of a target's CPU; a crash file rerun by hand gives them back).
fuzzer() {
  scripts/env.sh env ASAN_OPTIONS="malloc_context_size=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    "build/fuzz/tests/fuzz/vkpolyfill_fuzz_$target" -max_len="$max_len" -timeout=30 "$@"
}

failed=0
for target in "$@"; do
  run=build/fuzz/runs/$target
  corpus=$run/corpus
  # Seeds per target: runs of different targets at once (one per core) each rebuild their own.
  seeds=$run/seeds
  bash scripts/fuzz_seeds.sh "$seeds" "$max_len"
  limit=(-max_total_time="$seconds")
  if [ "$runs" != 0 ]; then  # a counted run grows a corpus of its own, from the seeds alone
    corpus=$run/corpus-runs
    rm -rf "$corpus"
    limit=(-runs="$runs")
  fi
  mkdir -p "$corpus" "$run/crashes"
  before=$(failed_inputs "$run/crashes")
  start=$SECONDS
  rc=0
  # -reload=0: no other process writes this corpus, and re-reading it every second (a stat per
  # input) took 12% of a target's CPU at 3,000 inputs.
  fuzzer "${limit[@]}" -seed="$seed" -reload=0 -print_final_stats=1 -artifact_prefix="$run/crashes/" \
    "$corpus" "$seeds" >"$run/log" 2>&1 || rc=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log" | tail -n1)
  crashes=$(($(failed_inputs "$run/crashes") - before))
  echo "[fuzz] $target: ${executions:-?} executions in $((SECONDS - start)) s, $crashes crash(es)," \
       "corpus $(ls "$corpus" | wc -l) inputs (log: $run/log)"
  if [ "$runs" = 0 ] && [ "$rc" = 0 ]; then
    # The corpus on disk keeps every input that was new when found, most of them covered by later
    # ones since, and each run starts by executing all of it (lower_nv_coopmat2: 8,310 inputs, more
    # than 150 s of a 600 s run). Merging keeps the inputs that cover what they all cover.
    merged=$run/corpus.merged
    rm -rf "$merged" && mkdir -p "$merged"
    if fuzzer -merge=1 -artifact_prefix="$run/crashes/" "$merged" "$corpus" >"$run/merge.log" 2>&1; then
      rm -rf "$corpus" && mv "$merged" "$corpus"
      echo "[fuzz] $target: corpus merged to $(ls "$corpus" | wc -l) inputs (log: $run/merge.log)"
    fi
  fi
  if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
    failed=1
    grep -m3 -E '^==[0-9]+==ERROR|runtime error|fuzz check failed|^SUMMARY' "$run/log" | sed 's/^/[fuzz]   /' || true
  fi
done
exit $failed
