# shellcheck shell=bash disable=SC2154,SC2034
# Pieces shared by the scripts that run benchmarks on the lent GPU in one call
# (bench/run_gpu_suite.sh, bench/run_gpu_unproved.sh, bench/run_gpu_rows.sh,
# bench/run_gpu_matmul.sh, bench/run_gpu_scan.sh, bench/run_gpu_nested.sh); sourced,
# not run. They read the script's settings: `out` (the folder of what comes back),
# `deadline` (seconds after the script's start by which everything must end), `kerb` and
# `cudabench` (the binaries), `device` (cuda, or cpu for a dry run) and `data` (where the
# inputs go); gen_inputs and run_peers also `python`, `scale`, `peers`, `runs`, `warmup`
# and `budget`. begin_run sets `work`, `raw` and `log`.

# run_settings TAG: the settings every such script reads from the environment, with
# their defaults (KERB, CUDA_BENCH, OUT (/tmp/TAG-out), SUITE_DEVICE, SUITE_SCALE, RUNS,
# WARMUP, BUDGET, SUITE_DEADLINE, PYTHON, PEERS).
run_settings() {
  kerb=${KERB:-build-carry/kerb}
  cudabench=${CUDA_BENCH:-build-carry/kerb-cuda-bench}
  out=${OUT:-/tmp/$1-out}
  device=${SUITE_DEVICE:-cuda}
  scale=${SUITE_SCALE:-full}
  runs=${RUNS:-30}
  warmup=${WARMUP:-3}
  budget=${BUDGET:-3}
  deadline=${SUITE_DEADLINE:-285}
  python=${PYTHON:-python3}
  peers=${PEERS-jax torch}
}

# begin_run SCRIPT TAG [kerb-optional]: makes $out, the scratch folder $work
# (/tmp/TAG.XXXXXX, removed on exit) with $raw in it, and the log; checks the binaries
# (exits 2 without kerb, unless kerb-optional; sets have_kerb, and have_cuda_bench to 1
# where the hand-written CUDA is there on the GPU); writes the device's state to
# $out/device.txt.
begin_run() {
  local script=$1 tag=$2 optional=${3:-}
  mkdir -p "$out"
  work=$(mktemp -d "/tmp/$tag.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  raw=$work/raw
  mkdir -p "$raw"
  log=$out/log.txt
  : >"$log"
  have_kerb=1
  if [ ! -x "$kerb" ]; then
    if [ "$optional" != kerb-optional ]; then
      echo "$script: no kerb at $kerb (build it with bench/build_carry.sh and carry build-carry/)" >&2
      exit 2
    fi
    have_kerb=0
    say "no kerb at $kerb: its steps skipped"
  fi
  have_cuda_bench=0
  if [ "$device" = cuda ]; then
    if [ -x "$cudabench" ]; then have_cuda_bench=1; else say "no hand-written CUDA at $cudabench: skipped"; fi
  fi
  device_info "$out/device.txt"
}

# say TEXT: prints TEXT with the seconds since the start, and logs it.
say() { echo "[$(printf '%4d' "$SECONDS") s] $*" | tee -a "$log"; }

# cap N: N seconds, or less so that a step started now ends 30 s before the deadline.
cap() {
  local want=$1 left=$((deadline - SECONDS - 30))
  ((left < want)) && want=$left
  ((want < 5)) && want=5
  echo "$want"
}

# late: true when less than 45 s are left before the deadline.
late() { [ $((deadline - SECONDS)) -lt 45 ]; }

# device_info FILE: the date, kerb's version (where there is one) and the GPU's state
# (nvidia-smi) into FILE, appended to the log.
device_info() {
  {
    echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n)"
    [ ! -x "$kerb" ] || "$kerb" --version
    if command -v nvidia-smi >/dev/null; then
      nvidia-smi -L
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,power.limit,persistence_mode --format=csv
    fi
  } >"$1" 2>&1
  cat "$1" >>"$log"
}

# programs_dir DIR: prints the folder the programs of DIR (bench or bench/unproved) run
# from. On the GPU, DIR itself: its large cases read bench/data/. In a dry run, copies
# without their no_interp/no_cpu tags under $work/fut/ (the same layout below it), whose
# data/ is $data, so that the large cases read the small inputs.
programs_dir() {
  local dir=$1
  if [ "$device" = cuda ]; then
    echo "$dir"
    return
  fi
  local copy=$work/fut${dir#bench}
  mkdir -p "$copy"
  local f
  for f in "$dir"/*.fut; do sed 's/ no_interp no_cpu / /' "$f" >"$copy/$(basename "$f")"; done
  [ -e "$work/fut/data" ] || ln -s "$data" "$work/fut/data"
  echo "$copy"
}

# gen_inputs NAME...: bench/gen_data.py for each program, one process each, into $data
# ($scale); exits 1 when one fails (its log in $raw/gen_NAME.log).
gen_inputs() {
  say "generating inputs ($scale) into $data"
  mkdir -p "$data"
  local pids=() p k failed=0
  for p in "$@"; do
    timeout "$(cap 120)" "$python" bench/gen_data.py --scale "$scale" --out "$data" "$p" >"$raw/gen_$p.log" 2>&1 &
    pids+=($!)
  done
  local names=("$@")
  for k in "${!pids[@]}"; do
    wait "${pids[$k]}" || {
      say "bench/gen_data.py ${names[$k]} failed (raw/gen_${names[$k]}.log)"
      failed=1
    }
  done
  cat "$raw"/gen_*.log >>"$log"
  [ $failed = 0 ] || exit 1
}

# handwritten NAME FILE ENTRY TAG LABEL: kerb-cuda-bench NAME on $data/FILE.in (report
# $raw/cuda_TAG.json), its results checked against $data/FILE.out as entry ENTRY's
# (a line of $raw/checks.txt, LABEL).
handwritten() {
  local name=$1 file=$2 entry=$3 tag=$4 label=$5
  timeout "$(cap 60)" "$cudabench" "$name" --input "$data/$file.in" --runs "$runs" --warmup "$warmup" \
    --time-budget "$budget" --json "$raw/cuda_$tag.json" --out "$work/cuda_${tag}_" >>"$log" 2>&1 ||
    say "kerb-cuda-bench $name ($tag) failed"
  "$python" bench/check_results.py "$file" "$entry" "$data/$file.in" "$work/cuda_${tag}_"*.npy \
    --expected "$data/$file.out" --label "$label" >>"$raw/checks.txt" 2>&1 || true
  rm -f "$work/cuda_${tag}_"*.npy
}

# kerb_result PROG ENTRY FILE LABEL: `kerb run` of ENTRY of PROG (default checks) on
# $data/FILE.in, its results checked against $data/FILE.out (a line of
# $raw/checks.txt, LABEL).
kerb_result() {
  local prog=$1 entry=$2 file=$3 label=$4
  timeout "$(cap 60)" "$kerb" run "$prog" -e "$entry" --device "$device" --input "$data/$file.in" \
    --npy-out "$work/kerb_${entry}_" >/dev/null 2>>"$log" &&
    "$python" bench/check_results.py "$file" "$entry" "$data/$file.in" "$work/kerb_${entry}_"*.npy \
      --expected "$data/$file.out" --label "$label" >>"$raw/checks.txt" 2>&1 ||
    echo "FAILED $label $file:$entry" >>"$raw/checks.txt"
  rm -f "$work/kerb_${entry}_"*.npy
}

# run_peers SCRIPT NAME...: bench/peers/SCRIPT with each framework of $peers (each in
# its own process, before the deadline), reports in $raw/peers_FW.json.
run_peers() {
  local script=$1 fw left
  shift
  for fw in $peers; do
    if late; then
      say "peers: $fw skipped (the deadline is near)"
      continue
    fi
    say "peers: $fw"
    left=$((deadline - SECONDS - 60))
    timeout "$(cap 120)" "$python" "bench/peers/$script" "$fw" --data "$data" --json "$raw/peers_$fw.json" \
      --runs "$runs" --warmup "$warmup" --time-budget "$budget" --deadline "$((left > 5 ? left : 5))" \
      "$@" >>"$log" 2>&1 || say "peers: $fw exited with $?"
  done
}
