#!/usr/bin/env bash
# The main job, on the default Vulkan device (lavapipe when there is no GPU): sets up if needed,
# builds, then shows what the layer adds to that device and what it decides for each capability.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
bash scripts/build.sh release >/dev/null
exec scripts/env.sh bash scripts/lib/demo-inside.sh
