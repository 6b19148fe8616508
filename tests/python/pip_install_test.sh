#!/usr/bin/env bash
# `pip install .` of the Python package (pyproject.toml: a pure-Python wheel built by
# setuptools) into a fresh virtual environment, offline: --no-build-isolation with
# Debian's python3-setuptools and python3-wheel (seen through --system-site-packages, as
# is numpy), --no-deps and --no-index, so that nothing is downloaded. Then the installed
# copy, imported from outside the checkout, compiles tests/python/prog.fut with the kerb
# named by $KERB and runs it on the cpu device (registered with CTest).
# Usage: pip_install_test.sh KERB PYTHON OUT
set -euo pipefail
kerb=$1
python=$2
out=$3
cd "$(dirname "$0")/../.."
src=$PWD
rm -rf "$out"
mkdir -p "$out"
"$python" -m venv --system-site-packages "$out/venv"
"$out/venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps --no-index "$src"
rm -rf "$src/build-python" "$src/python/kerb.egg-info" # what setuptools leaves (pyproject.toml)
cd "$out"
KERB=$kerb KERB_CACHE_DIR=$out/cache "$out/venv/bin/python" - "$src/tests/python/prog.fut" <<'PY'
import sys
import numpy as np
import kerb
where = kerb.__file__
assert "/venv/" in where, "kerb imported from %s, not the installed copy" % where
p = kerb.compile(sys.argv[1], device="cpu")
got = p.gather(np.array([1.5, 2.5, 3.5], dtype=np.float32), np.array([2, 0]))
assert got.tolist() == [3.5, 1.5], got
try:
    p.gather(np.zeros(3, dtype=np.float32), np.array([3]))
    raise SystemExit("no CheckError")
except kerb.CheckError as e:
    assert "out of bounds" in e.message, e
print("pip_install_test: kerb %s installed at %s works" % (kerb.__version__, where))
PY
