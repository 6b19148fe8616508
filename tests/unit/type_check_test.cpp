// Unit tests for the type checker (compiler/type_check): inferred types of literals and
// expressions, name and call resolution, the types given to functional arguments, the
// sizes carried in types, and the first diagnostic of ill-typed programs.
#include "compiler/types/type_check.h"

#include "compiler/syntax/parser.h"

#include <catch2/catch.hpp>

#include <memory>

using namespace kerb;

namespace {

struct Checked {
  std::shared_ptr<const SourceFile> file;
  std::unique_ptr<Program> program;
};

Checked check(const std::string &src) {
  Checked c;
  c.file = std::make_shared<SourceFile>("t.fut", src);
  c.program = std::make_unique<Program>(parse_program(c.file));
  type_check(*c.program);
  return c;
}

// The type of the body of the last definition.
std::string body_type(const std::string &src) {
  Checked c = check(src);
  return c.program->defs.back()->body->type.str();
}

// "LINE:COL: message" of the first type error, or "" when the program checks.
std::string type_error(const std::string &src) {
  auto file = std::make_shared<SourceFile>("t.fut", src);
  Program p = parse_program(file);
  try {
    type_check(p);
  } catch (const CompileError &e) {
    return std::to_string(file->line_of(e.span().begin)) + ":" +
           std::to_string(file->col_of(e.span().begin)) + ": " + e.what();
  }
  return "";
}

} // namespace

TEST_CASE("unsuffixed literals default to i32 and f64", "[type_check]") {
  CHECK(body_type("def main = 1") == "i32");
  CHECK(body_type("def main = 2.5") == "f64");
  CHECK(body_type("def main = (1, 2.0, true)") == "(i32, f64, bool)");
}

TEST_CASE("literals take their type from the context", "[type_check]") {
  CHECK(body_type("def main (x: u8) = x + 1") == "u8");
  CHECK(body_type("def main (x: f32) = 1 + x") == "f32");
  CHECK(body_type("def main (x: i64) = let y = 3 in x * y") == "i64");
  // An integer literal may be a float; a float literal may not be an integer.
  CHECK(body_type("def main (x: f32) = x * 2") == "f32");
  CHECK(type_error("def main (x: i16) = x + 0.5") != "");
  // Bitwise operators make a literal an integer: 1 & 3 is i32.
  CHECK(body_type("def main = 1 & 3") == "i32");
  // An index may be of any integer type; as in Futhark, one that nothing else fixes
  // defaults to i32 (and `def get xs i = xs[i]` may be called with an i32).
  Checked c = check("def main (xs: []i32) = let i = 0 in xs[i]");
  const Expr &let = *c.program->defs[0]->body;
  CHECK(let.args[0]->type.str() == "i32");
  CHECK(type_error("def get xs i = xs[i]\ndef main (xs: []i32) (i: i32) = get xs i") == "");
}

TEST_CASE("names and calls are resolved", "[type_check]") {
  Checked c = check("def inc (x: i32) = x + 1\n"
                    "def main (xs: []i32) = (map inc xs, f32.sqrt 2, i32.highest, length xs)");
  const Expr &tuple = *c.program->defs[1]->body;
  const Expr &map = *tuple.args[0];
  CHECK(map.callee == Callee::ArrayBuiltin);
  CHECK(map.array_builtin == ArrayBuiltin::Map);
  CHECK(map.args[0]->callee == Callee::Function);
  CHECK(map.args[0]->fun == c.program->defs[0].get());
  CHECK(tuple.args[1]->callee == Callee::PrimBuiltin);
  CHECK(tuple.args[1]->prim_builtin.fn == PrimFn::Sqrt);
  CHECK(tuple.args[1]->type.str() == "f32");
  CHECK(tuple.args[2]->prim_builtin.fn == PrimFn::Highest);
  CHECK(tuple.args[3]->type.str() == "i64");
  CHECK(tuple.type.str() == "([]i32, f32, i32, i64)");
}

TEST_CASE("functional arguments get the parameter types the built-in gives", "[type_check]") {
  CHECK(body_type("def main (xs: [][]f32) = map (\\r -> reduce (+) 0 r) xs") == "[]f32");
  CHECK(body_type("def main (xs: []i32) (ys: []i32) = map2 (*) xs ys") == "[]i32");
  CHECK(body_type("def main (xs: []u16) = scan (+) 0 xs") == "[]u16");
  CHECK(body_type("def main (xs: []f64) = map (2-) xs") == "[]f64");
  CHECK(body_type("def main (xs: []i32) = partition (> 0) xs") == "([]i32, []i32)");
  CHECK(body_type("def add (a: i32) (b: i32) = a + b\n"
                  "def main (xs: []i32) = map (add 1) xs") == "[]i32");
  CHECK(body_type("def main (xss: [][]i32) = map (map (+ 1)) xss") == "[][]i32");
  CHECK(body_type("def main (xs: []f32) = map f32.abs xs") == "[]f32");
  CHECK(body_type("def main (xs: []i32) = reduce_by_index (replicate 3 0) (+) 0 "
                  "(map i64.i32 xs) xs") == "[3]i32");
  CHECK(body_type("def main (xs: []i32) = foldl (\\acc x -> acc + f64.i32 x) 0 xs") == "f64");
}

TEST_CASE("sizes are carried where they are known", "[type_check]") {
  CHECK(body_type("def main (n: i64) = iota n") == "[n]i64");
  CHECK(body_type("def main (n: i64) = replicate (n * 2) 1.0f32") == "[n * 2]f32");
  CHECK(body_type("def main [n][m] (xss: [n][m]i32) = transpose xss") == "[m][n]i32");
  CHECK(body_type("def main [n][m] (xss: [n][m]i32) = flatten xss") == "[n * m]i32");
  CHECK(body_type("def main = [[1, 2], [3, 4]]") == "[2][2]i32");
  // A callee's sizes are instantiated with the caller's.
  CHECK(body_type("def f [k] (xs: [k]i32) : [k]i32 = xs\n"
                  "def main [n] (ys: [n]i32) = f ys") == "[n]i32");
  // unflatten takes its sizes from an annotation it is bound to.
  Checked c = check("def main (xs: []i32) = let m : [2][3]i32 = unflatten xs in m");
  CHECK(c.program->defs[0]->body->args[0]->type.str() == "[2][3]i32");
  // A size naming a variable that goes out of scope is forgotten.
  CHECK(body_type("def main = let k = 4i64 in iota k") == "[]i64");
  // `length xs` is xs's outer size.
  CHECK(body_type("def main [n][m] (xss: [n][m]i32) = iota (length (transpose xss))") == "[m]i64");
  CHECK(body_type("def main [n] (xs: [n]i32) = replicate (length xs) 0u8") == "[n]u8");
  CHECK(body_type("def main = let k = 4i64 in iota (length (iota k))") == "[]i64");
  CHECK(body_type("def main (xs: []i32) = iota (length xs)") == "[]i64");
}

TEST_CASE("ill-typed programs get a located diagnostic", "[type_check]") {
  CHECK(type_error("def main (x: i32) (y: f32) = x + y") ==
        "1:30: the operands of '+' must have the same type, but have types i32 and f32");
  CHECK(type_error("def main (xs: []i32) = map (\\x -> x > 0) 3") ==
        "1:42: Cannot apply \"map\" to \"3\" (invalid type): the second argument must be an array, "
        "but has type i32");
  CHECK(type_error("def main (xs: []i32) = reduce (+) 0 xs xs") ==
        "1:24: Cannot apply \"reduce\" to 4 arguments: the function accepts only 3 arguments");
  CHECK(type_error("def main (b: bool) = -b") == "1:22: unary '-' needs a number, found bool");
  CHECK(type_error("def main (x: i32) = f32.pi x") == "1:21: 'f32.pi' is a constant, not a function");
  CHECK(type_error("def main (x: i32) = let y: [3]i32 = x in y") ==
        "1:25: this pattern has type [3]i32, but the value has type i32");
  CHECK(type_error("def main (xs: []i32) = xs[1.0]") ==
        "1:27: an index must be an integer, but has type f64");
  CHECK(type_error("def g (x: i32) = x\ndef main (xs: []i32) = map g 1") ==
        "2:30: Cannot apply \"map\" to \"1\" (invalid type): the second argument must be an array, "
        "but has type i32");
  CHECK(type_error("def main (xs: []i32) = map xs xs") ==
        "1:28: Cannot apply \"map\" to \"xs\" (invalid type): the first argument must be a function, "
        "but has type []i32");
}
