#!/usr/bin/env bash
# Gathers the fuzzing seed corpus: every .spv the release build compiled (its shaders/ and tests/),
# up to the fuzzers' input limit, and the bad-input corpus (tests/bad_input, assembled: modules one
# broken rule away from valid ones, near the lowering's error paths), into one flat directory.
#   scripts/fuzz_seeds.sh OUT_DIR [MAX_BYTES]      (build/release is built first if it has none)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1 max=${2:-300000}
release=build/release
if [ -z "$(find "$release/shaders" "$release/tests" -name '*.spv' 2>/dev/null | head -n1)" ]; then
  bash scripts/build.sh release
fi
rm -rf "$out" && mkdir -p "$out"
kept=0 skipped=0
while IFS= read -r -d '' spv; do
  if [ "$(stat -c %s "$spv")" -gt "$max" ]; then skipped=$((skipped + 1)); continue; fi
  cp "$spv" "$out/$(echo "${spv#"$release"/}" | tr / _)"
  kept=$((kept + 1))
done < <(find "$release/shaders" "$release/tests" -name '*.spv' -print0 | sort -z)
scripts/env.sh bash -c 'for f in tests/bad_input/*.spvasm; do
  spirv-as --preserve-numeric-ids --target-env spv1.6 "$f" -o "$0/bad_input_$(basename "$f" .spvasm).spv"
done' "$out"
echo "[fuzz] seeds: $kept modules from $release ($skipped above $max bytes left out)," \
     "$(ls "$out"/bad_input_*.spv | wc -l) from tests/bad_input"
