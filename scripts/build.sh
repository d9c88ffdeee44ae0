#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release) inside the prepared environment:
# `scripts/build.sh [preset]`. Run scripts/setup.sh first (test.sh and demo.sh do).
set -euo pipefail
preset=${1:-release}
cd "$(dirname "$0")/.."
exec scripts/env.sh bash -c "cmake --preset '$preset' >/dev/null && cmake --build --preset '$preset'"
