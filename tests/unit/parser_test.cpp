// Unit tests for compiler/parser (and the AST printer it is checked through):
// precedence and associativity, every construct of the subset, desugarings, spans,
// and the diagnostics for syntax errors and left-out features.
#include "compiler/modules/module_ast.h"
#include "compiler/syntax/ast_printer.h"
#include "compiler/syntax/parser.h"

#include <catch2/catch.hpp>

#include <regex>

using namespace kerb;

namespace {

Program parse_text(const std::string &src) {
  return parse_program(std::make_shared<SourceFile>("t.fut", src));
}

// The printed body of `def main = EXPR`, on one line with single spaces.
std::string body_of(const std::string &expr) {
  Program p = parse_text("def main = " + expr);
  REQUIRE(p.defs.size() == 1);
  std::string s = print_expr(*p.defs[0]->body, false);
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == ' ') {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// "LINE:COL: MESSAGE" of the error parsing `src` throws.
std::string parse_error(const std::string &src) {
  auto f = std::make_shared<SourceFile>("t.fut", src);
  try {
    parse_program(f);
  } catch (const CompileError &e) {
    return std::to_string(f->line_of(e.span().begin)) + ":" + std::to_string(f->col_of(e.span().begin)) +
           ": " + e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("binary operators follow Futhark's precedence", "[parser]") {
  CHECK(body_of("a + b * c") == "(binop + (var a) (binop * (var b) (var c)))");
  CHECK(body_of("a - b - c") == "(binop - (binop - (var a) (var b)) (var c))");
  CHECK(body_of("2 ** 3 ** 4") == "(binop ** (binop ** (int 2) (int 3)) (int 4))");
  CHECK(body_of("a < b && c || d") ==
        "(binop || (binop && (binop < (var a) (var b)) (var c)) (var d))");
  CHECK(body_of("a & b == c") == "(binop == (binop & (var a) (var b)) (var c))");
  CHECK(body_of("a << 1 + b") == "(binop << (var a) (binop + (int 1) (var b)))");
  CHECK(body_of("xs ++ ys ++ zs") == "(binop ++ (binop ++ (var xs) (var ys)) (var zs))");
  CHECK(body_of("a // b %% c") == "(binop %% (binop // (var a) (var b)) (var c))");
}

TEST_CASE("unary operators bind tighter than binary ones, looser than application", "[parser]") {
  CHECK(body_of("-x ** 2") == "(binop ** (neg (var x)) (int 2))");
  CHECK(body_of("-f x") == "(neg (apply f (var x)))");
  CHECK(body_of("!a && b") == "(binop && (not (var a)) (var b))");
  CHECK(body_of("a - -1") == "(binop - (var a) (neg (int 1)))");
}

TEST_CASE("pipes become applications", "[parser]") {
  CHECK(body_of("x |> f |> g") == "(apply g (apply f (var x)))");
  CHECK(body_of("xs |> map f |> reduce (+) 0") ==
        "(apply reduce (section (+)) (int 0) (apply map (var f) (var xs)))");
  CHECK(body_of("f a <| g <| x") == "(apply f (var a) (apply g (var x)))");
  CHECK(body_of("x + 1 |> f") == "(apply f (binop + (var x) (int 1)))");
  CHECK(body_of("x |> \\y -> y + 1") == "(let y (var x) (binop + (var y) (int 1)))");
  CHECK(body_of("x |> (*2)") == "(binop * (var x) (int 2))");
  CHECK(body_of("x |> (2-)") == "(binop - (int 2) (var x))");
}

TEST_CASE("application, indexing and projection", "[parser]") {
  CHECK(body_of("f x y") == "(apply f (var x) (var y))");
  CHECK(body_of("f [1, 2] a[0]") == "(apply f (array (int 1) (int 2)) (index (var a) (indices (int 0))))");
  CHECK(body_of("f32.sqrt x + i32.highest") == "(binop + (apply f32.sqrt (var x)) (var i32.highest))");
  CHECK(body_of("t.0.1") == "(project 1 (project 0 (var t)))");
  CHECK(body_of("xs[i].0") == "(project 0 (index (var xs) (indices (var i))))");
  CHECK(body_of("a[i, j]") == "(index (var a) (indices (var i) (var j)))");
  CHECK(body_of("a[i:j:2, :, ::2, 1:, :n]") ==
        "(index (var a) (indices (slice (var i) (var j) (int 2)) (slice _ _ _) (slice _ _ (int 2)) "
        "(slice (int 1) _ _) (slice _ (var n) _)))");
}

TEST_CASE("literals", "[parser]") {
  CHECK(body_of("(1i64, 2.5f32, true, 0xffu8, 2f64)") ==
        "(tuple (int 1i64) (float 2.5f32) (bool true) (int 255u8) (float 2f64))");
  CHECK(body_of("()") == "(tuple)");
  CHECK(body_of("(-1)") == "(neg (int 1))");
}

TEST_CASE("let, if and loops", "[parser]") {
  CHECK(body_of("let a = 1\nlet (b, _) = (2, 3)\nin a + b") ==
        "(let a (int 1) (let (b, _) (tuple (int 2) (int 3)) (binop + (var a) (var b))))");
  CHECK(body_of("let x: i32 = 1 in x") == "(let (x: i32) (int 1) (var x))");
  CHECK(body_of("let xs[i] = 5 in xs") ==
        "(let xs (update (var xs) (int 5) (indices (var i))) (var xs))");
  CHECK(body_of("if c then 1 else 2 + 3") == "(if (var c) (int 1) (binop + (int 2) (int 3)))");
  CHECK(body_of("1 + if c then 1 else 2") == "(binop + (int 1) (if (var c) (int 1) (int 2)))");
  CHECK(body_of("loop (x, y) = (0, 1) for i < n do (y, x + y)") ==
        "(loop (x, y) for i < (tuple (int 0) (int 1)) (var n) (tuple (var y) (binop + (var x) (var y))))");
  CHECK(body_of("loop acc for x in xs do acc + x") ==
        "(loop acc for x in _ (var xs) (binop + (var acc) (var x)))");
  CHECK(body_of("loop i = 0 while i < 10 do i + 1") ==
        "(loop i while (int 0) (binop < (var i) (int 10)) (binop + (var i) (int 1)))");
}

TEST_CASE("updates, ranges, ascriptions, asserts and attributes", "[parser]") {
  CHECK(body_of("a with [i] = v with [j:] = w") ==
        "(update (update (var a) (var v) (indices (var i))) (var w) (indices (slice (var j) _ _)))");
  CHECK(body_of("a with [i] = x + 1") == "(update (var a) (binop + (var x) (int 1)) (indices (var i)))");
  CHECK(body_of("0..<n") == "(range ..< (int 0) _ (var n))");
  CHECK(body_of("1..3...9") == "(range .. (int 1) (int 3) (int 9))");
  CHECK(body_of("n..>0") == "(range ..> (var n) _ (int 0))");
  CHECK(body_of("0..n-1") == "(range .. (int 0) _ (binop - (var n) (int 1)))");
  CHECK(body_of("x : i32") == "(ascribe i32 (var x))");
  CHECK(body_of("xs :> [n][3]f32") == "(coerce [n][3]f32 (var xs))");
  CHECK(body_of("assert (x > 0) (x + 1)") ==
        "(assert (binop > (var x) (int 0)) (binop + (var x) (int 1)))");
  CHECK(body_of("#[unsafe] xs[i] + 1") == "(unsafe (binop + (index (var xs) (indices (var i))) (int 1)))");
}

TEST_CASE("lambdas and operator sections", "[parser]") {
  CHECK(body_of("map (\\x y -> x + y) xs") ==
        "(apply map (lambda x y (binop + (var x) (var y))) (var xs))");
  CHECK(body_of("map (\\(x: i32) (y, z) : i32 -> x) xs") ==
        "(apply map (lambda (x: i32) (y, z) -> i32 (var x)) (var xs))");
  CHECK(body_of("map (*2) (map (2-) xs)") ==
        "(apply map (section right * (int 2)) (apply map (section left - (int 2)) (var xs)))");
  CHECK(body_of("reduce (-) 0 xs") == "(apply reduce (section (-)) (int 0) (var xs))");
}

TEST_CASE("declarations", "[parser]") {
  Program p = parse_text("#[unsafe] def f [n] (xs: *[n]i32) (a: i32, b: f32) (): [n]i32 = xs\n"
                         "entry main (x: i32) = f x\nlet g (x: bool) = x");
  REQUIRE(p.defs.size() == 3);
  const FunDef &f = *p.defs[0];
  CHECK(f.is_unsafe);
  CHECK_FALSE(f.is_entry);
  CHECK(f.size_params == std::vector<std::string>{"n"});
  REQUIRE(f.params.size() == 3);
  CHECK(f.params[0].annotation->str() == "*[n]i32");
  CHECK(f.params[1].kind == Pattern::Tuple);
  CHECK(f.params[1].annotation->str() == "(i32, f32)");
  CHECK(f.params[2].annotation->str() == "()");
  CHECK(f.ret_annotation->str() == "[n]i32");
  CHECK(f.span.text().starts_with("#[unsafe] def f"));
  CHECK(f.name_span.text() == "f");
  CHECK(p.defs[1]->is_entry);
  CHECK(p.find("g") == p.defs[2].get());
  CHECK(p.find("nope") == nullptr);
  CHECK(print_ast(p, false).starts_with("(#[unsafe] def f [n] (xs: *[n]i32)"));
}

TEST_CASE("spans cover the whole construct", "[parser]") {
  Program p = parse_text("def main = f (a + 1) xs[i + 2]");
  const Expr &app = *p.defs[0]->body;
  CHECK(app.span.text() == "f (a + 1) xs[i + 2]");
  CHECK(app.args[1]->span.text() == "xs[i + 2]");
  CHECK(app.args[1]->indices[0].span.text() == "i + 2");
  Program q = parse_text("def main = let x = 1 in x * 2");
  CHECK(q.defs[0]->body->span.text() == "let x = 1 in x * 2");
  CHECK(q.defs[0]->body->args[1]->span.text() == "x * 2");
}

TEST_CASE("syntax errors", "[parser]") {
  CHECK(parse_error("def main (x: i32) = if x > 0 1 else 2") ==
        "1:30: expected 'then' after the condition of 'if', found '1'");
  CHECK(parse_error("def main (x: i32) = if x then 1") ==
        "1:32: expected 'else' after the 'then' branch (every 'if' needs an 'else'), found end of file");
  CHECK(parse_error("def main (x: i32) = let y = x + 1 2") ==
        "1:35: expected 'in' after the value of 'let', found '2'");
  CHECK(parse_error("def main (x: i32) = (x + 1") ==
        "1:27: expected ')' or ',' in the parenthesised expression, found end of file");
  CHECK(parse_error("main = 1") == "1:1: expected a declaration ('def', 'entry' or 'let'), found 'main'");
  CHECK(parse_error("def main = x )") == "1:14: unexpected ')' after the body of 'main'");
  CHECK(parse_error("def main = loop x = 0 for i < 3 x") ==
        "1:33: expected 'do' before the loop body, found 'x'");
  CHECK(parse_error("type t = {x: i32, x: f32}") == "1:19: Duplicate field 'x' in record type");
  CHECK(parse_error("def main = {x = 1, x = 2}") ==
        "1:20: Field 'x' previously defined in this record (duplicate field)");
  CHECK(parse_error("def main (x: i32) = match x") ==
        "1:28: expected 'case' after the value of 'match', found end of file");
  CHECK(parse_error("def main (1: i32) = 0") ==
        "1:11: Refutable pattern not allowed here: a literal pattern can only be a case of 'match'");
  CHECK(parse_error("def main = a[1:2:3:4]") == "1:19: a slice has at most three parts ('i:j:s')");
  CHECK(parse_error("def main = _") == "1:12: '_' can only be used in a pattern, not as a value");
}

TEST_CASE("module declarations parse into Program::modules", "[parser]") {
  auto file = std::make_shared<SourceFile>("t.fut", "module M = { def x = 1 }\nopen i32\nimport \"lib\"\ndef y = 2");
  Program p = parse_program(file);
  CHECK(p.defs.empty());
  REQUIRE(p.modules != nullptr);
  CHECK(p.modules->decls.size() == 4);
  CHECK(parse_error("module M = { def x = 1") == "1:12: this module has no closing '}'");
  CHECK(parse_error("val x : i32") == "1:1: 'val' can only be used in a module type");
  CHECK(parse_error("import 1") == "1:8: expected a file name in double quotes, found '1'");
}

TEST_CASE("the whole language parses", "[parser]") {
  // Local functions, polymorphism, higher-order functions, sections.
  CHECK(body_of("let f x = x + 1 in f 2") == "(letfun f (def f (x) (binop + (var x) (int 1))) (apply f (int 2)))");
  CHECK(body_of("(f x) y") == "(apply (apply f (var x)) (var y))");
  CHECK(body_of("x |> (+)") == "(apply (section (+)) (var x))");
  CHECK(body_of("(i32.+)") == "(section (i32.+))");
  CHECK(body_of("(`max` 2)") == "(section right max (int 2))");
  CHECK(body_of("(.1)") == "(section .1)");
  CHECK(body_of("(.a.b)") == "(section .a.b)");
  CHECK(body_of("map \\x -> x") == "(apply map (lambda x (var x)))");
  // User-defined operators take the precedence of their first characters.
  CHECK(body_of("a +^ b * c") == "(apply +^ (var a) (binop * (var b) (var c)))");
  CHECK(body_of("a `max` b + c") == "(apply max (var a) (binop + (var b) (var c)))");
  CHECK(body_of("f >-> g |> h") == "(apply h (apply >-> (var f) (var g)))");
  // Records, sums, match.
  CHECK(body_of("{x = 1, y}") == "(record x y (int 1) (var y))");
  CHECK(body_of("r.x.y") == "(field y (field x (var r)))");
  CHECK(body_of("r with x = 2") == "(update field x (var r) (int 2))");
  CHECK(body_of("#some 1 2") == "(constr #some (int 1) (int 2))");
  CHECK(body_of("match x case #a y -> y case _ -> 0") ==
        "(match | (#a y) | _ (var x) (var y) (int 0))");
  CHECK(body_of("[]") == "(array)");
  // Attributes other than #[unsafe] are dropped.
  CHECK(body_of("#[sequential] map f xs") == "(apply map (var f) (var xs))");
  CHECK(body_of("#[unsafe] xs[0]") == "(unsafe (index (var xs) (indices (int 0))))");
  Program p = parse_text("type t 'a [n] = ([n]a, #x | #y i32)\n"
                         "#[inline] def (+^) 'a '^b [n] (x: t a [n]) (f: a -> b) : ?[m].[m]b = x\n"
                         "def (a: i32) %% (b: i32) = a");
  REQUIRE(p.types.size() == 1);
  CHECK(p.types[0]->definition.str() == "([n]a, #x | #y i32)");
  REQUIRE(p.defs.size() == 2);
  const FunDef &f = *p.defs[0];
  CHECK(f.name == "+^");
  CHECK(f.type_params.size() == 2);
  CHECK(f.type_params[1].kind == TypeParam::Lifted);
  CHECK(f.params[0].annotation->str() == "t a [n]");
  CHECK(f.params[1].annotation->str() == "a -> b");
  CHECK(f.ret_annotation->str() == "[]b");
  CHECK(p.defs[1]->name == "%%");
  Program q = parse_text("def main [n] (xs: [n + 1]i32) (ys: [n*2][]f32) = xs");
  CHECK(q.defs[0]->params[0].annotation->str() == "[n + 1]i32");
  CHECK(q.defs[0]->params[1].annotation->str() == "[n*2][]f32");
  CHECK(p.defs[1]->params.size() == 2);
}

TEST_CASE("the printer shows types when asked", "[parser]") {
  Program p = parse_text("def main (x: i32) = x");
  p.defs[0]->body->type = Type::prim_type(PrimType::I32);
  p.defs[0]->params[0].type = Type::prim_type(PrimType::I32);
  p.defs[0]->ret_type = Type::prim_type(PrimType::I32);
  CHECK(print_ast(p, true) == "(def main (x: i32) : i32\n  (var x : i32))\n");
}
