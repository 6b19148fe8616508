#!/usr/bin/env bash
# On the lent GPU machine, in one device call of about 8 minutes: everything that proves
# the compiler correct on the GPU, with the machine's 16 cores kept busy.
#   - the corpus on cuda, the toggles test and the corpus under memcheck
#     (run_gpu_corpus.sh), then the bandwidth goal (run_gpu_bandwidth.sh) and the C
#     library (run_gpu_library.sh), one after another in the foreground;
#   - beside them: kerb difftest on interp,cpu,cuda (run_gpu_difftest.sh: DT_PROGRAMS
#     programs x 10 inputs in DT_SHARDS processes from seed DT_SEED) and, when the fuzz
#     targets are carried, front-end fuzzing (scripts/fuzz.sh --no-build: the four
#     targets at once, FUZZ_WORKERS processes each for FUZZ_SECONDS).
# Carry CARRY (default build-carry-a/) holding kerb.gz, library/ and optionally
# fuzz/fuzz_*.gz (gzip keeps the call under the 64 MiB it may carry). Logs under $OUT;
# a table of every part is last.
set -uo pipefail
cd "$(dirname "$0")/../.."
carry=${CARRY:-build-carry-a}
out=${OUT:-/tmp/kerb-gpu}
mkdir -p "$out" build-carry
gunzip -c "$carry/kerb.gz" >build-carry/kerb && chmod +x build-carry/kerb || exit 2
rm -rf build-carry/library && cp -r "$carry/library" build-carry/library
start=$(date +%s)
pids=()
if ls "$carry"/fuzz/fuzz_*.gz >/dev/null 2>&1; then
  mkdir -p build-fuzz/tests/fuzz
  for f in "$carry"/fuzz/fuzz_*.gz; do
    b=build-fuzz/tests/fuzz/$(basename "$f" .gz)
    gunzip -c "$f" >"$b" && chmod +x "$b"
  done
  for t in lexer parser type_check values; do
    scripts/fuzz.sh --no-build --workers "${FUZZ_WORKERS:-3}" "${FUZZ_SECONDS:-300}" "$t" >"$out/fuzz-$t.txt" 2>&1 &
    pids+=($!)
  done
fi
OUT=$out timeout 420 bash tests/gpu/run_gpu_difftest.sh build-carry/kerb gpu interp,cpu,cuda \
  "${DT_SEED:-100000}" "${DT_PROGRAMS:-1000}" 10 "${DT_SHARDS:-3}" "${DT_SECONDS:-300}" >"$out/difftest.txt" 2>&1 &
dt_pid=$!
OUT=$out timeout 330 bash tests/gpu/run_gpu_corpus.sh build-carry/kerb >"$out/corpus.txt" 2>&1
echo "corpus exit $? at $(( $(date +%s) - start )) s" >>"$out/times.txt"
OUT=$out/bandwidth timeout 90 bash tests/gpu/run_gpu_bandwidth.sh build-carry/kerb >"$out/bandwidth.txt" 2>&1
echo "bandwidth exit $? at $(( $(date +%s) - start )) s" >>"$out/times.txt"
OUT=$out/library timeout 120 bash tests/gpu/run_gpu_library.sh >"$out/library.txt" 2>&1
echo "library exit $? at $(( $(date +%s) - start )) s" >>"$out/times.txt"
wait "$dt_pid"
echo "difftest exit $? at $(( $(date +%s) - start )) s" >>"$out/times.txt"
for p in "${pids[@]}"; do wait "$p"; done
echo "fuzz done at $(( $(date +%s) - start )) s" >>"$out/times.txt"
if [ -d build-fuzz/logs ]; then cp -r build-fuzz/logs "$out/fuzz-logs"; fi
if [ -d build-fuzz/artifacts ]; then cp -r build-fuzz/artifacts "$out/fuzz-artifacts"; fi
cat "$out/times.txt"
for part in corpus bandwidth library; do
  echo "== $part"
  sed -n '/^| /,$p' "$out/$part.txt" | tail -12
done
echo "== difftest"
tail -3 "$out/difftest.txt"
echo "== fuzz"
cat "$out"/fuzz-*.txt 2>/dev/null | grep '^fuzz: .*:' | head -20
