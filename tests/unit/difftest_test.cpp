// Unit tests for the pieces of `kerb difftest` (issue 7): the failure oracle
// (possible_failures in compiler/interpreter), the tolerant comparison of values
// (runtime/value_compare), the program generator (deterministic, well-typed, inputs of
// the declared sizes), the shrinker (smaller variants, arrays of one size shrink
// together) and the judging of runs (a failure only the reference makes is accepted
// only in code the compiled program reports dead).
#include "compiler/interpreter.h"
#include "compiler/syntax/parser.h"
#include "compiler/types/type_check.h"
#include "difftest/program_gen.h"
#include "difftest/shrink.h"
#include "driver/difftest_run.h"
#include "runtime/value_compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <regex>
#include <set>

using namespace kerb;

namespace {

struct Checked {
  std::shared_ptr<const SourceFile> file;
  std::unique_ptr<Program> program;
};

Checked check(const std::string &src) {
  Checked c;
  c.file = std::make_shared<SourceFile>("test.fut", src);
  c.program = std::make_unique<Program>(parse_program(c.file));
  type_check(*c.program);
  return c;
}

Value i64s(std::vector<int64_t> xs) {
  std::vector<Bits> data;
  for (int64_t x : xs) data.push_back(PrimValue::signed_int(PrimType::I64, x).bits);
  int64_t n = int64_t(xs.size());
  return make_prim_array(PrimType::I64, {n}, std::move(data));
}

Value f32v(float x) { return Value(PrimValue::floating(PrimType::F32, double(x))); }

std::vector<std::string> messages(const std::vector<RunFailure> &fs) {
  std::vector<std::string> out;
  for (const RunFailure &f : fs) out.push_back(f.message);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("possible_failures lists every failing element of a map", "[difftest]") {
  Checked c = check("entry main (xs: []i64) (is: []i64) : []i64 = map (\\i -> xs[i]) is\n");
  std::vector<Value> args{i64s({1, 2, 3}), i64s({0, 5, 1, 7})};
  RunResult strict = interpret(*c.program, "main", args);
  REQUIRE_FALSE(strict.ok);
  std::vector<RunFailure> all = possible_failures(*c.program, "main", args);
  CHECK(messages(all) == std::vector<std::string>{"Index [5] out of bounds for array of shape [3].",
                                                  "Index [7] out of bounds for array of shape [3]."});
  CHECK(std::any_of(all.begin(), all.end(), [&](const RunFailure &f) {
    return f.message == strict.failure.message && f.location == strict.failure.location;
  }));
}

TEST_CASE("possible_failures fills a failing element after a succeeding one with its shape", "[difftest]") {
  // Rows of tuples: the filler of element 1 is shaped like element 0, which must not
  // have moved into the result yet (it had, and the filler was an empty tuple that
  // "failed" with a shape difference; pbbs/ray on random triangles).
  Checked c = check("entry main (xs: []i64) (is: []i64) : []i64 =\n"
                    "  let ps = map (\\i -> (xs[i], i)) is\n"
                    "  in map (\\p -> p.0 + p.1) ps\n");
  std::vector<Value> args{i64s({1, 2, 3}), i64s({0, 5, 2})};
  std::vector<RunFailure> all = possible_failures(*c.program, "main", args);
  CHECK(messages(all) == std::vector<std::string>{"Index [5] out of bounds for array of shape [3]."});
}

TEST_CASE("possible_failures sees failures of a later map, not those caused by fillers", "[difftest]") {
  // Element 1 of the first map fails; a fused kernel could report the second map's
  // failure for element 0 first. The second map's element 1 divides by the filler that
  // replaced the failed element: that failure depends on the filler and is left out.
  Checked c = check("entry main (xs: []i64) (is: []i64) : []i64 =\n"
                    "  let ys = map (\\i -> xs[i]) is\n"
                    "  in map2 (\\y i -> assert (i != 0) (100 / y)) ys is\n");
  std::vector<Value> args{i64s({4, 0, 2}), i64s({0, 9})};
  RunResult strict = interpret(*c.program, "main", args);
  REQUIRE_FALSE(strict.ok);
  CHECK(strict.failure.message == "Index [9] out of bounds for array of shape [3].");
  std::vector<RunFailure> all = possible_failures(*c.program, "main", args);
  CHECK(messages(all) == std::vector<std::string>{"Assertion is false: i != 0",
                                                  "Index [9] out of bounds for array of shape [3]."});
}

TEST_CASE("possible_failures stops at a failure outside any map", "[difftest]") {
  Checked c = check("entry main (xs: []i64) : i64 =\n"
                    "  let a = xs[5]\n"
                    "  let b = map (\\x -> 10 / x) xs\n"
                    "  in a + b[0]\n");
  std::vector<Value> args{i64s({0, 0})};
  std::vector<RunFailure> all = possible_failures(*c.program, "main", args);
  CHECK(messages(all) == std::vector<std::string>{"Index [5] out of bounds for array of shape [2]."});
  CHECK(possible_failures(*c.program, "main", {i64s({1, 2, 3, 4, 5, 6})}).empty());
}

TEST_CASE("possible_failures goes on after a map whose every element fails", "[difftest]") {
  // The map's kernel may be fused into map2's, which runs after map2's size check on the
  // host: that check's failure really happens too, whether one element of the map
  // succeeded or none (seed 5260). Rows of arrays have no shape to copy: the map fails.
  Checked c = check("entry main (xs: []i64) (is: []i64) : []i64 =\n"
                    "  let ys = map (\\i -> xs[i + 10]) is\n"
                    "  in map2 (+) (iota 3) ys\n"
                    "entry rows (xs: []i64) (is: []i64) : [][]i64 =\n"
                    "  let ys = map (\\i -> [xs[i + 10]]) is\n"
                    "  in map2 (\\a r -> map (+a) r) (iota 3) ys\n");
  for (std::vector<int64_t> is : {std::vector<int64_t>{0}, std::vector<int64_t>{0, -10}}) {
    std::vector<Value> args{i64s({1, 2}), i64s(is)};
    RunResult strict = interpret(*c.program, "main", args);
    REQUIRE_FALSE(strict.ok);
    CHECK(strict.failure.message == "Index [10] out of bounds for array of shape [2].");
    std::vector<RunFailure> all = possible_failures(*c.program, "main", args);
    REQUIRE(all.size() == 2);
    CHECK(all[0].message == strict.failure.message);
    CHECK(all[1].kind == FailureKind::Size);
  }
  std::vector<RunFailure> rows = possible_failures(*c.program, "rows", {i64s({1, 2}), i64s({0})});
  CHECK(messages(rows) == std::vector<std::string>{"Index [10] out of bounds for array of shape [2]."});
}

TEST_CASE("possible_failures isolates filter predicates", "[difftest]") {
  Checked c = check("entry main (xs: []i64) : []i64 = filter (\\x -> 12 / x > 2) xs\n");
  std::vector<RunFailure> all = possible_failures(*c.program, "main", {i64s({1, 0, 2, 0})});
  CHECK(messages(all) == std::vector<std::string>{"division by zero"});
}

TEST_CASE("compare_values: integers exact, floats within ULPs, NaN equals NaN", "[difftest]") {
  FloatTolerance exact{};
  CHECK(compare_values(i64s({1, 2}), i64s({1, 2}), exact).equal);
  Comparison c = compare_values(i64s({1, 2}), i64s({1, 3}), exact);
  CHECK_FALSE(c.equal);
  CHECK(c.why == "at [1]: 3i64, expected 2i64");
  CHECK_FALSE(compare_values(i64s({1, 2}), i64s({1, 2, 3}), exact).equal);

  float one = 1.0f, next = std::nextafter(1.0f, 2.0f);
  CHECK_FALSE(compare_values(f32v(one), f32v(next), exact).equal);
  Comparison close = compare_values(f32v(one), f32v(next), FloatTolerance{1, 0});
  CHECK(close.equal);
  CHECK(close.worst_ulps == 1);
  CHECK(compare_values(f32v(one), f32v(1.0001f), FloatTolerance{0, 1e-3}).equal);
  CHECK(compare_values(f32v(std::nanf("")), f32v(-std::nanf("1")), exact).equal);
  CHECK_FALSE(compare_values(f32v(std::nanf("")), f32v(1), FloatTolerance{1e9, 1}).equal);
  CHECK(compare_values(f32v(0.0f), f32v(-0.0f), exact).equal);
  float inf = std::numeric_limits<float>::infinity();
  CHECK(ulp_distance(PrimValue::floating(PrimType::F32, double(std::numeric_limits<float>::max())),
                     PrimValue::floating(PrimType::F32, double(inf))) == 1);
  CHECK(ulp_distance(PrimValue::floating(PrimType::F64, -1e-300), PrimValue::floating(PrimType::F64, 1e-300)) > 1e17);
  // f64 neighbours far from 0 are 1 ULP apart (once 0: the distance went through doubles).
  for (double x : {9.0, 1.0, -3.5e300, 1e-300}) {
    CHECK(ulp_distance(PrimValue::floating(PrimType::F64, x), PrimValue::floating(PrimType::F64, std::nextafter(x, 0.0))) == 1);
    CHECK_FALSE(compare_values(Value(PrimValue::floating(PrimType::F64, x)),
                               Value(PrimValue::floating(PrimType::F64, std::nextafter(x, 0.0))), exact).equal);
  }
  CHECK(ulp_distance(PrimValue::floating(PrimType::F64, -std::numeric_limits<double>::infinity()),
                     PrimValue::floating(PrimType::F64, std::numeric_limits<double>::infinity())) ==
        double(2 * 0x7ff0000000000000ull));
}

TEST_CASE("compare_values counts every difference and places the worst float one", "[difftest]") {
  auto f64s = [](std::vector<int64_t> shape, std::vector<double> xs) {
    std::vector<Bits> data;
    for (double x : xs) data.push_back(PrimValue::floating(PrimType::F64, x).bits);
    return make_prim_array(PrimType::F64, std::move(shape), std::move(data));
  };
  double a = 1.0, a2 = std::nextafter(std::nextafter(a, 2.0), 2.0), b = 4.0, b1 = std::nextafter(b, 8.0);
  Comparison c = compare_values(f64s({2, 2}, {a, b, 0, 3}), f64s({2, 2}, {b1, b1, 0, a2}), FloatTolerance{});
  CHECK_FALSE(c.equal);
  CHECK(c.differences == 3);
  CHECK(c.why.rfind("at [0, 0]: ", 0) == 0); // the first difference, not the worst
  CHECK(c.worst_where == "at [0, 0]");       // 4.000...1 vs 1: the most ULPs apart
  CHECK(c.worst_values == "4.000000000000001f64, expected 1.0f64");

  Comparison close = compare_values(f64s({2, 2}, {a, b, 0, 3}), f64s({2, 2}, {a2, b1, 0, 3}), FloatTolerance{2, 0});
  CHECK(close.equal);
  CHECK(close.differences == 0);
  CHECK(close.worst_ulps == 2);
  CHECK(close.worst_where == "at [0, 0]");

  Value pair = Value::tuple({i64s({1, 2}), f64s({1}, {a})});
  Comparison t = compare_values(pair, Value::tuple({i64s({1, 2}), f64s({1}, {a2})}), FloatTolerance{});
  CHECK(t.why == "component 1, at [0]: 1.0000000000000004f64, expected 1.0f64 (2 ulps, relative difference 4.44e-16)");
  CHECK(t.worst_where == "component 1, at [0]");
}

TEST_CASE("the program generator is deterministic and makes well-typed programs", "[difftest]") {
  difftest::GenOptions opts;
  for (uint64_t seed = 1; seed <= 150; seed++) {
    difftest::GProgram p = difftest::generate_program(seed, opts);
    INFO("seed " << seed << ":\n" << p.source());
    CHECK(p.source() == difftest::generate_program(seed, opts).source());
    REQUIRE_NOTHROW(check(p.source()));
    std::mt19937_64 rng(seed);
    difftest::GenInput in = difftest::generate_input(p, rng, {0, 3, 7});
    REQUIRE(in.args.size() == p.params.size());
    for (size_t i = 0; i < in.args.size(); i++) {
      CHECK(in.args[i].type() == p.params[i].type.value_type());
      if (in.args[i].kind != Value::Array) continue;
      const std::vector<int> &dims = p.params[i].type.dims;
      for (size_t d = 0; d < dims.size(); d++)
        CHECK(in.args[i].shape()[d] == (dims[d] == difftest::kSizeN ? in.n : in.m));
    }
  }
}

TEST_CASE("the program generator makes loops with affine and indirect indices", "[difftest]") {
  // The shapes of issue 16, each in several of 200 programs.
  const std::vector<std::pair<std::string, std::regex>> shapes = {
      {"for loop reading at an affine index", std::regex(R"(for j\d+ < k\d+ do let ix\d+ = .* in let e\d+ = )")},
      {"start in range from data", std::regex(R"(let s\d+ = \(if \(length \w+\) == 0i64 then 0i64 else .* % )")},
      {"stride", std::regex(R"(let ix\d+ = \(s\d+ \+ [23]i64 \* j\d+\))")},
      {"reverse", std::regex(R"(let ix\d+ = \(s\d+ \+ k\d+ - 1i64 - j\d+\))")},
      {"may fail at a boundary", std::regex(R"(\(\(length \w+\) - k\d+ \+ 1i64\))")},
      {"indirect through the counter", std::regex(R"(let e\d+ = .*\w+\[\(i64\.\w+ \w+\[ix\d+\]\))")},
      {"division by data in a loop", std::regex(R"(\(acc\d+ / (\(\w+\.\w+ )?e\d+\)?\))")},
      {"assert in a loop", std::regex(R"(assert \((e\d+ != |ix\d+ != i64\.highest))")},
      {"binary search", std::regex(R"(while it\d+ < 64i64 && lo\d+ < hi\d+ do let mid\d+ = .* if \w+\[mid\d+\] < key)")},
      {"linear scan", std::regex(R"(while it\d+ < .* && \w+\[lo\d+\] != key\d+ do)")},
      {"in-place update at an affine index", std::regex(R"(do let ix\d+ = .* in out\d+ with \[ix\d+\] = )")},
  };
  std::vector<int> found(shapes.size(), 0);
  for (uint64_t seed = 1; seed <= 200; seed++) {
    std::string src = difftest::generate_program(seed, difftest::GenOptions{}).source();
    for (size_t k = 0; k < shapes.size(); k++)
      if (std::regex_search(src, shapes[k].second)) found[k]++;
  }
  for (size_t k = 0; k < shapes.size(); k++) {
    INFO(shapes[k].first);
    CHECK(found[k] >= 3);
  }
}

TEST_CASE("the program generator makes higher-order and polymorphic code", "[difftest]") {
  // Issue 18: what the front end must make first-order and monomorphic, each in several
  // of 200 programs, and each polymorphic helper used at more than one type.
  const std::vector<std::pair<std::string, std::regex>> shapes = {
      {"pk_map given a lambda", std::regex(R"(\(pk_map \(\\x\d+ -> )")},
      {"pk_map2 given a lambda", std::regex(R"(\(pk_map2 \(\\\(?x\d+)")},
      {"a function applied twice", std::regex(R"(\(pk_twice \(\\z\d+ -> )")},
      {"composition returning a function", std::regex(R"(\(\(pk_compose \(\\z\d+ -> .*\) \(\\z\d+ -> )")},
      {"polymorphic choice", std::regex(R"(\(pk_pick )")},
      {"polymorphic pair", std::regex(R"(\(pk_swap \(.*\)\)\.1)")},
      {"pipe into map", std::regex(R"( \|> map \(\\)")},
      {"map given by <|", std::regex(R"(\) <\| )")},
      {"let-bound lambda", std::regex(R"(\(let f\d+ = \\)")},
      {"local function", std::regex(R"(\(let f\d+ \(?x\d+.* = )")},
      {"partial application", std::regex(R"(\(let g\d+ = \(h\d+ )")},
      {"operator section", std::regex(R"(\(\([-+*&|^]\) |\(\(\w+\.[-+*&|^]\) | \|> \([+*&|^] |\([^ ()]+ [-+*&|^]\) )")},
      {"helpers defined first", std::regex(R"(^-- Generated.*\ndef pk_)")},
  };
  std::vector<int> found(shapes.size(), 0);
  std::set<std::string> twice_types;
  const std::regex twice(R"(\(pk_twice \(\\z\d+ -> [^)]*?(\d+(i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64)))");
  for (uint64_t seed = 1; seed <= 200; seed++) {
    std::string src = difftest::generate_program(seed, difftest::GenOptions{}).source();
    for (size_t k = 0; k < shapes.size(); k++)
      if (std::regex_search(src, shapes[k].second)) found[k]++;
    for (std::sregex_iterator it(src.begin(), src.end(), twice), end; it != end; ++it) twice_types.insert((*it)[2]);
  }
  for (size_t k = 0; k < shapes.size(); k++) {
    INFO(shapes[k].first);
    CHECK(found[k] >= 3);
  }
  CHECK(twice_types.size() >= 3);
}

TEST_CASE("shrinking gives smaller variants and keeps sizes consistent", "[difftest]") {
  difftest::GProgram p = difftest::generate_program(7, difftest::GenOptions{});
  std::mt19937_64 rng(1);
  difftest::Case c{p, difftest::generate_input(p, rng, {16})};
  std::vector<difftest::Case> program_variants = difftest::shrink_program(c);
  CHECK_FALSE(program_variants.empty());
  int well_typed = 0;
  for (const difftest::Case &v : program_variants) {
    try {
      check(v.program.source());
      well_typed++;
    } catch (const CompileError &) {
    }
  }
  CHECK(well_typed > 0);
  for (const difftest::Case &v : difftest::shrink_input(c)) {
    REQUIRE(v.input.args.size() == v.program.params.size());
    for (size_t i = 0; i < v.input.args.size(); i++) {
      if (v.input.args[i].kind != Value::Array) continue;
      const std::vector<int> &dims = v.program.params[i].type.dims;
      for (size_t d = 0; d < dims.size(); d++)
        CHECK(v.input.args[i].shape()[d] == (dims[d] == difftest::kSizeN ? v.input.n : v.input.m));
    }
    CHECK(difftest::case_size(v) <= difftest::case_size(c));
  }
}

namespace {

// A program of one entry `main [n] (xs: [n]i64) : RESULT` whose body is `body`.
difftest::GProgram one_entry(const std::string &body,
                             difftest::GType result = difftest::GType::of(PrimType::I64)) {
  difftest::GProgram p;
  p.seed = 1;
  p.params.push_back({"xs", difftest::GType::array(difftest::GType::of(PrimType::I64), {difftest::kSizeN})});
  difftest::GNode v;
  v.tmpl = body;
  v.type = result;
  p.stmts.push_back({"v", v});
  difftest::GNode r;
  r.tmpl = "v";
  r.type = v.type;
  p.results.push_back(r);
  return p;
}

std::vector<driver::Verdict> verdicts(const difftest::GProgram &p, std::vector<int64_t> xs, bool unsafe) {
  difftest::GenInput in;
  in.args.push_back(i64s(xs));
  in.n = int64_t(xs.size());
  driver::DifftestConfig config;
  config.devices = {driver::Device::Interp, driver::Device::Cpu};
  config.isolate = false;
  config.unsafe = unsafe;
  driver::ProgramReport r = driver::evaluate_program(p, {in}, config);
  REQUIRE_FALSE(r.invalid);
  REQUIRE_FALSE(r.unsupported);
  std::vector<driver::Verdict> out;
  for (const driver::PairVerdict &pv : r.pairs) out.push_back(pv.verdict);
  return out;
}

} // namespace

TEST_CASE("difftest accepts a failure of the reference alone only in dead code", "[difftest]") {
  using driver::Verdict;
  // The map's result is used only for its size: removed as dead code, with its assert.
  difftest::GProgram dead = one_entry("(let ys = map (\\x -> assert (x != 6) (x + 1)) xs in length ys)");
  CHECK(verdicts(dead, {1, 6}, false) == std::vector<Verdict>{Verdict::AgreeDeadCheck});
  CHECK(verdicts(dead, {1, 2}, false) == std::vector<Verdict>{Verdict::AgreeOk});
  // Read only in a branch that does not run (kerb difftest's program 90173).
  difftest::GProgram branch =
      one_entry("(let ys = map (\\x -> assert (x != 6) (x + 1)) xs in if length xs > 5 then reduce (+) 0 ys "
                "else length ys)");
  CHECK(verdicts(branch, {1, 6}, false) == std::vector<Verdict>{Verdict::AgreeDeadCheck});
  CHECK(verdicts(branch, {1, 6, 1, 1, 1, 1}, false) == std::vector<Verdict>{Verdict::AgreeFailure});
  // A dead check's failure, but also one in live code that the device does not make
  // (#[unsafe] turned it off; the interpreter still fails a division by zero): a
  // difference.
  difftest::GProgram also_live = one_entry(
      "(let ys = map (\\x -> assert (x != 6) (x + 1)) xs in length ys + (#[unsafe] (length xs / (length xs - 2))))");
  CHECK(verdicts(also_live, {1, 6}, false) == std::vector<Verdict>{Verdict::OnlyReferenceFails});
  CHECK(verdicts(also_live, {1, 6, 7}, false) == std::vector<Verdict>{Verdict::AgreeDeadCheck});
  // A site that is not dead and that the device does not check: a difference.
  difftest::GProgram live = one_entry("(reduce (+) 0 (map (\\x -> assert (x != 6) (x + 1)) xs))");
  CHECK(verdicts(live, {1, 6}, true) == std::vector<Verdict>{Verdict::OnlyReferenceFails});
  CHECK(verdicts(live, {1, 6}, false) == std::vector<Verdict>{Verdict::AgreeFailure});
  // The reference fails in a dead map whose every element fails (rows of arrays), the
  // device at a live check after it, which the enumeration reaches past the dead map.
  difftest::GProgram dead_then_live = one_entry(
      "(let ys = map (\\x -> let r = replicate 2 x in loop out = copy r for j < 4 do out with [j] = 0i64) xs in "
      "length ys + xs[length xs])");
  CHECK(verdicts(dead_then_live, {1, 2}, false) == std::vector<Verdict>{Verdict::AgreeOtherSite});
  // Under --unsafe even the dead map's check is only disabled, not removed as dead code.
  CHECK(verdicts(dead, {1, 6}, true) == std::vector<Verdict>{Verdict::OnlyReferenceFails});
}

TEST_CASE("difftest does not compare inner sizes of empty arrays that the interpreter cannot know",
          "[difftest]") {
  using driver::Verdict;
  // The rows have size 2, but the loop's type does not say, and the trial call on a row
  // of zeros fails: the interpreter gives empty([0][0]i32), compiled code [0][2].
  difftest::GProgram p = one_entry(
      "(map (\\x -> let src = map (\\_ -> 3i32) (iota 2) in loop out = copy src for j < 6 do out with [x + 9] "
      "= 0i32) xs)",
      difftest::GType::array(difftest::GType::of(PrimType::I32), {2, 3}));
  CHECK(verdicts(p, {}, false) == std::vector<Verdict>{Verdict::AgreeOk});
  CHECK(verdicts(p, {1}, false) == std::vector<Verdict>{Verdict::AgreeFailure});
}
