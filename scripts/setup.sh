#!/usr/bin/env bash
# Sets up a Debian 12 machine for Kerb: installs every Debian package that the build
# and the tests need (only those missing; sudo only when not root), reports the CUDA
# toolkit at /usr/local/cuda if there is one (it is found, never installed), then
# configures and builds Kerb into build/. Safe to run again: it redoes only what is
# needed. KERB_JOBS sets the build's parallelism (default: all cores).
#
#   scripts/setup.sh [--fuzz] [--no-build]
#
# --fuzz also installs clang-14 and libFuzzer (libclang-rt-14-dev) for scripts/fuzz.sh;
# --no-build only installs packages.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(build-essential cmake ninja-build llvm-19-dev libzstd-dev libedit-dev
          libfmt-dev catch2 python3 python3-numpy python3-venv python3-setuptools python3-wheel)
build=1
for arg in "$@"; do
  case $arg in
    --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    --no-build) build=0 ;;
    *) echo "setup: error: unknown option '$arg' (scripts/setup.sh [--fuzz] [--no-build])" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} > 0)); then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "setup: error: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages are installed"
fi

if [ -x /usr/local/cuda/bin/ptxas ] || [ -f /usr/local/cuda/include/cuda.h ]; then
  echo "setup: found the CUDA toolkit at /usr/local/cuda"
else
  echo "setup: no CUDA toolkit at /usr/local/cuda (not needed by this build)"
fi

if ((build == 0)); then exit 0; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERB_WERROR=ON
cmake --build build -j "${KERB_JOBS:-$(nproc)}"
echo "setup: built build/kerb"
