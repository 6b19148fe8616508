// Unit tests for the reference interpreter (compiler/interpreter): small programs are
// parsed, type-checked and run; results are compared with expected values, and every
// failure kind is checked for its exact message and source location. Also: a map over
// 2^20 elements and a loop of 2^20 in-place updates, which must take well under the
// test timeout (the update must not copy the array on each iteration).
#include "compiler/interpreter.h"

#include "compiler/syntax/parser.h"
#include "compiler/types/type_check.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <stdexcept>

using namespace kerb;

namespace {

struct Ran {
  std::shared_ptr<const SourceFile> file;
  std::unique_ptr<Program> program;
  RunResult result;
};

Ran run(const std::string &src, const std::vector<Value> &args,
        const std::string &entry = "main") {
  Ran r;
  r.file = std::make_shared<SourceFile>("test.fut", src);
  r.program = std::make_unique<Program>(parse_program(r.file));
  type_check(*r.program);
  r.result = interpret(*r.program, entry, args);
  return r;
}

// "test.fut:LINE:COL-COL" of the first occurrence of `part` in `src`.
std::string loc(const std::string &src, const std::string &part) {
  size_t at = src.find(part);
  REQUIRE(at != std::string::npos);
  SourceFile f("test.fut", src);
  Span s{&f, uint32_t(at), uint32_t(at + part.size())};
  return s.location();
}

Value i32v(int64_t v) { return Value(PrimValue::signed_int(PrimType::I32, v)); }
Value i64v(int64_t v) { return Value(PrimValue::signed_int(PrimType::I64, v)); }

Value arr(PrimType t, std::vector<int64_t> shape, std::vector<int64_t> xs) {
  std::vector<Bits> data;
  for (int64_t x : xs) data.push_back(PrimValue::signed_int(t, x).bits);
  return make_prim_array(t, std::move(shape), std::move(data));
}
Value i32s(std::vector<int64_t> xs) {
  int64_t n = int64_t(xs.size());
  return arr(PrimType::I32, {n}, std::move(xs));
}
Value i64s(std::vector<int64_t> xs) {
  int64_t n = int64_t(xs.size());
  return arr(PrimType::I64, {n}, std::move(xs));
}

std::vector<int64_t> ints(const Value &v) {
  std::vector<int64_t> out;
  for (const Bits &b : v.array->data) out.push_back(PrimValue{v.array->elem.prim, b}.as_i64());
  return out;
}

void check_fails(const std::string &src, const std::vector<Value> &args, FailureKind kind,
                 const std::string &message, const std::string &at) {
  Ran r = run(src, args);
  REQUIRE_FALSE(r.result.ok);
  CHECK(r.result.failure.kind == kind);
  CHECK(r.result.failure.message == message);
  CHECK(r.result.failure.location == loc(src, at));
}

} // namespace

TEST_CASE("interpreter: arithmetic follows Futhark's rounding", "[interpreter]") {
  Ran r = run("entry main (x: i32) (y: i32) : (i32, i32, i32, i32) = (x / y, x % y, x // y, x %% y)\n",
              {i32v(-7), i32v(2)});
  REQUIRE(r.result.ok);
  REQUIRE(r.result.results.size() == 4);
  CHECK(r.result.results[0].prim.as_i64() == -4);
  CHECK(r.result.results[1].prim.as_i64() == 1);
  CHECK(r.result.results[2].prim.as_i64() == -3);
  CHECK(r.result.results[3].prim.as_i64() == -1);
}

TEST_CASE("interpreter: let, if, loops and functions", "[interpreter]") {
  std::string src = "def sq (x: i32) : i32 = x * x\n"
                    "entry main (n: i32) : i32 =\n"
                    "  let s = loop acc = 0 for i < n do acc + sq i\n"
                    "  let w = loop (a, b) = (0, 1) while b < 100 do (b, a + b)\n"
                    "  in if s > 10 then s + w.0 else -1\n";
  Ran r = run(src, {i32v(4)});
  REQUIRE(r.result.ok);
  CHECK(r.result.results[0].prim.as_i64() == 14 + 89);
}

TEST_CASE("interpreter: SOACs, sections and partial application", "[interpreter]") {
  std::string src = "def add (a: i32) (b: i32) : i32 = a + b\n"
                    "entry main (xs: []i32) : ([]i32, i32, []i32, []i32, i32) =\n"
                    "  (map (add 10) xs, reduce (+) 0 xs, scan (*) 1 xs, filter (> 1) xs,\n"
                    "   foldl (\\acc x -> acc * 10 + x) 0 xs)\n";
  Ran r = run(src, {i32s({1, 2, 3})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{11, 12, 13});
  CHECK(r.result.results[1].prim.as_i64() == 6);
  CHECK(ints(r.result.results[2]) == std::vector<int64_t>{1, 2, 6});
  CHECK(ints(r.result.results[3]) == std::vector<int64_t>{2, 3});
  CHECK(r.result.results[4].prim.as_i64() == 123);
}

TEST_CASE("interpreter: arrays of tuples, zip and unzip", "[interpreter]") {
  std::string src = "entry main (xs: []i32) (ys: []i32) : ([]i32, []i32) =\n"
                    "  let ps = map (\\(a, b) -> (b, a)) (zip xs ys)\n"
                    "  in unzip ps\n";
  Ran r = run(src, {i32s({1, 2}), i32s({3, 4})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{3, 4});
  CHECK(ints(r.result.results[1]) == std::vector<int64_t>{1, 2});
}

TEST_CASE("interpreter: scatter and reduce_by_index ignore out-of-range indices",
          "[interpreter]") {
  std::string src = "entry main (is: []i64) : ([]i32, []i32) =\n"
                    "  (scatter (replicate 3 0) is (map i32.i64 is),\n"
                    "   reduce_by_index (replicate 3 0) (+) 0 is (map (\\_ -> 1) is))\n";
  Ran r = run(src, {i64s({2, -1, 7, 0, 2})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{0, 0, 2});
  CHECK(ints(r.result.results[1]) == std::vector<int64_t>{1, 0, 2});
}

TEST_CASE("interpreter: scatter's values must have the shape of the destination's rows",
          "[interpreter]") {
  // As the code generator checks (lower_to_core), also for values never written.
  std::string src = "entry main [k][m] (d: *[3][k]i32) (vs: [1][m]i32) =\n"
                    "  scatter d [7] (vs :> [1][m]i32)\n";
  check_fails(src, {arr(PrimType::I32, {3, 2}, {1, 2, 3, 4, 5, 6}), arr(PrimType::I32, {1, 3}, {7, 8, 9})},
              FailureKind::Size, "Shape of slice does not match shape of value.", "scatter d [7] (vs :> [1][m]i32)");
  Ran r = run(src, {arr(PrimType::I32, {3, 2}, {1, 2, 3, 4, 5, 6}), arr(PrimType::I32, {1, 2}, {7, 8})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("interpreter: indexing and slicing of rank-2 arrays", "[interpreter]") {
  std::string src = "entry main (xss: [][]i32) : ([]i32, []i32, [][]i32, i32) =\n"
                    "  (xss[1], xss[:, 2], xss[::-1, 1:], xss[1, 0])\n";
  Ran r = run(src, {arr(PrimType::I32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{4, 5, 6});
  CHECK(ints(r.result.results[1]) == std::vector<int64_t>{3, 6});
  CHECK(r.result.results[2].shape() == std::vector<int64_t>{2, 2});
  CHECK(ints(r.result.results[2]) == std::vector<int64_t>{5, 6, 2, 3});
  CHECK(r.result.results[3].prim.as_i64() == 4);
}

TEST_CASE("interpreter: index out of bounds", "[interpreter]") {
  std::string src = "entry main (xs: []i32) (i: i64) : i32 = xs[i] + 1\n";
  check_fails(src, {i32s({1, 2, 3}), i64v(3)}, FailureKind::Bounds,
              "Index [3] out of bounds for array of shape [3].", "xs[i]");
  check_fails(src, {i32s({1, 2, 3}), i64v(-1)}, FailureKind::Bounds,
              "Index [-1] out of bounds for array of shape [3].", "xs[i]");
  std::string src2 = "entry main (xss: [][]i32) (i: i64) (j: i64) : i32 = xss[i, j]\n";
  check_fails(src2, {arr(PrimType::I32, {2, 3}, {1, 2, 3, 4, 5, 6}), i64v(1), i64v(3)},
              FailureKind::Bounds, "Index [1, 3] out of bounds for array of shape [2][3].",
              "xss[i, j]");
  std::string src3 = "entry main (xss: [][]i32) (i: i64) : []i32 = xss[i]\n";
  check_fails(src3, {arr(PrimType::I32, {2, 3}, {1, 2, 3, 4, 5, 6}), i64v(2)},
              FailureKind::Bounds, "Index [2] out of bounds for array of shape [2].", "xss[i]");
}

TEST_CASE("interpreter: slices out of bounds", "[interpreter]") {
  std::string src = "entry main (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]\n";
  check_fails(src, {i32s({1, 2, 3, 4, 5}), i64v(1), i64v(6)}, FailureKind::Bounds,
              "Index [1:6] out of bounds for array of shape [5].", "xs[i:j]");
  check_fails(src, {i32s({1, 2, 3, 4, 5}), i64v(3), i64v(1)}, FailureKind::Bounds,
              "Index [3:1] out of bounds for array of shape [5].", "xs[i:j]");
  std::string src2 = "entry main (xs: []i32) (i: i64) : []i32 = xs[i:]\n";
  check_fails(src2, {i32s({1, 2, 3}), i64v(4)}, FailureKind::Bounds,
              "Index [4:] out of bounds for array of shape [3].", "xs[i:]");
  std::string src3 = "entry main (xs: []i32) (i: i64) : []i32 = xs[:i]\n";
  check_fails(src3, {i32s({1, 2, 3}), i64v(4)}, FailureKind::Bounds,
              "Index [:4] out of bounds for array of shape [3].", "xs[:i]");
  std::string src4 = "entry main (xs: []i32) (s: i64) : []i32 = xs[0:3:s]\n";
  check_fails(src4, {i32s({1, 2, 3}), i64v(0)}, FailureKind::Bounds,
              "Index [0:3:0] out of bounds for array of shape [3].", "xs[0:3:s]");
  Ran empty = run(src, {i32s({1, 2, 3}), i64v(3), i64v(3)});
  REQUIRE(empty.result.ok);
  CHECK(empty.result.results[0].length() == 0);
}

TEST_CASE("interpreter: in-place updates are checked", "[interpreter]") {
  std::string src = "entry main (xs: *[]i32) (i: i64) : []i32 = xs with [i] = 7\n";
  check_fails(src, {i32s({1, 2, 3}), i64v(3)}, FailureKind::Bounds,
              "Index [3] out of bounds for array of shape [3].", "xs with [i] = 7");
  Ran ok = run(src, {i32s({1, 2, 3}), i64v(1)});
  REQUIRE(ok.result.ok);
  CHECK(ints(ok.result.results[0]) == std::vector<int64_t>{1, 7, 3});
  std::string src2 =
      "entry main (xs: *[]i32) (i: i64) : []i32 = let xs[i:i+2] = [8, 9] in xs\n";
  Ran ok2 = run(src2, {i32s({1, 2, 3, 4}), i64v(1)});
  REQUIRE(ok2.result.ok);
  CHECK(ints(ok2.result.results[0]) == std::vector<int64_t>{1, 8, 9, 4});
  Ran bad = run(src2, {i32s({1, 2, 3, 4}), i64v(3)});
  REQUIRE_FALSE(bad.result.ok);
  CHECK(bad.result.failure.message == "Index [3:5] out of bounds for array of shape [4].");
}

TEST_CASE("interpreter: an update does not change other references", "[interpreter]") {
  std::string src = "entry main (xs: []i32) : ([]i32, []i32) =\n"
                    "  let ys = copy xs with [0] = 9 in (xs, ys)\n";
  Ran r = run(src, {i32s({1, 2})});
  REQUIRE(r.result.ok);
  CHECK(ints(r.result.results[0]) == std::vector<int64_t>{1, 2});
  CHECK(ints(r.result.results[1]) == std::vector<int64_t>{9, 2});
}

TEST_CASE("interpreter: division by zero", "[interpreter]") {
  std::string src = "entry main (x: i32) (y: i32) : i32 = 1 + x / y\n";
  check_fails(src, {i32v(7), i32v(0)}, FailureKind::Division, "division by zero", "x / y");
  std::string src2 = "entry main (x: u8) (y: u8) : u8 = x %% y\n";
  check_fails(src2, {Value(PrimValue::unsigned_int(PrimType::U8, 1)),
                     Value(PrimValue::unsigned_int(PrimType::U8, 0))},
              FailureKind::Division, "division by zero", "x %% y");
  std::string src4 = "entry main (x: i32) (y: i32) : i32 = x ** y\n";
  check_fails(src4, {i32v(2), i32v(-1)}, FailureKind::Division, "negative exponent", "x ** y");
  std::string src3 = "entry main (xs: []i32) : i32 = reduce (/) 1 xs\n";
  check_fails(src3, {i32s({2, 0})}, FailureKind::Division, "division by zero", "(/)");
  Ran f = run("entry main (x: f32) : f32 = x / 0\n",
              {Value(PrimValue::floating(PrimType::F32, 1.0))});
  REQUIRE(f.result.ok);
}

TEST_CASE("interpreter: assert", "[interpreter]") {
  std::string src = "entry main (x: i32) : i32 = assert (x > 0) (x * 2)\n";
  check_fails(src, {i32v(0)}, FailureKind::Assert, "Assertion is false: x > 0",
              "assert (x > 0) (x * 2)");
  Ran ok = run(src, {i32v(2)});
  REQUIRE(ok.result.ok);
  CHECK(ok.result.results[0].prim.as_i64() == 4);
}

TEST_CASE("interpreter: #[unsafe] keeps the checks", "[interpreter]") {
  std::string src = "entry main (xs: []i32) (i: i64) : i32 = #[unsafe] xs[i]\n";
  check_fails(src, {i32s({1}), i64v(1)}, FailureKind::Bounds,
              "Index [1] out of bounds for array of shape [1].", "xs[i]");
}

TEST_CASE("interpreter: ranges", "[interpreter]") {
  std::string src = "entry main (a: i32) (b: i32) : []i32 = a..<b\n";
  check_fails(src, {i32v(5), i32v(2)}, FailureKind::Range, "Range 5..<2 is invalid.", "a..<b");
  Ran ok = run(src, {i32v(2), i32v(5)});
  REQUIRE(ok.result.ok);
  CHECK(ints(ok.result.results[0]) == std::vector<int64_t>{2, 3, 4});
  std::string src2 = "entry main (a: i32) (b: i32) (c: i32) : []i32 = a..b...c\n";
  check_fails(src2, {i32v(1), i32v(1), i32v(8)}, FailureKind::Range,
              "Range 1..1...8 is invalid.", "a..b...c");
  Ran down = run(src2, {i32v(9), i32v(6), i32v(0)});
  REQUIRE(down.result.ok);
  CHECK(ints(down.result.results[0]) == std::vector<int64_t>{9, 6, 3, 0});
  std::string src4 = "entry main (a: i32) (b: i32) : ([]i32, []i32) = (a..>b, a..(a-1)...b)\n";
  Ran same = run(src4, {i32v(5), i32v(5)});
  REQUIRE(same.result.ok);
  CHECK(same.result.results[0].length() == 0);
  CHECK(ints(same.result.results[1]) == std::vector<int64_t>{5});
  check_fails(src4, {i32v(5), i32v(6)}, FailureKind::Range, "Range 5..>6 is invalid.", "a..>b");
  std::string src3 = "entry main (a: i32) (b: i32) : []i32 = a...b\n";
  check_fails(src3, {i32v(3), i32v(2)}, FailureKind::Range, "Range 3...2 is invalid.", "a...b");
}

TEST_CASE("interpreter: size coercions and size parameters", "[interpreter]") {
  std::string src = "entry main [n] (xs: [n]i32) (ys: []i32) : [n]i32 =\n"
                    "  map2 (+) xs (ys :> [n]i32)\n";
  check_fails(src, {i32s({1, 2, 3}), i32s({1, 2})}, FailureKind::Size,
              "Value of (desugared) shape [2] cannot match shape of type \"[3]i32\".",
              "ys :> [n]i32");
  Ran ok = run(src, {i32s({1, 2}), i32s({10, 20})});
  REQUIRE(ok.result.ok);
  CHECK(ints(ok.result.results[0]) == std::vector<int64_t>{11, 22});
  std::string src2 = "def f [n] (xs: [n]i32) (ys: [n]i32) : i64 = n\n"
                     "entry main (xs: []i32) (ys: []i32) : i64 = f xs ys\n";
  Ran bad = run(src2, {i32s({1, 2}), i32s({1})});
  REQUIRE_FALSE(bad.result.ok);
  CHECK(bad.result.failure.kind == FailureKind::Size);
  CHECK(bad.result.failure.location == loc(src2, "f xs ys"));
  Ran good = run(src2, {i32s({1, 2}), i32s({3, 4})});
  REQUIRE(good.result.ok);
  CHECK(good.result.results[0].prim.as_i64() == 2);
}

TEST_CASE("interpreter: prelude functions on empty arrays fail like Futhark's",
          "[interpreter]") {
  std::string src = "entry main (xs: []i32) : i32 = head xs\n";
  check_fails(src, {i32s({})}, FailureKind::Bounds,
              "Index [0] out of bounds for array of shape [0].", "head xs");
  std::string src2 = "entry main (xs: []i32) : i32 = last xs\n";
  check_fails(src2, {i32s({})}, FailureKind::Bounds,
              "Index [-1] out of bounds for array of shape [0].", "last xs");
  std::string src3 = "entry main (k: i64) (xs: []i32) : []i32 = take k xs\n";
  check_fails(src3, {i64v(5), i32s({1, 2, 3})}, FailureKind::Bounds,
              "Index [0:5] out of bounds for array of shape [3].", "take k xs");
}

TEST_CASE("interpreter: entry point argument errors", "[interpreter]") {
  auto file = std::make_shared<SourceFile>("test.fut", "entry main (x: i32) : i32 = x\n");
  Program p = parse_program(file);
  type_check(p);
  CHECK_THROWS_AS(interpret(p, "nope", {i32v(1)}), std::invalid_argument);
  CHECK_THROWS_AS(interpret(p, "main", {}), std::invalid_argument);
  CHECK_THROWS_AS(interpret(p, "main", {i64v(1)}), std::invalid_argument);
}

TEST_CASE("interpreter: a map over 2^20 elements is fast", "[interpreter]") {
  const int64_t n = int64_t(1) << 20;
  std::vector<Bits> data(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i++) data[size_t(i)].i = i;
  Value xs = make_prim_array(PrimType::I32, {n}, std::move(data));
  auto t0 = std::chrono::steady_clock::now();
  Ran r = run("entry main (xs: []i32) : []i32 = map (\\x -> x * 2 + 1) xs\n", {xs});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.result.ok);
  const Value &out = r.result.results[0];
  REQUIRE(out.length() == n);
  CHECK(PrimValue{PrimType::I32, out.array->data[12345]}.as_i64() == 12345 * 2 + 1);
  CHECK(secs < 10.0);
}

TEST_CASE("interpreter: in-place updates in a loop do not copy", "[interpreter]") {
  std::string src = "entry main (n: i64) : []i64 =\n"
                    "  loop acc = replicate n 0 for i < n do\n"
                    "    let acc[i] = i * 2 in acc\n";
  auto t0 = std::chrono::steady_clock::now();
  Ran r = run(src, {i64v(int64_t(1) << 20)});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.result.ok);
  CHECK(PrimValue{PrimType::I64, r.result.results[0].array->data[1000]}.as_i64() == 2000);
  CHECK(secs < 10.0);
}
