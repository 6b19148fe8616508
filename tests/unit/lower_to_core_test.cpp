// Unit tests for the lowering to the core IR (compiler/lower_to_core) and its printer
// (compiler/core_ir): small programs are parsed, type-checked and lowered; the tests
// look at the shape of the result (params, results, statements, check sites) and at
// patterns in the `--emit=ir` listing. A small evaluator of the core IR runs every
// lowerable entry point of the test corpus (tests/programs) and compares its results
// and failure messages with the reference interpreter's.
#include "compiler/lower_to_core.h"
#include "compiler/pipeline.h"

#include "compiler/interpreter.h"
#include "compiler/syntax/parser.h"
#include "compiler/prim_ops.h"
#include "compiler/types/type_check.h"
#include "driver/test_spec.h"
#include "runtime/value_text.h"

#include <catch2/catch.hpp>
#include <algorithm>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

using namespace kerb;

namespace {

struct Lowered {
  std::shared_ptr<const SourceFile> file;
  std::unique_ptr<Program> program;
  core::Program core;
  std::string text;
};

Lowered lower_src(const std::string &src, const std::string &entry = "main", bool unsafe = false) {
  Lowered r;
  r.file = std::make_shared<SourceFile>("test.fut", src);
  r.program = std::make_unique<Program>(parse_program(r.file));
  type_check(*r.program);
  const FunDef *f = r.program->find(entry);
  REQUIRE(f != nullptr);
  PipelineOptions opts;
  opts.checks.unsafe = unsafe;
  r.core = lower_and_check(*r.program, {f}, opts);
  r.text = print_program(r.core);
  return r;
}

std::string loc(const std::string &src, const std::string &part) {
  size_t at = src.find(part);
  REQUIRE(at != std::string::npos);
  SourceFile f("test.fut", src);
  Span s{&f, uint32_t(at), uint32_t(at + part.size())};
  return s.location();
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// Counts statements of kind k anywhere in the function (nested bodies included).
int count_kind(const core::Body &b, core::ExpKind k) {
  int n = 0;
  for (const core::Stm &s : b.stms) {
    if (s.exp.kind == k) n++;
    for (const auto &body : s.exp.bodies)
      if (body) n += count_kind(*body, k);
    if (s.exp.lambda) n += count_kind(s.exp.lambda->body, k);
  }
  return n;
}

const core::Stm *find_kind(const core::Body &b, core::ExpKind k) {
  for (const core::Stm &s : b.stms) {
    if (s.exp.kind == k) return &s;
    for (const auto &body : s.exp.bodies)
      if (body)
        if (const core::Stm *r = find_kind(*body, k)) return r;
    if (s.exp.lambda)
      if (const core::Stm *r = find_kind(s.exp.lambda->body, k)) return r;
  }
  return nullptr;
}

} // namespace

TEST_CASE("a scalar function with an inlined call", "[lower]") {
  Lowered r = lower_src("def add (x: i32) (y: i32) = x + y\n"
                        "entry main (a: i32) : i32 = add a 2 * 3\n");
  REQUIRE(r.core.functions.size() == 1);
  const core::Function &f = r.core.functions[0];
  CHECK(f.name == "main");
  CHECK(f.params.size() == 1);
  CHECK(f.results.size() == 1);
  CHECK(count_kind(f.body, core::ExpKind::BinOp) == 2);
  CHECK(r.core.failures.records.empty());
  CHECK(contains(r.text, "entry main (a_0: i32) -> (i32)"));
  CHECK(contains(r.text, "a_0 + 2i32"));
  CHECK(contains(r.text, "* 3i32"));
}

TEST_CASE("tuples are flattened", "[lower]") {
  Lowered r = lower_src("entry main [n] (xs: [n]f32) (k: i32) : (i32, [n]f32) =\n"
                        "  let (a, b) = (k + 1, xs) in (a, b)\n");
  const core::Function &f = r.core.functions[0];
  CHECK(f.params.size() == 2);
  CHECK(f.results.size() == 2);
  CHECK(f.result_types.size() == 2);
  REQUIRE(f.param_shape_vars.size() == 2);
  CHECK(f.param_shape_vars[0].size() == 1);
  CHECK(f.param_shape_vars[1].empty());
  CHECK(r.core.var(f.results[1]).type == core::CType{PrimType::F32, 1});
  CHECK(r.core.var(f.param_shape_vars[0][0]).name.rfind("xs_n0", 0) == 0);
}

TEST_CASE("arrays of tuples: zip and unzip regroup components", "[lower]") {
  Lowered r = lower_src("entry main [n] (xs: [n]i32) (ys: [n]f32) : ([n]i32, [n]f32) =\n"
                        "  unzip (zip xs ys)\n");
  const core::Function &f = r.core.functions[0];
  // Only the entry point's check that xs and ys have the same size n.
  CHECK(f.body.stms.size() == 2);
  CHECK(count_kind(f.body, core::ExpKind::Assert) == 1);
  CHECK(f.results.size() == 2);
  CHECK(f.results[0] == f.params[0]);
  CHECK(f.results[1] == f.params[1]);
}

TEST_CASE("map with a lambda, a section and a partial application", "[lower]") {
  SECTION("lambda") {
    Lowered r = lower_src("entry main (xs: []i32) : []i32 = map (\\x -> x * 2) xs\n");
    const core::Stm *m = find_kind(r.core.functions[0].body, core::ExpKind::Map);
    REQUIRE(m != nullptr);
    CHECK(m->exp.lambda->params.size() == 1);
    CHECK(m->exp.lambda->body.stms.size() == 1);
    CHECK(r.core.var(m->pat[0]).shape.size() == 1);
    CHECK(contains(r.text, "map "));
    CHECK(contains(r.text, "\\x_"));
  }
  SECTION("section") {
    Lowered r = lower_src("entry main (xs: []i32) : []i32 = map (2-) xs\n");
    const core::Stm *m = find_kind(r.core.functions[0].body, core::ExpKind::Map);
    REQUIRE(m != nullptr);
    const core::Exp &b = m->exp.lambda->body.stms.at(0).exp;
    CHECK(b.kind == core::ExpKind::BinOp);
    CHECK(b.binop == BinOp::Sub);
    CHECK_FALSE(b.args[0].is_var());
    CHECK(b.args[1].var == m->exp.lambda->params[0]);
  }
  SECTION("partial application and map2") {
    Lowered r = lower_src("def add (x: i32) (y: i32) = x + y\n"
                          "entry main [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 =\n"
                          "  map2 add (map (add 1) xs) ys\n");
    CHECK(count_kind(r.core.functions[0].body, core::ExpKind::Map) == 2);
    // One check at the entry (xs and ys both of size n), none for map2 then.
    CHECK(count_kind(r.core.functions[0].body, core::ExpKind::Assert) == 1);
    REQUIRE(r.core.failures.records.size() == 1);
    CHECK(r.core.failures.records[0].message_template ==
          "entry point arguments have invalid sizes.");
  }
  SECTION("map2 over arrays of unrelated sizes gets a size check") {
    Lowered r = lower_src("entry main (xs: []i32) (ys: []i32) : []i32 = map2 (+) xs ys\n");
    CHECK(count_kind(r.core.functions[0].body, core::ExpKind::Assert) == 1);
    REQUIRE(r.core.failures.records.size() == 1);
    CHECK(r.core.failures.records[0].kind == FailureKind::Size);
    CHECK(r.core.failures.records[0].message_template ==
          "Sizes of the arguments of map2 do not match: [{}] and [{}].");
  }
}

TEST_CASE("reduce and scan", "[lower]") {
  Lowered r = lower_src("entry main (xs: []f32) : (f32, []f32, i32, f32) =\n"
                        "  (reduce (+) 0 xs, scan f32.max (-f32.inf) xs, i32.sum (map i32.f32 xs),"
                        " f32.maximum xs)\n");
  const core::Body &b = r.core.functions[0].body;
  CHECK(count_kind(b, core::ExpKind::Reduce) == 3);
  CHECK(count_kind(b, core::ExpKind::Scan) == 1);
  const core::Stm *s = find_kind(b, core::ExpKind::Scan);
  REQUIRE(s != nullptr);
  CHECK(s->exp.lambda->params.size() == 2);
  CHECK(s->exp.args.size() == 2);
  CHECK(r.core.var(s->pat[0]).type.rank == 1);
  CHECK(count_kind(b, core::ExpKind::Convert) == 1);
  CHECK(r.core.functions[0].results.size() == 4);
}

TEST_CASE("reduce_comm is a Reduce marked commutative, through every pass", "[lower]") {
  Lowered r = lower_src("entry main (xs: []f32) : (f32, i64, f32) =\n"
                        "  let (d, i) = reduce_comm (\\(a, i) (b, j) -> if a <= b then (a, i) else (b, j))\n"
                        "                           (f32.inf, -1) (zip xs (iota (length xs)))\n"
                        "  in (d, i, reduce (+) 0 xs)\n");
  const core::Body &b = r.core.functions[0].body;
  REQUIRE(count_kind(b, core::ExpKind::Reduce) == 2);
  std::vector<bool> comm;
  for (const core::Stm &s : b.stms)
    if (s.exp.kind == core::ExpKind::Reduce) comm.push_back(s.exp.comm);
  CHECK(comm == std::vector<bool>{true, false});
  CHECK(contains(r.text, " = reduce_comm "));
  CHECK(contains(r.text, " = reduce "));
}

TEST_CASE("an index gets a bounds check site", "[lower]") {
  std::string src = "entry main (xs: [][]i32) (i: i64) : i32 = xs[i, 0] + 1\n";
  Lowered r = lower_src(src);
  const core::Stm *s = find_kind(r.core.functions[0].body, core::ExpKind::Index);
  REQUIRE(s != nullptr);
  REQUIRE(s->exp.site >= 0);
  const FailureRecord &rec = r.core.failures.records[size_t(s->exp.site)];
  CHECK(rec.kind == FailureKind::Bounds);
  CHECK(rec.message_template == "Index [{}, {}] out of bounds for array of shape [{}][{}].");
  CHECK(rec.location == loc(src, "xs[i, 0]"));
  CHECK(rec.arg_types.size() == 4);
  CHECK(contains(r.text, "[i_"));
  CHECK(contains(r.text, "@site 0"));
}

TEST_CASE("#[unsafe] removes the site", "[lower]") {
  Lowered r = lower_src("entry main (xs: []i32) (i: i64) : i32 = #[unsafe] xs[i] / 2\n");
  const core::Stm *s = find_kind(r.core.functions[0].body, core::ExpKind::Index);
  REQUIRE(s != nullptr);
  CHECK(s->exp.site == -1);
  CHECK(r.core.failures.records.empty());
  Lowered u = lower_src("entry main (xs: []i32) (i: i64) : i32 = xs[i]\n", "main", true);
  CHECK(u.core.failures.records.empty());
}

TEST_CASE("division and assert sites", "[lower]") {
  std::string src = "entry main (x: i32) (y: i32) : i32 = assert (y != 0) (x / y + x / 2)\n";
  Lowered r = lower_src(src);
  // The division by the constant 2 cannot fail. Codes are given pass by pass
  // (compiler/pipeline.cpp): divisions before asserts.
  REQUIRE(r.core.failures.records.size() == 2);
  CHECK(r.core.failures.records[0].kind == FailureKind::Division);
  CHECK(r.core.failures.records[0].location == loc(src, "x / y"));
  CHECK(r.core.failures.records[1].kind == FailureKind::Assert);
  CHECK(r.core.failures.records[1].message_template == "Assertion is false: y != 0");
}

TEST_CASE("a while loop", "[lower]") {
  Lowered r = lower_src("entry main (n: i32) : i32 =\n"
                        "  let (_, acc) = loop (i, acc) = (0, 1) while i < n do (i + 1, acc * 2)\n"
                        "  in acc\n");
  const core::Stm *s = find_kind(r.core.functions[0].body, core::ExpKind::Loop);
  REQUIRE(s != nullptr);
  CHECK(s->exp.is_while);
  CHECK(s->exp.loop_params.size() == 2);
  CHECK(s->pat.size() == 2);
  CHECK(s->exp.bodies.size() == 2);
  CHECK(s->exp.bodies[1]->result.size() == 1);
  CHECK(s->exp.bodies[0]->result.size() == 2);
  CHECK(contains(r.text, "while {"));
}

TEST_CASE("for loops over counters and arrays, with array parameters", "[lower]") {
  Lowered r = lower_src("entry main [n] (xs: [n]i32) : ([n]i32, i32) =\n"
                        "  let ys = loop ys = copy xs for i < n do ys with [i] = ys[i] + 1\n"
                        "  let s = loop s = 0 for x in ys do s + x\n"
                        "  in (ys, s)\n");
  const core::Body &b = r.core.functions[0].body;
  CHECK(count_kind(b, core::ExpKind::Loop) == 2);
  CHECK(count_kind(b, core::ExpKind::Update) == 1);
  CHECK(count_kind(b, core::ExpKind::Copy) == 1);
  CHECK(contains(r.text, " with ["));
}

TEST_CASE("iota, replicate, length and array literals", "[lower]") {
  Lowered r = lower_src("entry main (n: i64) : ([]i64, [][]i32, i64) =\n"
                        "  let a = iota n in (a, replicate n [1, 2], length a)\n");
  const core::Body &b = r.core.functions[0].body;
  CHECK(count_kind(b, core::ExpKind::Iota) == 1);
  CHECK(count_kind(b, core::ExpKind::Replicate) == 1);
  CHECK(count_kind(b, core::ExpKind::ArrayLit) == 1);
  // iota and replicate of a possibly negative n: range checks; the replicate's is
  // implied by the iota's (n >= 0 after it), so remove_proved_checks removes it.
  CHECK(std::count_if(r.core.candidates.begin(), r.core.candidates.end(), [](const auto &c) {
          return c.kind == FailureKind::Range;
        }) == 2);
  CHECK(count_kind(b, core::ExpKind::Assert) == 1);
  CHECK(r.core.failures.records.at(0).message_template == "Range {}..{}..<{} is invalid.");
  const core::Stm *rep = find_kind(b, core::ExpKind::Replicate);
  CHECK(r.core.var(rep->pat[0]).shape.size() == 2);
}

// `map (\x -> iota x) xs` is a type error (sizes are checked statically); Kerb leaves `[]`
// in the result of a function type unknown, so this one passes the checker, and its rows'
// size depends on the element (Note [Map rows whose sizes depend on the element]).
TEST_CASE("a map's rows sized by the element: the first element's sizes, checked in each", "[lower]") {
  Lowered r = lower_src("entry main (xs: []i64) =\n"
                        "  let f : i64 -> []i64 = \\x -> iota x\n"
                        "  in map f xs\n");
  const core::Body &b = r.core.functions[0].body;
  const core::Stm *sizes = find_kind(b, core::ExpKind::If);
  const core::Stm *map = find_kind(b, core::ExpKind::Map);
  REQUIRE(sizes);
  REQUIRE(map);
  // The map's rows are of the size the If computes before it: xs[0] for a map over
  // some elements, 0 over none.
  REQUIRE(sizes->pat.size() == 1);
  CHECK(r.core.var(map->pat[0]).shape.at(1).var == sizes->pat[0]);
  CHECK(count_kind(*sizes->exp.bodies[0], core::ExpKind::Index) == 1);
  CHECK(sizes->exp.bodies[1]->result.at(0).constant.as_i64() == 0);
  // Only what the size needs is kept of the first element: no iota before the map.
  CHECK(count_kind(*sizes->exp.bodies[0], core::ExpKind::Iota) == 0);
  // Each element checks its size (after iota's range check), with Futhark's message.
  std::vector<std::string> checks;
  for (const core::Stm &s : map->exp.lambda->body.stms)
    if (s.exp.kind == core::ExpKind::Assert)
      checks.push_back(r.core.candidates.at(size_t(s.exp.check)).message_template);
  CHECK(checks == std::vector<std::string>{"Range {}..{}..<{} is invalid.", "not all iterations produce same shape"});
}

TEST_CASE("if branches of different sizes bind the size as a result", "[lower]") {
  Lowered r = lower_src("entry main (b: bool) (xs: []i32) : []i32 = if b then xs else xs ++ xs\n");
  const core::Stm *s = find_kind(r.core.functions[0].body, core::ExpKind::If);
  REQUIRE(s);
  REQUIRE(s->pat.size() == 2);
  // The array's shape is the If's own second result.
  CHECK(r.core.var(s->pat[0]).shape.at(0).var == s->pat[1]);
  CHECK(s->exp.bodies[0]->result.size() == 2);
}

TEST_CASE("slice updates check bounds and shape, then update a view", "[lower]") {
  Lowered r = lower_src("entry main (xs: *[]i32) (ys: []i32) : []i32 = xs with [1:] = ys\n");
  const core::Body &b = r.core.functions[0].body;
  const core::Stm *s = find_kind(b, core::ExpKind::UpdateSlice);
  REQUIRE(s);
  CHECK(s->exp.args.size() == 3);
  CHECK(s->exp.index_dims.empty());
  CHECK(count_kind(b, core::ExpKind::Assert) == 2);
  CHECK(contains(r.text, "Shape of slice does not match shape of value."));
}

TEST_CASE("print_program shows short-circuit operators as if", "[lower]") {
  Lowered r = lower_src("entry main (a: bool) (b: i32) : bool = a && b > 0\n");
  CHECK(contains(r.text, "if a_0 then {"));
  CHECK(contains(r.text, "} else {"));
  CHECK(contains(r.text, "in (false)"));
}

// Note [Top-level constants] in lower_to_core.cpp: a chain of constants, each used
// three times by the next, computed once each; inlined at every use, the loop at the
// chain's start was lowered 3^12 (531441) times.
TEST_CASE("a top-level constant is computed once per body", "[lower]") {
  std::string chain = "def c0 : i64 = loop x = 1 for i < 10 do x * 3 + i\n";
  for (int i = 1; i <= 12; i++)
    chain += "def c" + std::to_string(i) + " : i64 = c" + std::to_string(i - 1) + " + c" +
             std::to_string(i - 1) + " * c" + std::to_string(i - 1) + "\n";
  Lowered r = lower_src(chain + "entry main (x: i64) : i64 = x + c12 - c0\n");
  const core::Body &top = r.core.functions[0].body;
  CHECK(count_kind(top, core::ExpKind::Loop) == 1);
  // The loop's two operations, two for each constant after it, main's two.
  CHECK(count_kind(top, core::ExpKind::BinOp) == 2 + 2 * 12 + 2);
  // In a lambda: computed there (the lambda runs only where the map has elements), and
  // again after the map, where the lambda's variables are not in scope; inside a branch,
  // the other branch and what follows compute their own.
  Lowered m = lower_src(chain + "entry main (xs: []i64) (b: bool) : ([]i64, i64) =\n"
                                "  let ys = map (\\x -> x + c0 + c0) xs\n"
                                "  let y = if b then c0 else c0 + 1\n"
                                "  in (ys, y + c0 + c0)\n");
  const core::Body &mt = m.core.functions[0].body;
  CHECK(count_kind(mt, core::ExpKind::Loop) == 4);
  const core::Stm *map = find_kind(mt, core::ExpKind::Map);
  REQUIRE(map != nullptr);
  CHECK(count_kind(map->exp.lambda->body, core::ExpKind::Loop) == 1);
  CHECK(count_kind(mt, core::ExpKind::If) == 1);
  // A use under #[unsafe] does not read the value computed with its checks outside.
  Lowered u = lower_src("def t : [3]i64 = loop a = [1, 2, 3] for i < 3 do a with [i] = a[2 - i]\n"
                        "entry main (i: i64) : i64 = t[i] + #[unsafe] t[i] + t[0]\n");
  CHECK(count_kind(u.core.functions[0].body, core::ExpKind::Loop) == 2);
}

// Note [Constant operands] in lower_to_core.cpp: a vector of eight built as pairs of
// pairs (as a library's `cat_vector` does), read at constant positions: one component
// each, with no branch; the arithmetic on the positions is done.
TEST_CASE("operations on constants are computed, a branch on a constant is not made", "[lower]") {
  Lowered r = lower_src(
      "def get1 (_: i64) (x: i64) = x\n"
      "def get2 (i: i64) (a: i64, b: i64) = if i < 1 then get1 i a else get1 (i - 1) b\n"
      "def get4 (i: i64) (a: (i64, i64), b: (i64, i64)) = if i < 2 then get2 i a else get2 (i - 2) b\n"
      "def get8 (i: i64) (a: ((i64, i64), (i64, i64)), b: ((i64, i64), (i64, i64))) =\n"
      "  if i < 4 then get4 i a else get4 (i - 4) b\n"
      "entry main (v: ((i64, i64), (i64, i64))) (w: ((i64, i64), (i64, i64))) (k: i64) : i64 =\n"
      "  get8 (2 + 3) (v, w) * get8 (k - 1) (v, w) + (1 + 1) * 3\n");
  const core::Function &f = r.core.functions[0];
  // get8 5: w.0.1 (parameter 5); get8 (k - 1): 7 branches; * and +.
  CHECK(count_kind(f.body, core::ExpKind::If) == 7);
  CHECK(contains(r.text, " + 6i64"));
  CHECK(!contains(r.text, "2i64 + 3i64"));
  // What may fail is left to its check: a division by zero, a negative exponent.
  Lowered d = lower_src("entry main (x: i32) : i32 = x + 1 / 0 + 2 ** (-1) + 7 / 2\n");
  CHECK(count_kind(d.core.functions[0].body, core::ExpKind::BinOp) == 5);
  CHECK(contains(d.text, "1i32 / 0i32"));
  CHECK(contains(d.text, "2i32 ** -1i32"));
  CHECK(!contains(d.text, "7i32 / 2i32"));
}

// ---------------------------------------------------------------------------------
// A reference evaluator of the core IR, for the corpus cross-check.

namespace {

// A scalar (empty shape) or an array of primitives, row-major.
struct CVal {
  PrimType type = PrimType::I32;
  std::vector<int64_t> shape;
  std::vector<Bits> data;
  PrimValue prim() const { return PrimValue{type, data.at(0)}; }
  static CVal of(PrimValue p) { return CVal{p.type, {}, {p.bits}}; }
};

struct CoreFailure {
  int site;
  std::vector<int64_t> args;
};
struct UncheckedError {
  std::string what;
};

class CoreEval {
public:
  explicit CoreEval(const core::Program &p) : p_(p), env_(p.vars.size()) {}

  std::vector<CVal> run(const core::Function &f, const std::vector<CVal> &args) {
    for (size_t i = 0; i < f.params.size(); i++) {
      env_[size_t(f.params[i])] = args.at(i);
      for (size_t d = 0; d < f.param_shape_vars[i].size(); d++)
        env_[size_t(f.param_shape_vars[i][d])] =
            CVal::of(PrimValue::signed_int(PrimType::I64, args[i].shape.at(d)));
    }
    return body(f.body);
  }

private:
  CVal sub(const core::SubExp &s) { return s.is_var() ? env_[size_t(s.var)] : CVal::of(s.constant); }
  int64_t i64(const core::SubExp &s) { return sub(s).prim().as_i64(); }

  std::vector<CVal> body(const core::Body &b) {
    for (const core::Stm &s : b.stms) {
      std::vector<CVal> r = exp(s.exp);
      if (r.size() != s.pat.size()) throw UncheckedError{"wrong number of results"};
      // (A pattern may bind the sizes of its own arrays, e.g. an if's.)
      for (size_t i = 0; i < r.size(); i++)
        if (r[i].shape.empty()) env_[size_t(s.pat[i])] = r[i];
      for (size_t i = 0; i < r.size(); i++) {
        // Shapes declared in the IR must hold.
        const core::VarInfo &v = p_.var(s.pat[i]);
        if (int(r[i].shape.size()) != v.type.rank) throw UncheckedError{"wrong rank of " + v.name};
        for (size_t d = 0; d < v.shape.size(); d++) {
          if (d > 0 && r[i].shape[d - 1] == 0) {
            // Inner sizes of empty arrays: take the declared ones where they are known.
            for (size_t e = d; e < v.shape.size(); e++)
              if (!v.shape[e].is_var() || size_t(v.shape[e].var) < env_.size())
                r[i].shape[e] = std::max<int64_t>(0, i64(v.shape[e]));
            break;
          }
          if (r[i].shape[d] != i64(v.shape[d])) throw UncheckedError{"wrong shape of " + v.name};
        }
        env_[size_t(s.pat[i])] = std::move(r[i]);
      }
    }
    std::vector<CVal> out;
    for (const core::SubExp &r : b.result) out.push_back(sub(r));
    return out;
  }

  [[noreturn]] void fail(int site, std::vector<int64_t> args, const char *what) {
    if (site < 0) throw UncheckedError{what};
    throw CoreFailure{site, std::move(args)};
  }

  static int64_t row_size(const CVal &v) {
    int64_t n = 1;
    for (size_t d = 1; d < v.shape.size(); d++) n *= v.shape[d];
    return n;
  }

  static CVal row(const CVal &v, int64_t i) {
    CVal r{v.type, std::vector<int64_t>(v.shape.begin() + 1, v.shape.end()), {}};
    int64_t n = row_size(v);
    r.data.assign(v.data.begin() + i * n, v.data.begin() + (i + 1) * n);
    return r;
  }

  static CVal stack(PrimType t, std::vector<int64_t> row_shape, const std::vector<CVal> &rows) {
    CVal r{t, {int64_t(rows.size())}, {}};
    r.shape.insert(r.shape.end(), row_shape.begin(), row_shape.end());
    for (const CVal &x : rows) {
      if (x.shape != row_shape) throw UncheckedError{"irregular rows"};
      r.data.insert(r.data.end(), x.data.begin(), x.data.end());
    }
    return r;
  }

  std::vector<CVal> lambda(const core::Lambda &l, const std::vector<CVal> &args) {
    for (size_t i = 0; i < args.size(); i++) env_[size_t(l.params[i])] = args[i];
    return body(l.body);
  }

  // The flat offset of indices `is` in v, after the bounds check.
  int64_t offset(const core::Exp &e, const CVal &v, const std::vector<int64_t> &is) {
    bool ok = true;
    for (size_t d = 0; d < is.size(); d++) ok = ok && is[d] >= 0 && is[d] < v.shape[d];
    if (!ok) {
      std::vector<int64_t> args = is;
      for (size_t d = 0; d < is.size(); d++) args.push_back(v.shape[d]);
      fail(e.site, args, "unchecked index");
    }
    int64_t off = 0;
    for (size_t d = 0; d < v.shape.size(); d++) off = off * v.shape[d] + (d < is.size() ? is[d] : 0);
    return off;
  }

  std::vector<CVal> exp(const core::Exp &e) {
    using K = core::ExpKind;
    switch (e.kind) {
    case K::SubExp: return {sub(e.args[0])};
    case K::BinOp: {
      PrimValue a = sub(e.args[0]).prim(), b = sub(e.args[1]).prim();
      if (is_checked_division(e.binop, a.type) && prim_is_zero(b)) fail(e.site, {}, "unchecked division");
      if (e.binop == BinOp::Pow && is_signed_int(b.type) && b.bits.i < 0) fail(e.site, {}, "unchecked pow");
      return {CVal::of(eval_binop(e.binop, a, b))};
    }
    case K::UnOp: return {CVal::of(eval_unop(e.unop, sub(e.args[0]).prim()))};
    case K::Convert: return {CVal::of(convert_prim(sub(e.args[0]).prim(), e.to))};
    case K::PrimFn: {
      PrimValue ps[2];
      for (size_t i = 0; i < e.args.size(); i++) ps[i] = sub(e.args[i]).prim();
      return {CVal::of(eval_prim_fn(e.prim_fn, ps, e.args.size()))};
    }
    case K::If: return body(*e.bodies[sub(e.args[0]).prim().as_bool() ? 0 : 1]);
    case K::Loop: {
      std::vector<CVal> state;
      size_t n_params = e.loop_params.size();
      for (size_t i = 0; i < n_params; i++) state.push_back(sub(e.args[i]));
      auto bind = [&] {
        for (size_t i = 0; i < n_params; i++) env_[size_t(e.loop_params[i])] = state[i];
      };
      if (e.is_while) {
        for (;;) {
          bind();
          if (!body(*e.bodies[1]).at(0).prim().as_bool()) return state;
          state = body(*e.bodies[0]);
        }
      }
      PrimValue bound = sub(e.args.back()).prim();
      uint64_t n = is_signed_int(bound.type) ? (bound.bits.i > 0 ? uint64_t(bound.bits.i) : 0) : bound.bits.u;
      for (uint64_t i = 0; i < n; i++) {
        bind();
        env_[size_t(e.loop_var)] = CVal::of(PrimValue::unsigned_int(bound.type, i));
        state = body(*e.bodies[0]);
      }
      return state;
    }
    case K::Index: {
      const CVal &v = env_[size_t(e.arrays[0])];
      std::vector<int64_t> is;
      for (const core::SubExp &a : e.args) is.push_back(i64(a));
      int64_t off = offset(e, v, is);
      CVal r{v.type, std::vector<int64_t>(v.shape.begin() + long(is.size()), v.shape.end()), {}};
      int64_t n = 1;
      for (int64_t d : r.shape) n *= d;
      r.data.assign(v.data.begin() + off, v.data.begin() + off + n);
      return {r};
    }
    case K::Update: {
      CVal v = env_[size_t(e.arrays[0])];
      std::vector<int64_t> is;
      for (size_t i = 0; i + 1 < e.args.size(); i++) is.push_back(i64(e.args[i]));
      int64_t off = offset(e, v, is);
      CVal x = sub(e.args.back());
      std::copy(x.data.begin(), x.data.end(), v.data.begin() + off);
      return {v};
    }
    case K::Iota: {
      int64_t n = i64(e.args[0]);
      if (n < 0) throw UncheckedError{"negative iota"};
      CVal r{e.to, {n}, {}};
      for (int64_t i = 0; i < n; i++) r.data.push_back(PrimValue::signed_int(e.to, i).bits);
      return {r};
    }
    case K::Replicate: {
      int64_t n = i64(e.args[0]);
      if (n < 0) throw UncheckedError{"negative replicate"};
      CVal x = sub(e.args[1]);
      return {stack(x.type, x.shape, std::vector<CVal>(size_t(n), x))};
    }
    case K::ArrayLit: {
      std::vector<CVal> rows;
      for (const core::SubExp &a : e.args) rows.push_back(sub(a));
      return {stack(rows[0].type, rows[0].shape, rows)};
    }
    case K::Copy: return {env_[size_t(e.arrays[0])]};
    case K::Map: {
      int64_t w = i64(e.args[0]);
      for (int a : e.arrays)
        if (env_[size_t(a)].shape.at(0) != w) throw UncheckedError{"map width"};
      std::vector<std::vector<CVal>> outs;
      for (int64_t i = 0; i < w; i++) {
        std::vector<CVal> args;
        for (int a : e.arrays) args.push_back(row(env_[size_t(a)], i));
        std::vector<CVal> r = lambda(*e.lambda, args);
        outs.resize(r.size());
        for (size_t k = 0; k < r.size(); k++) outs[k].push_back(r[k]);
      }
      std::vector<CVal> result;
      for (const core::SubExp &r : e.lambda->body.result) (void)r;
      size_t k_out = e.lambda->body.result.size();
      for (size_t k = 0; k < k_out; k++) {
        core::CType rt = p_.type_of(e.lambda->body.result[k]);
        std::vector<int64_t> row_shape =
            w ? outs[k][0].shape : std::vector<int64_t>(size_t(rt.rank), 0);
        result.push_back(stack(rt.prim, row_shape, w ? outs[k] : std::vector<CVal>{}));
      }
      return result;
    }
    case K::Reduce:
    case K::Scan: {
      int64_t w = i64(e.args[0]);
      std::vector<CVal> acc;
      for (size_t i = 1; i < e.args.size(); i++) acc.push_back(sub(e.args[i]));
      std::vector<std::vector<CVal>> scanned(acc.size());
      for (int64_t i = 0; i < w; i++) {
        std::vector<CVal> args = acc;
        for (int a : e.arrays) args.push_back(row(env_[size_t(a)], i));
        acc = lambda(*e.lambda, args);
        for (size_t k = 0; k < acc.size(); k++) scanned[k].push_back(acc[k]);
      }
      if (e.kind == K::Reduce) return acc;
      std::vector<CVal> result;
      for (size_t k = 0; k < acc.size(); k++) result.push_back(stack(acc[k].type, acc[k].shape, scanned[k]));
      return result;
    }
    case K::Assert: {
      if (sub(e.args[0]).prim().as_bool()) return {CVal::of(PrimValue::boolean(true))};
      std::vector<int64_t> args;
      for (size_t i = 1; i < e.args.size(); i++) args.push_back(i64(e.args[i]));
      fail(e.site, args, "unchecked assert");
    }
    default: break; // views, concat, scatter, ...: not used by these tests
    }
    throw UncheckedError{"unknown expression"};
  }

  const core::Program &p_;
  std::vector<CVal> env_;
};

void flatten_value(const Value &v, std::vector<CVal> &out) {
  switch (v.kind) {
  case Value::Prim: out.push_back(CVal::of(v.prim)); return;
  case Value::Tuple:
    // () is one bool, as the lowering flattens it.
    if (v.elems.empty()) out.push_back(CVal::of(PrimValue::boolean(false)));
    for (const Value &e : v.elems) flatten_value(e, out);
    return;
  case Value::Array:
    if (v.array->elem.kind == ValueType::Prim) {
      out.push_back(CVal{v.array->elem.prim, v.array->shape, v.array->data});
      return;
    }
    if (v.array->elem.elems.empty())
      out.push_back(CVal{PrimType::Bool, v.array->shape,
                         std::vector<Bits>(size_t(v.array->num_elements()))});
    for (const Value &c : v.array->components) flatten_value(c, out);
    return;
  }
}

bool same_bits(const CVal &a, const CVal &b) {
  if (a.type != b.type || a.shape != b.shape || a.data.size() != b.data.size()) return false;
  for (size_t i = 0; i < a.data.size(); i++) {
    PrimValue x{a.type, a.data[i]}, y{b.type, b.data[i]};
    if (x == y) continue;
    if (is_float(a.type) && x.as_f64() != x.as_f64() && y.as_f64() != y.as_f64()) continue;
    return false;
  }
  return true;
}

} // namespace

TEST_CASE("lowered corpus programs agree with the interpreter", "[lower][corpus]") {
  namespace fs = std::filesystem;
  int compared = 0, failures_compared = 0;
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(fs::path(KERB_SOURCE_DIR) / "tests" / "programs"))
    if (entry.path().extension() == ".fut") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path &path : files) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    auto file = std::make_shared<SourceFile>(path.string(), text);
    Program program;
    driver::TestSpec spec;
    try {
      program = parse_program(file);
      type_check(program);
      spec = driver::parse_test_spec(text, path.string());
    } catch (const std::exception &) {
      continue;
    }
    for (const driver::TestBlock &block : spec.blocks) {
      if (block.disabled()) continue;
      for (const std::string &entry_name : block.entries) {
        const FunDef *f = program.find(entry_name);
        if (!f) continue;
        core::Program lowered;
        try {
          lowered = lower_and_check(program, {f}, PipelineOptions{});
        } catch (const CompileError &) {
          continue; // not supported yet
        }
        for (const driver::TestCase &tc : block.cases) {
          if (tc.input.kind != driver::SpecValues::Inline) continue;
          // Too large for the interpreter (e.g. the GPU's edge sizes of
          // tests/programs/soacs/warp_reduce.fut: minutes each here).
          if (std::find(tc.tags.begin(), tc.tags.end(), "no_interp") != tc.tags.end()) continue;
          std::vector<Value> args;
          try {
            ValueReader reader(tc.input.text, path.string());
            for (const Pattern &p : f->params) {
              ValueType t = p.type.value_type();
              args.push_back(reader.read(&t));
            }
          } catch (const std::exception &) {
            continue;
          }
          INFO(path.string() << ":" << tc.line << " entry " << entry_name << "\n"
                             << print_program(lowered));
          RunResult expected = interpret(program, entry_name, args);
          // A check in a map removed as dead code fails on the interpreter only, and
          // the lowered program goes on to what follows (docs/CHECKS.md, Note [Checks
          // in dead code]; the corpus on the CPU device has what it does).
          if (!expected.ok && std::any_of(lowered.candidates.begin(), lowered.candidates.end(),
                                          [&](const core::CheckCandidate &c) {
                                            return c.removed_as_dead() && c.kind == expected.failure.kind &&
                                                   c.span.location() == expected.failure.location;
                                          }))
            continue;
          std::vector<CVal> cargs;
          for (const Value &a : args) flatten_value(a, cargs);
          CoreEval eval(lowered);
          try {
            std::vector<CVal> got = eval.run(lowered.functions[0], cargs);
            REQUIRE(expected.ok);
            std::vector<CVal> want;
            for (const Value &v : expected.results) flatten_value(v, want);
            REQUIRE(want.size() == got.size());
            for (size_t i = 0; i < want.size(); i++) CHECK(same_bits(want[i], got[i]));
            compared++;
          } catch (const CoreFailure &cf) {
            INFO("core failed at site " << cf.site);
            REQUIRE_FALSE(expected.ok);
            const FailureRecord &rec = lowered.failures.records.at(size_t(cf.site));
            CHECK(format_failure_message(rec, cf.args) == expected.failure.message);
            CHECK(rec.location == expected.failure.location);
            CHECK(rec.kind == expected.failure.kind);
            failures_compared++;
          } catch (const UncheckedError &u) {
            // #[unsafe] may drop a bounds or division check that the interpreter still
            // makes.
            if (!expected.ok &&
                ((u.what == "unchecked index" && expected.failure.kind == FailureKind::Bounds) ||
                 (u.what == "unchecked division" && expected.failure.kind == FailureKind::Division)))
              continue;
            // Kinds this small evaluator does not implement (views, concat, scatter,
            // ...) are covered by the corpus on the CPU device instead.
            if (u.what == "unknown expression") continue;
            FAIL("core evaluation went wrong: " << u.what
                 << (expected.ok ? "" : "; interpreter: " + expected.failure.str()));
          }
        }
      }
    }
  }
  WARN("compared " << compared << " results and " << failures_compared << " failures");
  CHECK(compared > 100);
}
