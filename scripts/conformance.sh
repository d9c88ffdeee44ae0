#!/usr/bin/env bash
# The project's suites as a CTS-style conformance run on every driver (docs/testing.md, "Conformance runs"):
#   scripts/conformance.sh [--case GLOB] [--quick] [--spread LABEL] [--spread-case GLOB] [--dump-spirv DIR]
#                          [--icd NAME=JSON] [--fail-on-gaps] [--results DIR] [-j N] [ctest arguments...]
# Runs what the build tree (VKPOLYFILL_BUILD_DIR, default build/release) has built; scripts/build.sh
# builds it. Exits non-zero when a case fails.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/env.sh python3 scripts/conformance/main.py "$@"
