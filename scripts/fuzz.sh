#!/usr/bin/env bash
# Runs the lowering's libFuzzer targets (tests/fuzz), one after the other, each for a bounded time or count:
#   scripts/fuzz.sh [--seconds N] [--seed S] [--jobs J] [TARGET...]
#       (default: 600 s each, a random seed, 1 process, every target)
#   scripts/fuzz.sh --runs N --seed S [--jobs J] [TARGET...]     (N inputs each from the seeds alone)
# --jobs J runs J processes of each target at once (one per core), each growing a corpus of its own;
# the executions printed are their sum, and the merge afterwards folds their corpora into one.
# Builds the `fuzz` preset, seeds each target with the release build's SPIR-V (scripts/fuzz_seeds.sh),
# and keeps under build/fuzz/runs/TARGET/ the grown corpus (corpus/, reused by the next timed run and
# merged after it: only inputs that add coverage stay), the inputs that crashed (crashes/), the seeds
# (seeds/) and libFuzzer's logs (log, and log.2 ... of the other processes; merge.log). Prints
# executions and crashes per target; exits 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
runs=0  # a bounded count instead of a bounded time: with a fixed seed, nearly the same inputs anywhere
seed=0  # libFuzzer's "random"; a fixed seed repeats the same mutations (the test suite's short run)
jobs=1
max_len=300000
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) break ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs takes a count of processes, not '$jobs'" >&2; exit 2; }
[ $# -gt 0 ] || set -- parse lower_khr_coopmat lower_nv_coopmat2 lower_tile_image lower_long_composites lower_arm_tensors lower_float16

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
    rm -rf "$corpus" "$corpus".[0-9]*
    limit=(-runs="$runs")
  fi
  mkdir -p "$corpus" "$run/crashes"
  before=$(failed_inputs "$run/crashes")
  start=$SECONDS
  # Process j writes its own corpus (corpus, corpus.2, ...) and log (log, log.2, ...); every process
  # starts from the kept corpus and the seeds. A fixed seed S gives process j the seed S + j - 1.
  corpora=() logs=() pids=()
  for j in $(seq 1 "$jobs"); do
    suffix=$([ "$j" = 1 ] || echo ".$j")
    corpora+=("$corpus$suffix") logs+=("$run/log$suffix")
    mkdir -p "$corpus$suffix"
    # -reload=0: no other process writes this corpus, and re-reading it every second (a stat per
    # input) took 12% of a target's CPU at 3,000 inputs.
    fuzzer "${limit[@]}" -seed="$([ "$seed" = 0 ] && echo 0 || echo $((seed + j - 1)))" -reload=0 \
      -print_final_stats=1 -artifact_prefix="$run/crashes/" "$corpus$suffix" \
      $([ "$j" = 1 ] || echo "$corpus") "$seeds" >"$run/log$suffix" 2>&1 &
    pids+=($!)
  done
  rc=0
  for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
  executions=$(cat "${logs[@]}" | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{n += $1} END {print n}')
  crashes=$(($(failed_inputs "$run/crashes") - before))
  echo "[fuzz] $target: ${executions:-?} executions in $((SECONDS - start)) s ($jobs process(es)), $crashes crash(es)," \
       "corpus $(find "${corpora[@]}" -type f | wc -l) inputs (log: ${logs[*]})"
  if [ "$runs" = 0 ] && [ "$rc" = 0 ]; then
    # The corpus on disk keeps every input that was new when found, most of them covered by later
    # ones since, and each run starts by executing all of it (lower_nv_coopmat2: 8,310 inputs, more
    # than 150 s of a 600 s run). Merging keeps the inputs that cover what they all cover, the
    # processes' corpora folded into one.
    merged=$run/corpus.merged
    rm -rf "$merged" && mkdir -p "$merged"
    if fuzzer -merge=1 -artifact_prefix="$run/crashes/" "$merged" "${corpora[@]}" >"$run/merge.log" 2>&1; then
      rm -rf "${corpora[@]}" && mv "$merged" "$corpus"
      echo "[fuzz] $target: corpus merged to $(ls "$corpus" | wc -l) inputs (log: $run/merge.log)"
    fi
  fi
  if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
    failed=1
    for log in "${logs[@]}"; do
      grep -m3 -E '^==[0-9]+==ERROR|runtime error|fuzz check failed|^SUMMARY' "$log" | sed 's/^/[fuzz]   /' || true
    done
  fi
done
exit $failed
