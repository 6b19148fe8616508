#!/usr/bin/env bash
# Builds Kerb and runs its whole test suite: scripts/setup.sh (installs what is
# missing, configures and builds build/), then every test through CTest. The last
# lines are CTest's summary ("100% tests passed, 0 tests failed out of N").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
ctest --test-dir build --output-on-failure -j "${KERB_JOBS:-$(nproc)}"
