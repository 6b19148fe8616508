#!/usr/bin/env bash
# Regression tests for what fuzzing found in the front end (registered with CTest):
# every input in tests/fuzz/regressions/ must get a diagnostic or compile (exit status
# 0 or 1 from `kerb check`, never a crash, a hang or an internal error), and the
# nesting limits (compiler/syntax/parser.cpp, Note [Nesting limits]) hold: programs at the limits
# compile and run on the interpreter and the CPU device, programs past them are
# rejected with a diagnostic. Usage: regressions.sh PATH/TO/kerb tests/fuzz
set -uo pipefail

kerb=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check_file FILE: kerb check exits 0 or 1 within 20 s, with no internal error.
check_file() {
  checks=$((checks + 1))
  timeout 20 "$kerb" check "$1" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  if [ $st -ne 0 ] && [ $st -ne 1 ]; then
    fail "kerb check $1: exit status $st"
    head -c 600 "$tmp/err"
  elif grep -q "internal error" "$tmp/err"; then
    fail "kerb check $1: $(head -n 1 "$tmp/err")"
  fi
}

for f in "$dir"/regressions/*; do
  [ -f "$f" ] && check_file "$f"
done

# repeat N TEXT: TEXT N times.
repeat() { local s; printf -v s "%$1s" ''; printf '%s' "${s// /$2}"; }

# A program with N nested lets, N parentheses, or a chain of N additions.
lets() { echo "entry main (x: i32) : i32 = $(repeat "$1" 'let x = x + 1 in ')x"; }
parens() { echo "entry main (x: i32) : i32 = $(repeat "$1" '(')x$(repeat "$1" ')')"; }
chain() { echo "entry main (x: i32) : i32 = x$(repeat "$1" ' + x')"; }

# accepted NAME WANT: the program in $tmp/NAME.fut runs on interp and cpu and prints WANT.
accepted() {
  for device in interp cpu; do
    checks=$((checks + 1))
    got=$(echo 3 | "$kerb" run "$tmp/$1.fut" --device "$device" 2>&1)
    [ "$got" = "$2" ] || fail "$1 on $device: got '$(head -c 300 <<<"$got")', expected '$2'"
  done
}

# rejected NAME TEXT: kerb check exits 1 with TEXT in the diagnostic.
rejected() {
  checks=$((checks + 1))
  "$kerb" check "$tmp/$1.fut" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  [ $st -eq 1 ] && grep -qF -- "$2" "$tmp/err" ||
    fail "$1: exit status $st, expected 1 with '$2'; stderr: $(head -c 300 "$tmp/err")"
}

lets 998 >"$tmp/lets_ok.fut";      accepted lets_ok 1001i32
parens 998 >"$tmp/parens_ok.fut";  accepted parens_ok 3i32
chain 1998 >"$tmp/chain_ok.fut";   accepted chain_ok 5997i32
lets 1000 >"$tmp/lets_deep.fut";   rejected lets_deep 'nested too deeply (more than 1000 levels)'
parens 100000 >"$tmp/parens_deep.fut"
rejected parens_deep 'nested too deeply (more than 1000 levels)'
chain 100000 >"$tmp/chain_deep.fut"
rejected chain_deep "the body of 'main' is nested too deeply"
echo "entry main (x: i32) : i32 = $(repeat 100000 '- ')x" >"$tmp/unary_deep.fut"
rejected unary_deep 'nested too deeply'
echo "entry main (x: $(repeat 5000 '(')i32$(repeat 5000 ')')) : i32 = x" >"$tmp/type_deep.fut"
rejected type_deep 'nested too deeply'
echo "entry main ($(repeat 5000 '(')x$(repeat 5000 ')'): i32) : i32 = x" >"$tmp/pattern_deep.fut"
rejected pattern_deep 'nested too deeply'

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
