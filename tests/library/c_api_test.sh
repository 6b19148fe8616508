#!/usr/bin/env bash
# The C API of compiled libraries (registered with CTest): compiles api.fut with `kerb
# compile --library`, builds c_api_test.c against it with `kerb config --cflags --libs`
# and runs it on DEVICE (default cpu); the same for opaque.fut and opaque_test.c (opaque
# values), with a C++ program of them; then checks that the C++ side of two generated
# headers compiles in one translation unit.
# Usage: c_api_test.sh PATH/TO/kerb tests/library [DEVICE]
set -euo pipefail

kerb=$1
dir=$2
device=${3:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
cxx=${CXX:-c++}

"$kerb" compile --library "$dir/api.fut" -o "$tmp/api"
# shellcheck disable=SC2046  # word splitting of the flags is intended
"$cc" -std=c11 -Wall -Wextra -Werror -I"$tmp" "$dir/c_api_test.c" "$tmp/libapi.a" -o "$tmp/c_api_test" \
  $("$kerb" config --cflags --libs)
"$tmp/c_api_test" "$device"

# Opaque values: records, arrays of records, abstract and sum types (opaque.fut).
"$kerb" compile --library "$dir/opaque.fut" -o "$tmp/opaque"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -I"$tmp" "$dir/opaque_test.c" "$tmp/libopaque.a" -o "$tmp/opaque_test" \
  $("$kerb" config --cflags --libs)
"$tmp/opaque_test" "$device"
# The C++ side of opaque values: kerb::Opaque, new_T and T_FIELD.
cat > "$tmp/opaque.cpp" <<'CPP'
#include "opaque.h"
int main() {
  kerb::Context ctx("cpu");
  auto p = kerb::opaque::new_point(ctx, 3, 4);
  auto q = kerb::opaque::swap(ctx, p);
  auto [m, k] = kerb::opaque::mid(ctx, kerb::opaque::make_seg(ctx, p, q, 2));
  kerb::Array<float, 1> xs(ctx, std::vector<float>{1, 2}, {2});
  auto ps = kerb::opaque::scale(ctx, 2, kerb::opaque::new_arr1d_point(ctx, xs, xs));
  bool ok = kerb::opaque::norm2(ctx, p) == 25 && kerb::opaque::point_x(ctx, q) == 4 &&
            kerb::opaque::point_y(ctx, m) == 3.5f && k == 2 &&
            kerb::opaque::arr1d_point_y(ctx, ps).values()[1] == 4;
  try {
    kerb::opaque::pick(ctx, ps, 5);
    ok = false;
  } catch (const kerb::Error &e) {
    ok = ok && e.code() == KERB_PROGRAM_ERROR;
  }
  return ok ? 0 : 1;
}
CPP
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Werror -I"$tmp" "$tmp/opaque.cpp" "$tmp/libopaque.a" -o "$tmp/opaque_cpp" \
  $("$kerb" config --cflags --libs)
"$tmp/opaque_cpp"

# Two programs' headers in one C++ file: shared array types are declared once.
"$kerb" compile --library "$dir/../cli/gather.fut" -o "$tmp/gather"
cat > "$tmp/both.cpp" <<'CPP'
#include "api.h"
#include "gather.h"
int main() {
  kerb::Context ctx("cpu");
  kerb::Array<int32_t, 1> xs(ctx, std::vector<int32_t>{1, 2, 3}, {3});
  auto [a, b] = kerb::api::twice(ctx, xs);
  return a.values()[0] == 2 && b.shape()[0] == 3 ? 0 : 1;
}
CPP
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I"$tmp" "$tmp/both.cpp" $("$kerb" config --cflags)
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Werror -I"$tmp" "$tmp/both.cpp" "$tmp/libapi.a" -o "$tmp/both" \
  $("$kerb" config --cflags --libs)
"$tmp/both"
echo "c_api_test.sh: ok"
