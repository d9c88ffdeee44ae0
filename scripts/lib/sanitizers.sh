# The sanitizer presets' run-time options, for runs of their tests that bypass `ctest --preset` (test.sh's
# conformance run), which gets the same from CMakePresets.json. Sourced from the repository root.
#   ASan + UBSan: leaks checked (lavapipe 25's own leaks suppressed: tests/vulkan/lsan.supp), stack traces
#   for UBSan's reports (the preset builds with -fno-sanitize-recover, so the first one ends the test).
#   TSan: races inside lavapipe suppressed (tests/vulkan/tsan.supp says which and why).
sanitizer_environment() {
  local supp=$PWD/tests/vulkan
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$supp/lsan.supp}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
  export TSAN_OPTIONS=${TSAN_OPTIONS:-suppressions=$supp/tsan.supp}
}

# A report fails its test through the exit code, except in a test that skipped: ctest's skip
# expression wins over the exit code. So the log of the last ctest run is searched as well.
sanitizer_reports() {
  local log=$1/Testing/Temporary/LastTest.log
  if grep -qE '^(==[0-9]+==ERROR: [A-Za-z]+Sanitizer|WARNING: ThreadSanitizer|.*: runtime error: )' "$log"; then
    echo "[sanitizers] reports in $log:" >&2
    grep -nE '^(==[0-9]+==ERROR: [A-Za-z]+Sanitizer|WARNING: ThreadSanitizer|.*: runtime error: )|^[0-9]+/[0-9]+ Testing: ' "$log" |
      grep -B1 -E 'Sanitizer|runtime error' | grep -v '^--$' >&2
    return 1
  fi
}
