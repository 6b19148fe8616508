#!/usr/bin/env bash
# CLI tests of the `kerb` command (registered with CTest in tests/CMakeLists.txt):
# exit statuses, messages and outputs of `kerb run`, `kerb check`, `kerb test` and
# the help. Usage: cli_test.sh PATH/TO/kerb tests/cli
set -uo pipefail

kerb=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

# run STATUS STDIN CMD...: runs `kerb CMD...` with STDIN, expects exit status STATUS.
# Leaves stdout in $out and stderr in $err.
run() {
  local want=$1 input=$2
  shift 2
  printf '%s' "$input" | "$kerb" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
  last="kerb $*"
  checks=$((checks + 1))
  if [ "$got" != "$want" ]; then
    echo "FAIL: $last: exit status $got, expected $want"
    echo "  stdout: $out"
    echo "  stderr: $err"
    failures=$((failures + 1))
  fi
}

# has WHICH TEXT: $out or $err (WHICH = out|err) contains TEXT (a fixed string).
has() {
  local text
  if [ "$1" = out ]; then text=$out; else text=$err; fi
  checks=$((checks + 1))
  if ! grep -qF -- "$2" <<<"$text"; then
    echo "FAIL: $last: std$1 lacks: $2"
    echo "  stdout: $out"
    echo "  stderr: $err"
    failures=$((failures + 1))
  fi
}

# is WHICH TEXT: $out or $err is exactly TEXT.
is() {
  local text
  if [ "$1" = out ]; then text=$out; else text=$err; fi
  checks=$((checks + 1))
  if [ "$text" != "$2" ]; then
    echo "FAIL: $last: std$1 is:"
    echo "$text"
    echo "  expected:"
    echo "$2"
    failures=$((failures + 1))
  fi
}

# Programs whose tests fail on purpose are kept as .fut.in, so that `kerb test tests/`
# does not pick them up; they are copied to $tmp/failing as .fut files here.
mkdir -p "$tmp/failing"
for f in "$dir"/failing/*.fut.in; do
  cp "$f" "$tmp/failing/$(basename "$f" .in)"
done

g=$dir/gather.fut

# Help, version and usage errors.
run 0 '' --help;            has out 'Usage: kerb'; has out 'compile'; has out 'bench'
run 0 '' --version;         has out 'kerb '
run 0 '' help run;          has out '--npy-out'
for cmd in check run dataset test compile config bench; do
  run 0 '' "$cmd" --help;   has out "kerb $cmd"
done
run 2 '';                   has err 'Usage: kerb'
run 2 '' frobnicate;        has err "kerb: error: unknown command 'frobnicate'"
run 2 '' --frob;            has err 'kerb: error: unknown option'
run 2 '' run "$g" --frob;   has err "kerb: error: unknown option '--frob'"
run 2 '' run;               has err 'kerb: error:'
run 2 '' run "$g" -e;       has err "option '-e' needs a value"
run 2 '' compile "$g";      has err "needs --emit=ptx, llvm, kernels or ir, or --library"
run 0 '' compile "$g" --emit=ptx -o "$tmp/g.ptx"
checks=$((checks + 1))
grep -q '.entry kerb_kernel_0_map' "$tmp/g.ptx" || { echo "FAIL: compile -o wrote no PTX"; failures=$((failures + 1)); }
run 2 '' compile "$g" --emit=ptx -o "$tmp/no/such/dir/g.ptx"; has err "cannot write"

# kerb compile --library and kerb config (tests/library/ builds and runs libraries).
run 2 '' compile "$g" --library;                  has err 'needs -o DIR/NAME'
run 2 '' compile "$g" --library --emit=ptx -o "$tmp/g"; has err 'do not go together'
run 2 '' compile "$g" --emit=ptx --cpu=native;    has err '--cpu goes with --library'
run 2 '' compile "$g" --library -o "$tmp/no/dir/g"; has err "no directory '$tmp/no/dir'"
run 2 '' compile "$g" --library -o "$tmp/";       has err "must end in the library's name"
run 2 '' compile "$g" --library --cpu=pentium9 -o "$tmp/g"; has err "unknown CPU 'pentium9'"
run 1 '' compile "$dir/bad_type.fut" --library -o "$tmp/bad"; has err 'error:'
run 0 '' compile "$g" --library -o "$tmp/gather-lib"
checks=$((checks + 2))
[ -s "$tmp/libgather-lib.a" ] || { echo "FAIL: compile --library wrote no libgather-lib.a"; failures=$((failures + 1)); }
grep -q 'int kerb_entry_main(struct kerb_context \*ctx, struct kerb_i32_1d \*\*out0, const struct kerb_i32_1d \*in0, const struct kerb_i64_1d \*in1);' "$tmp/gather-lib.h" ||
  { echo "FAIL: gather-lib.h lacks kerb_entry_main"; failures=$((failures + 1)); }
run 0 '' config --cflags --libs;  has out '-I'; has out '-lkerb_runtime -lstdc++ -lm -ldl -lpthread'
run 0 '' config --include-dir;    is out "$(cd "$(dirname "$kerb")" && pwd -P)/include"
run 2 '' config;                  has err "needs an option"
run 2 '' config --frob;           has err "unknown option '--frob' for 'kerb config'"

# kerb run: good input, a failing check, bad input values.
run 0 '[1, 2, 3] [0, 2]' run "$g";                     is out '[1i32, 3i32]'
run 0 '[1, 2, 3] [0, 2]' run "$g" --device interp;     is out '[1i32, 3i32]'
run 1 '[1, 2, 3] [0, 7]' run "$g"
has err "Error: Index [7] out of bounds for array of shape [3]."
has err "at $g:3:"
run 2 '[1, 2, 3]' run "$g";             has err "kerb: error: entry 'main' expects 2 arguments, got 1"
run 2 '[1] [0] [0]' run "$g";           has err "entry 'main' expects 2 arguments, got 3"
run 2 '[1, 2, 3] [1.5]' run "$g";       has err "kerb: error: argument 2 ('is') of entry 'main': stdin:1:"
run 2 '[1, 2, 3] 1' run "$g";           has err "argument 2 ('is')"
run 2 '[1, 2, 3] [0' run "$g";          has err 'kerb: error:'
# The CPU device runs compiled code, with the same results and failures.
run 0 '[1, 2, 3] [0, 2]' run "$g" --device cpu;        is out '[1i32, 3i32]'
run 1 '[1, 2, 3] [0, 7]' run "$g" --device cpu
has err "Error: Index [7] out of bounds for array of shape [3]."
has err "at $g:3:"
run 0 '4' run "$g" -e split --device cpu;             is out "$(printf '8i32\ntrue')"
run 0 '[1, 2] [0.5, 1.5]' run "$g" -e pairs --device cpu
is out "$(printf '[1i32, 2i32]\n[0.5f32, 1.5f32]')"
run 0 '3 4' run "$g" -e add_pair --device cpu;        is out '7i32'
run 2 '1 [0]' run "$g" --device cpu;    has err "argument 1 ('xs')"
# Without a GPU (CI), the cuda device says why it is not there; with one it runs.
printf '[1, 2, 3] [0, 2]' | "$kerb" run "$g" --device cuda >"$tmp/out" 2>"$tmp/err"
status=$?
checks=$((checks + 1))
if [ $status -eq 2 ]; then
  grep -q "the cuda device is not available" "$tmp/err" || { echo "FAIL: cuda: $(cat "$tmp/err")"; failures=$((failures + 1)); }
elif [ $status -ne 0 ] || [ "$(cat "$tmp/out")" != '[1i32, 3i32]' ]; then
  echo "FAIL: kerb run --device cuda: status $status: $(cat "$tmp/out" "$tmp/err")"
  failures=$((failures + 1))
fi
run 2 '1 [0]' run "$g" --device tpu;    has err "unknown device 'tpu'"
run 2 '' run "$dir/no_such.fut";        has err "kerb: error: cannot open"
run 2 '' run "$g" -e nope;              has err "has no entry point 'nope'"
# --possible-failures: two elements of one map fail at two sites; the interpreter
# reports the first element's failure and lists both as failures compiled code may report.
tf=$dir/two_failures.fut
run 1 '[1, 2, 3] [7, 0, -1]' run "$tf" --possible-failures
has err "Error: Index [7] out of bounds for array of shape [3]."
checks=$((checks + 1))
[ "$(grep -A1 '^Possible failure: ' <<<"$err")" = "$(printf '%s\n' \
    'Possible failure: Index [7] out of bounds for array of shape [3].' "at $tf:5:44-48" \
    'Possible failure: Index [9] out of bounds for array of shape [3].' "at $tf:5:28-37")" ] ||
  { echo "FAIL: $last: not the 2 possible failures: $err"; failures=$((failures + 1)); }
run 0 '[1, 2, 3] [2, 0, -8]' run "$tf" --possible-failures;  is out '[3i32, 1i32, 3i32]'
checks=$((checks + 1))
! grep -q 'Possible failure' <<<"$err" || { echo "FAIL: $last: $err"; failures=$((failures + 1)); }
run 2 '' run "$tf" --possible-failures --device cpu;  has err "--possible-failures needs --device interp"

# Tuple results are split, arrays of tuples unzipped, tuple parameters read flat.
run 0 '3' run "$g" -e split;                 is out $'6i32\ntrue'
run 0 '[1, 2] [0.5, 1.5]' run "$g" -e pairs; is out $'[1i32, 2i32]\n[0.5f32, 1.5f32]'
run 0 '4 5' run "$g" --entry=add_pair;       is out '9i32'
run 0 '' run "$g" -e constant;               is out '42i32'

# --input files (text and .npy) and --npy-out.
printf '[5, 6, 7]\n' >"$tmp/xs.in"
printf '[2i64]\n' >"$tmp/is.in"
run 0 '' run "$g" --input "$tmp/xs.in" --input "$tmp/is.in";  is out '[7i32]'
run 2 '' run "$g" --input "$tmp/missing.in";                   has err 'kerb: error:'
run 0 '[5, 6, 7] [2, 1]' run "$g" --npy-out "$tmp/r";          is out ''
run 0 '[0, 1]' run "$g" --input "$tmp/r0.npy" --input -;      is out '[7i32, 6i32]'
run 2 '' run "$g" --input "$tmp/r0.npy" --input "$tmp/r0.npy"
has err "argument 2 ('is') of entry 'main'"

# kerb check.
run 0 '' check "$g";                       is out ''
run 1 '' check "$dir/bad_type.fut";        has err "bad_type.fut:2:"; has err 'error:'
run 0 '' check "$g" --emit=typed-ast;      has out 'main'
run 0 '' check "$g" --emit=tokens;         has out 'entry'
run 0 '' check "$g" --emit=ptx;            has out '.entry kerb_kernel_0_map'
run 0 '' check "$g" --emit=ir;             has out 'map'; has out '@site 0'
run 0 '' check "$g" --emit=llvm;           has out 'define i32 @kerb_entry_main'
# A constant array literal (a string's bytes) is one constant global, not a store per
# element (which took LLVM 20 s for 20,000 bytes).
run 0 '' check "$dir/string_literal.fut" --emit=llvm
has out '@array_literal = private constant [5 x i8] c"hello"'
run 2 '' check "$g" --emit=ptx --sm=sm_52; has err "unsupported --sm 'sm_52'"
run 0 '' check "$g" --emit=ptx --unsafe
if grep -q 'atom' <<<"$out"; then echo "FAIL: --unsafe PTX has atomics"; failures=$((failures + 1)); fi
run 2 '' check "$g" --emit=bogus;          has err "unknown stage 'bogus'"
run 2 '' check "$dir";                     has err 'is a directory'

# Checks in dead code (docs/CHECKS.md, Note [Checks in dead code]): a map whose result is
# not used goes with its checks, and the report says so; a map read only inside a branch
# keeps its check, which the report says may be skipped; one read surely keeps it plainly.
d=$dir/../programs/failures/dead_code_checks.fut
run 0 '' check "$d" --report-checks
has out 'check sites (checks: bounds,div,assert,range,size): 7 kept, 0 disabled, 1 eliminated, 2 removed as dead code'
has out 'dead_code_checks.fut:59:23-45  assert  removed (dead code: the result of the map at 59:12-49 is not used, at most its size)  Assertion is false: x != 6'
has out 'dead_code_checks.fut:63:24-36  bounds  removed (dead code: the result of the map at 63:13-40 is not used, at most its size)'
has out 'dead_code_checks.fut:67:23-51  assert  kept (code 0; skipped where dead: the map at 67:12-55 is computed only where its result is read, inside the if at 68:6-73)'
has out 'dead_code_checks.fut:71:23-45  assert  kept (code 1; skipped where dead: the map at 71:12-49 is computed only where its result is read, inside the loop at 72:6-64)'
has out 'dead_code_checks.fut:84:23-45  assert  kept (code 4)  Assertion is false: x != 6'
run 0 '' check "$d" --report-checks --unsafe
has out '0 kept, 10 disabled, 0 eliminated, 0 removed as dead code'

# kerb test: a passing suite, a failing one, bad paths.
run 0 '' test "$dir/suite"
has out "PASS $dir/suite/forms.fut (11 cases)"
has out "PASS $dir/suite/rejected.fut (1 case)"
is out "$(printf 'PASS %s (11 cases)\nPASS %s (1 case)\n12 passed, 0 failed, 2 skipped' \
  "$dir/suite/forms.fut" "$dir/suite/rejected.fut")"
run 0 '' test "$dir/suite" -v;             has out "SKIP $dir/suite/untested.fut (no test block)"
has out 'ok   line 3'
run 0 '' test "$dir/suite/forms.fut" --skip-compiled -v; has out '10 passed, 0 failed, 2 skipped'
has out "skip line 14, entry 'main' (compiled input)"
run 1 '' test "$tmp/failing"
has out "FAIL $tmp/failing/wrong.fut (3 of 4 cases failed)"
has out 'expected: 3i32'
has out 'actual:   2i32'
has out 'expected an error matching: never'
has out 'division by zero'
has out "FAIL $tmp/failing/malformed.fut"
has out 'failing/malformed.fut:3:'
has out "FAIL $tmp/failing/no_compile.fut"
has out 'error:'
has out '1 passed, 5 failed'
run 1 '' test "$tmp/failing/wrong.fut" --device interp; has out '1 passed, 3 failed'
run 2 '' test "$dir/nope";                 has err "no such file or directory"
run 0 '' test "$dir/suite" --device cpu
run 2 '' test;                             has err 'kerb: error:'

# --input from a pipe (no size to read ahead).
run 0 '' run "$g" --input <(echo '[1, 2, 3] [2, 2]'); is out '[3i32, 3i32]'

# kerb bench: options, the table, the JSON report (checked with python3), skipped and
# failing cases, the copy-rate probe.
b=$dir/bench/cases.fut
run 0 '' bench --help;                     has out '--variant FLAGS'; has out 'What is timed'
run 2 '' bench;                            has err "needs at least one file"
run 2 '' bench "$b" --device interp;       has err "use --device cuda or cpu"
run 2 '' bench "$b" --runs 0;              has err "--runs needs a whole number from 1"
run 2 '' bench "$b" --warmup x;            has err "--warmup needs a whole number"
run 2 '' bench "$b" --time-budget -1;      has err "--time-budget needs a positive number"
run 2 '' bench "$b" --unsafe --variant=default; has err "either directly or in --variant"
run 2 '' bench "$b" --variant=--frob;      has err "'--frob' in --variant '--frob' is not a check option"
run 2 '' bench "$b" --variant=default --variant=;  has err "variant 'default' is given twice"
run 2 '' bench "$b" --frob;                has err "unknown option '--frob' for 'kerb bench'"
run 2 '' bench "$b" --variant=--checks=frob; has err "unknown check kind"
run 0 '' bench "$b" --device cpu -e pick --runs 1 --warmup 0 --variant='--sync-checks  --checks=div,bounds' \
  --variant=--checks=div
has out '--checks=bounds,div --sync-checks'
has out 'skipped: the case expects a failed check that --checks=div may leave out'
run 0 '' bench "$b" --device cpu -e pick --runs 1 --warmup 0 --sync-checks; has out '  --sync-checks  ' 
run 0 '' bench "$b" --device cpu -e pick --runs 1 --warmup 0 --variant=default --variant=--fp-contract=off
has out '  --fp-contract=off  '
run 2 '' bench "$b" --fp-contract=maybe;   has err "--fp-contract takes on or off, not 'maybe'"
run 2 '' bench "$dir/nope";                has err "no such file or directory"
if ! "$kerb" run "$g" --device cuda <<<'[1] [0]' >/dev/null 2>&1; then
  run 2 '' bench "$b" --device cuda;       has err "the cuda device is not available"
fi
run 0 '' bench "$b" --device cpu --runs 3 --warmup 1 --variant=--unsafe --variant=default \
  --json "$tmp/bench.json"
has out 'device: cpu'
has out "$b:sum random (random input { [1000]i32 })"
has out 'skipped: the case expects a failed check that --unsafe may leave out'
has out '3 runs)'
checks=$((checks + 1))
if ! python3 - "$tmp/bench.json" "$b" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "kerb-bench/1" and r["device"]["kind"] == "cpu", r["device"]
assert r["kerb"]["commit"] and r["date"].endswith("Z") and r["settings"]["runs"] == 3
assert r["settings"]["variants"] == ["--unsafe", "default"] and r["settings"]["interleaved"]
cases = [(b["entry"], b["case"]) for b in r["benchmarks"]]
# nobench, no_cpu and the disabled block are skipped.
assert cases == [("sum", "line 6"), ("sum", "random"), ("pick", "bad index"),
                 ("pick", "line 15"), ("bump", "line 21")], cases
for b in r["benchmarks"]:
    assert b["program"] == sys.argv[2]
    for v in b["variants"]:
        if v["status"] == "skipped":
            assert b["case"] == "bad index" and v["flags"] == "--unsafe", (b, v)
            continue
        assert v["status"] == "ok" and v["runs"] == 3 and len(v["runs_ms"]) == 3, v
        assert v["min_ms"] <= v["median_ms"] <= v["max_ms"], v
        assert v["outcome"] in ("output matched", "failed as expected", "ran"), v
        # After the warm-up, the interleaved variants' calls take their memory from
        # their contexts' caches (bench/NOTES.md, "Allocation cache").
        assert v["fresh_allocations"] == 0, v
    assert "pool_growth_bytes" not in b, b  # the CPU device has no pool
print("json ok")
PY
then
  echo "FAIL: kerb bench --json wrote an unexpected report"
  failures=$((failures + 1))
fi
# bench/summarize.py (standard library only) merges kerb bench reports into the table.
mkdir -p "$tmp/raw"
cp "$tmp/bench.json" "$tmp/raw/kerb_cases_r1.json"
cp "$tmp/bench.json" "$tmp/raw/kerb_cases_r2.json"
checks=$((checks + 1))
if python3 "$dir/../../bench/summarize.py" "$tmp/raw" --json "$tmp/suite.json" >"$tmp/table.txt" 2>&1 &&
  grep -qF '| cases:sum random | ' "$tmp/table.txt" &&
  grep -qF 'default / --unsafe: geomean ' "$tmp/table.txt" &&
  grep -qF '| cases:pick bad index | skipped | ' "$tmp/table.txt" &&
  grep -qF 'device allocations in the timed runs: none' "$tmp/table.txt"; then :; else
  echo "FAIL: bench/summarize.py"
  cat "$tmp/table.txt"
  failures=$((failures + 1))
fi
run 0 '' bench "$b" --device cpu -e pick --runs 50 --warmup 0 --time-budget 0.000001 --json -
has out '"runs": 1,'
has err "$b:pick line 15"
cp "$dir/bench/wrong.fut.in" "$tmp/bench_wrong.fut"
run 1 '' bench "$tmp/bench_wrong.fut" --device cpu --runs 2
has out 'error: result 1 differs: expected 7i32, got 6i32'
run 0 '' bench --copy-bandwidth --device cpu --json "$tmp/copy.json"
has out 'copy bandwidth: '
checks=$((checks + 1))
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["copy_bandwidth"]; assert c["GB_per_s"] > 0 and c["runs"] == 10' \
  "$tmp/copy.json" || { echo "FAIL: bench --copy-bandwidth report"; failures=$((failures + 1)); }

# Golden files: kerb run --save-golden / --compare-golden (docs/TESTING.md).
gf=$dir/golden.fut
sg=$tmp/scale.golden
in='[1, 2.5, -3] 2'
run 0 "$in" run "$gf" -e scale --save-golden "$sg";  is out $'[2.0f32, 5.0f32, -6.0f32]\n3i64\ntrue'
checks=$((checks + 1))
if ! grep -qx -- '-- kerb golden file 1' "$sg" || ! grep -qx -- '-- entry: scale' "$sg" ||
   ! grep -qx -- '-- device: interp' "$sg" || ! grep -qx -- '-- results: 3' "$sg" ||
   ! grep -qE -- '^-- input: 2 values fnv1a64:[0-9a-f]{16}$' "$sg" ||
   ! grep -qE -- "^-- program: $gf fnv1a64:[0-9a-f]{16}\$" "$sg" || ! grep -qx 'true' "$sg"; then
  echo "FAIL: --save-golden wrote:"; cat "$sg"; failures=$((failures + 1))
fi
run 0 "$in" run "$gf" -e scale --compare-golden "$sg"
is out "golden: the results match '$sg' (every float equal)"
# The same results on the CPU device, and the same input from files (text and .npy).
run 0 "$in" run "$gf" -e scale --compare-golden "$sg" --device cpu
has out 'golden: note: the golden file was made on the interp device, this run is on cpu'
has out "golden: the results match '$sg'"
printf '[1f32, 2.5f32, -3f32]' >"$tmp/g_xs.in"
run 0 '[1f32, 2.5f32, -3f32]' run "$gf" -e scale --input - --input <(echo 2f32) --npy-out "$tmp/gx"
run 0 '' run "$gf" -e scale --input "$tmp/g_xs.in" --input <(echo 2) --compare-golden "$sg"
has out 'results match'
# A tampered float: 1 ULP off fails exactly, passes with --ulps 1 or --rtol, and the
# worst difference is placed.
sed 's/5\.0f32/5.0000005f32/' "$sg" >"$tmp/ulp.golden"
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/ulp.golden"
has out "golden: the results differ from '$tmp/ulp.golden': 1 difference; the first: result 0 at [1]: 5.0f32, expected 5.0000005f32 (1 ulps"
has out 'worst float difference 1 ulps (relative 9.54e-08) in result 0 at [1]: 5.0f32, expected 5.0000005f32'
run 0 "$in" run "$gf" -e scale --compare-golden "$tmp/ulp.golden" --ulps 1
has out 'results match'; has out 'worst float difference 1 ulps'
run 0 "$in" run "$gf" -e scale --compare-golden "$tmp/ulp.golden" --rtol 1e-7;  has out 'results match'
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/ulp.golden" --rtol 1e-8;  has out 'results differ'
# Integers and bools are exact; every difference is counted.
sed 's/^3i64$/4i64/; s/^true$/false/; s/-6\.0f32/-6.5f32/' "$sg" >"$tmp/int.golden"
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/int.golden"
has out '3 differences; the first: result 0 at [2]: -6.0f32, expected -6.5f32'
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/int.golden" --ulps 1e9
has out '2 differences; the first: result 1: 3i64, expected 4i64'
has out 'worst float difference 1048576 ulps (relative 0.0769) in result 0 at [2]'
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/int.golden" --rtol 1
has out '2 differences; the first: result 1: 3i64, expected 4i64'
# Another shape, type or number of results.
sed 's/, -6\.0f32\]/]/' "$sg" >"$tmp/shape.golden"
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/shape.golden"
has out "the first: result 0 has shape [3], the golden file's [2]"
sed 's/^3i64$/3i32/' "$sg" >"$tmp/type.golden"
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/type.golden"
has out "the first: result 1 is of type i64, the golden file's of type i32"
sed '$d; s/^-- results: 3$/-- results: 2/' "$sg" >"$tmp/count.golden"
run 1 "$in" run "$gf" -e scale --compare-golden "$tmp/count.golden"
has out 'the first: the run has 3 results, the golden file 2'
# A matrix: the place has both indices; NaN equals NaN.
so=$tmp/outer.golden
run 0 '[1.5, 2, 3]' run "$gf" -e outer --save-golden "$so" --device cpu
sed 's/\[4\.5f64, 6\.0f64, 9\.0f64\]/[4.5f64, 6.0f64, 9.000000000000002f64]/' "$so" >"$tmp/outer2.golden"
run 1 '[1.5, 2, 3]' run "$gf" -e outer --compare-golden "$tmp/outer2.golden"
has out 'result 0 at [2, 2]: 9.0f64, expected 9.000000000000002f64 (1 ulps'
run 0 '0 0' run "$gf" -e ratio --save-golden "$tmp/nan.golden";  is out 'f32.nan'
run 0 '0 0' run "$gf" -e ratio --compare-golden "$tmp/nan.golden" --device cpu; has out 'results match'
sed 's/^f32\.nan$/1.0f32/' "$tmp/nan.golden" >"$tmp/nan2.golden"
run 1 '0 0' run "$gf" -e ratio --compare-golden "$tmp/nan2.golden" --ulps 1e9 --rtol 1
has out 'the first: result 0: f32.nan, expected 1.0f32'
# Another input or entry point is an error; another program text a note.
run 2 '[1, 2.5, -3] 3' run "$gf" -e scale --compare-golden "$sg"
has err 'kerb: error: the golden file was made from another input (2 values fnv1a64:'
run 2 '0 0' run "$gf" -e ratio --compare-golden "$sg"
has err "kerb: error: the golden file holds results of entry 'scale', not of 'ratio'"
{ echo '-- an edited comment'; cat "$gf"; } >"$tmp/edited.fut"
run 0 "$in" run "$tmp/edited.fut" -e scale --compare-golden "$sg"
has out "golden: note: the program's text differs from the one the golden file was made from"
has out 'results match'
# Missing and malformed golden files, with their places; nothing runs.
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/none.golden"
has err "kerb: error: cannot read golden file '$tmp/none.golden': No such file or directory"
run 2 "$in" run "$gf" -e scale --compare-golden "$gf"
has err "kerb: error: $gf:1: not a kerb golden file (it must start with '-- kerb golden file 1')"
sed 's/^-- kerb golden file 1$/-- kerb golden file 7/' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden:1: golden file format '7' is not supported"
sed 's/^-- program: .*/-- program: somewhere/' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden:4: expected '-- program: PATH fnv1a64:HASH'"
sed '/^-- device:/d' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden:6: the header has no '-- device:' line before '-- results:'"
sed 's/^-- entry: scale$/-- entry: scale\n-- color: blue/' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden:6: unknown header line '-- color: blue'"
sed 's/^3i64$/3i64 ]/' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "kerb: error: malformed golden file: $tmp/bad.golden:9:6:"
sed '$d' "$sg" >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden: the header announces 3 results, the file has 2"
{ cat "$sg"; echo 7; } >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden: more values than the 3 results the header announces"
: >"$tmp/bad.golden"
run 2 "$in" run "$gf" -e scale --compare-golden "$tmp/bad.golden"
has err "$tmp/bad.golden:1: empty file"
# A failed check saves nothing; options that do not go together.
run 1 '[1, 2] 5' run "$gf" -e pick --save-golden "$tmp/fail.golden"; has err 'Error: Index [5]'
checks=$((checks + 1))
[ ! -e "$tmp/fail.golden" ] || { echo "FAIL: a failed run wrote a golden file"; failures=$((failures + 1)); }
run 2 "$in" run "$gf" -e scale --save-golden "$tmp/no/dir/x.golden"; has err "cannot write golden file '$tmp/no/dir/x.golden'"
run 2 "$in" run "$gf" -e scale --ulps 2;   has err '--ulps and --rtol need --compare-golden'
run 2 "$in" run "$gf" -e scale --compare-golden "$sg" --ulps abc;  has err "--ulps needs a non-negative number, not 'abc'"
run 2 "$in" run "$gf" -e scale --compare-golden "$sg" --save-golden "$sg"; has err 'cannot be used together'
run 0 '' run --help;  has out '--compare-golden FILE'; has out '--ulps N'

# An array too large for the machine's memory: a clear error, not an internal one.
printf 'def main (n: i64) : i64 = iota n |> reduce (+) 0\n' >"$tmp/huge.fut"
run 1 '576460752303423488i64' run "$tmp/huge.fut" --device interp; has err 'the interp device ran out of memory'
# kerb check --entries, kerb dataset (random arguments from the parameter types) and
# kerb bench --input.
ds=$dir/dataset.fut
run 0 '' check "$ds" --entries
is out 'main: i64 -> [n][m]f32 -> [m * 2]i32 -> [3]u8 -> (bool, [n]i64) -> (i32, f64) -> [k]i16 -> [m](i8, u64) -> i64
none: i32
fixed: [width]i32 -> [width][2]f32 -> i64'
run 2 '' check "$ds" --entries --emit=ast;  has err '--entries and --emit cannot be used together'
run 0 '' dataset "$ds" --size 4 --size-of m=2 --seed 3 -o "$tmp/ds.in"
run 0 '' dataset "$ds" --size 4 --size-of m=2 --seed 3
# One line a flattened value: k, xs, ys, c, p (2), r (2), zs, ps (2).
checks=$((checks + 1))
[ "$(wc -l <<<"$out")" = 11 ] || { echo "FAIL: kerb dataset: $(wc -l <<<"$out") lines, expected 11"; failures=$((failures + 1)); }
checks=$((checks + 1))
cmp -s "$tmp/ds.in" "$tmp/out" || { echo "FAIL: kerb dataset -o differs from stdout"; failures=$((failures + 1)); }
has out '4i64'              # k names the size k: 4
checks=$((checks + 1))
# Every size as given: [4][2] floats in [0, 1), [m * 2] = 4 ints in [0, 4), [k] = 4.
python3 - "$tmp/ds.in" <<'PY' || { echo "FAIL: kerb dataset: sizes or ranges"; failures=$((failures + 1)); }
import re, sys
lines = open(sys.argv[1]).read().splitlines()
xs = [[float(v) for v in re.findall(r"([0-9.e-]+)f32", row)] for row in lines[1].split("], [")]
assert len(xs) == 4 and all(len(r) == 2 and all(0 <= v < 1 for v in r) for r in xs), lines[1]
ys = [int(v) for v in re.findall(r"(-?\d+)i32", lines[2])]
assert len(ys) == 4 and all(0 <= v < 4 for v in ys), lines[2]
assert len(re.findall(r"u8", lines[3])) == 3  # a constant size is kept
assert len(re.findall(r"i64", lines[5])) == 4 and len(re.findall(r"i16", lines[8])) == 4
assert len(re.findall(r"i8", lines[9])) == 2 and len(re.findall(r"u64", lines[10])) == 2
PY
run 0 '' run "$ds" --input "$tmp/ds.in" --device cpu;  is out '27i64'
run 0 '' dataset "$ds" --size 4 --seed 4
checks=$((checks + 1))
cmp -s "$tmp/ds.in" "$tmp/out" && { echo "FAIL: kerb dataset: another seed gave the same values"; failures=$((failures + 1)); }
run 0 '' dataset "$ds" -e none;            is out ''
run 0 '' dataset "$ds" -e fixed --size 3
checks=$((checks + 1))
[ "$(grep -o 'i32' <<<"$out" | wc -l)" = 5 ] || { echo "FAIL: kerb dataset -e fixed: a constant's size: $out"; failures=$((failures + 1)); }
run 2 '' dataset "$ds" --size-of q=3;      has err "entry 'main' has no size 'q'"
run 2 '' dataset "$ds" --size-of m;        has err "--size-of needs NAME=N"
run 2 '' dataset "$ds" --size -1;          has err "--size needs a whole number >= 0"
run 2 '' dataset "$ds" --size 100000;      has err "too large (more than 2^27 elements)"
run 2 '' dataset "$ds" -e nope;            has err "has no entry point 'nope'"
run 2 '' dataset;                          has err "needs a program"
run 0 '' bench "$ds" --device cpu --input "main=$tmp/ds.in" --runs 1 --warmup 0 --variant=default --variant=--unsafe
has out '--unsafe'; has out "input @ $tmp/ds.in"
run 2 '' bench "$ds" --device cpu --input "$tmp/ds.in";  has err "needs an entry point: -e ENTRY or --input ENTRY="
run 2 '' bench "$ds" "$g" --device cpu -e main --input "$tmp/ds.in";  has err "--input needs one program"
run 1 '' bench "$ds" --device cpu -e main --input "$tmp/nope.in" --runs 1 --warmup 0;  has out "bad input"

# `kerb run -e` compiles only the entry point it calls.
te="$dir/two_entries.fut"
run 0 '[1, 2, 3]' run "$te" -e fine --device cpu;  is out '6i32'
run 0 '2i64' run "$te" -e uneven --device cpu;      is out '[[0i64, 1i64], [1i64, 1i64]]'
run 1 '3i64' run "$te" -e uneven --device cpu;      has err "not all iterations produce same shape"
# ... as LLVM's machine code shows (KERB_LLVM_OPTIONS: one dump per function compiled).
export KERB_LLVM_OPTIONS=-print-after=machine-cp
run 0 '[1, 2, 3]' run "$te" -e fine --device cpu
has err 'Machine code for function kerb_entry_fine'
checks=$((checks + 1))
if grep -qF 'kerb_entry_uneven' <<<"$err"; then
  echo "FAIL: $last compiled the entry point it does not call"
  failures=$((failures + 1))
fi
run 0 '2i64' run "$te" -e uneven --device cpu;      has err 'Machine code for function kerb_entry_uneven'
# Options LLVM rejects: the user's error, named, not an internal one.
export KERB_LLVM_OPTIONS=--no-such-llvm-option
run 1 '[1, 2, 3]' run "$te" -e fine --device cpu;   has err "KERB_LLVM_OPTIONS: "
has err "no-such-llvm-option"
checks=$((checks + 1))
if grep -qF 'internal error' <<<"$err"; then
  echo "FAIL: $last: a bad KERB_LLVM_OPTIONS is reported as an internal error"
  failures=$((failures + 1))
fi
run 2 '' check --emit=ptx "$te";                   has err "KERB_LLVM_OPTIONS: "
checks=$((checks + 1))
if grep -qF 'internal error' <<<"$err"; then
  echo "FAIL: $last: a bad KERB_LLVM_OPTIONS is reported as an internal error"
  failures=$((failures + 1))
fi
unset KERB_LLVM_OPTIONS

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
