// The prelude (prelude.h). Its text is Kerb's own; the signatures follow Futhark's
// documented prelude so that programs written for Futhark find what they expect.
#include "compiler/prelude.h"

#include "compiler/syntax/parser.h"

#include <functional>
#include <set>

namespace kerb {

namespace {

const char kPrelude[] = R"(
def id '^a (x: a) : a = x
def trace 't (x: t) : t = x
def break 't (x: t) : t = x
def const 'a '^b (x: a) (_: b) : a = x
def flip '^a '^b '^c (f: a -> b -> c) (y: b) (x: a) : c = f x y
def curry '^a '^b '^c (f: (a, b) -> c) (x: a) (y: b) : c = f (x, y)
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)) : c = f p.0 p.1
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)

def iterate 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while !(p x) do f x
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while p x do f x

def r32 (x: i32) : f32 = f32.i32 x
def t32 (x: f32) : i32 = i32.f32 x
def r64 (x: i32) : f64 = f64.i32 x
def t64 (x: f64) : i32 = i32.f64 x

def not (x: bool) : bool = !x
def and (xs: []bool) : bool = all (\b -> b) xs
def or (xs: []bool) : bool = any (\b -> b) xs
def null 'a (xs: []a) : bool = length xs == 0
def indices [n] 'a (_: [n]a) : *[n]i64 = iota n
def manifest 't (x: t) : *t = copy x
def sized 't [m] (n: i64) (xs: [m]t) : [n]t = xs :> [n]t

def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[n][m]a =
  map (\i -> map (\j -> f i j) (iota m)) (iota n)
def tabulate_3d 'a (n: i64) (m: i64) (l: i64) (f: i64 -> i64 -> i64 -> a) : *[n][m][l]a =
  map (\i -> map (\j -> map (\k -> f i j k) (iota l)) (iota m)) (iota n)

def flatten_3d 'a [n][m][l] (xs: [n][m][l]a) : [n * m * l]a = flatten (flatten xs)
def flatten_4d 'a [n][m][l][k] (xs: [n][m][l][k]a) : [n * m * l * k]a = flatten (flatten (flatten xs))

def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t = scatter (replicate k x) is vs

def partition2 'a [n] (p1: a -> bool) (p2: a -> bool) (xs: [n]a) : ([]a, []a, []a) =
  (filter p1 xs, filter (\x -> !(p1 x) && p2 x) xs, filter (\x -> !(p1 x) && !(p2 x)) xs)

def scatter_2d 't [k][n][m] (dest: *[n][m]t) (is: [k](i64, i64)) (vs: [k]t) : *[n][m]t =
  let flat = map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is
  in unflatten n m (scatter (flatten dest) flat vs)

def scatter_3d 't [k][n][m][l] (dest: *[n][m][l]t) (is: [k](i64, i64, i64)) (vs: [k]t) : *[n][m][l]t =
  let flat = map (\(i, j, h) -> if i >= 0 && i < n && j >= 0 && j < m && h >= 0 && h < l
                                then (i * m + j) * l + h else -1) is
  in unflatten n m (unflatten (n * m) l (scatter (flatten (flatten dest)) flat vs))

def reduce_by_index_2d 'a [k][n][m] (dest: *[n][m]a) (f: a -> a -> a) (ne: a)
                       (is: [k](i64, i64)) (vs: [k]a) : *[n][m]a =
  let flat = map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is
  in unflatten n m (reduce_by_index (flatten dest) f ne flat vs)

def exscan 'a [n] (op: a -> a -> a) (ne: a) (xs: [n]a) : *[n]a =
  let s = scan op ne xs
  in map (\i -> if i == 0 then ne else s[i - 1]) (iota n)

def flatmap 'a 'b 'c [n] (f: a -> ([]b, c)) (xs: [n]a)
    : ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let shape = map (\x -> length (f x).0) xs
  let offsets = exscan (+) 0 shape
  let data = if n == 0 then [] else loop acc = (f xs[0]).0 for x in xs[1:] do acc ++ (f x).0
  let starts = map2 (\o k -> if k > 0 then o else -1) offsets shape
  let flags = scatter (map (\_ -> false) data) starts (replicate n true)
  in (shape, flags, offsets, data, map (\x -> (f x).1) xs)

def reduce_by_index_3d 'a [k][n][m][l] (dest: *[n][m][l]a) (f: a -> a -> a) (ne: a)
                       (is: [k](i64, i64, i64)) (vs: [k]a) : *[n][m][l]a =
  let flat = map (\(i, j, h) -> if i >= 0 && i < n && j >= 0 && j < m && h >= 0 && h < l
                                then (i * m + j) * l + h else -1) is
  in unflatten n m (unflatten (n * m) l (reduce_by_index (flatten (flatten dest)) f ne flat vs))
)";

// Members of the numeric modules that Kerb writes in the language: `f32.acosh` is the
// prelude's `f32'acosh` (infer.cpp looks a missing member up under that name).
std::string numeric_members() {
  std::string out;
  for (const char *t : {"f64", "f32"}) {
    auto def = [&](const std::string &text) {
      std::string d = text;
      for (size_t at; (at = d.find("T")) != std::string::npos;) d.replace(at, 1, t);
      out += d + "\n";
    };
    def("def T'acosh (x: T) : T = T.log (x + T.sqrt (x * x - 1))");
    def("def T'asinh (x: T) : T = if x < 0 then -T.log (-x + T.sqrt (x * x + 1)) "
        "else T.log (x + T.sqrt (x * x + 1))");
    def("def T'atanh (x: T) : T = 0.5 * T.log ((1 + x) / (1 - x))");
    def("def T'log1p (x: T) : T = if T.abs x < 1e-4 then x - x * x / 2 + x * x * x / 3 "
        "else T.log (1 + x)");
    def("def T'expm1 (x: T) : T = if T.abs x < 1e-4 then x + x * x / 2 + x * x * x / 6 "
        "else T.exp x - 1");
    def("def T'fma (a: T) (b: T) (c: T) : T = a * b + c");
    def("def T'mad (a: T) (b: T) (c: T) : T = a * b + c");
    def("def T'lerp (v0: T) (v1: T) (t: T) : T = v0 + (v1 - v0) * t");
    def("def T'from_fraction (x: i64) (y: i64) : T = T.i64 x / T.i64 y");
    def("def T'rsqrt (x: T) : T = 1 / T.sqrt x");
    def("def T'sinpi (x: T) : T = T.sin (T.pi * x)");
    def("def T'cospi (x: T) : T = T.cos (T.pi * x)");
    def("def T'tanpi (x: T) : T = T.tan (T.pi * x)");
    def("def T'ldexp (x: T) (e: i32) : T = x * T.pow 2 (T.i32 e)");
    def("def T'copysign (x: T) (y: T) : T = if (y < 0) != (x < 0) then -x else x");
    // to_bits and from_bits, by arithmetic on the sign, exponent and mantissa (exact:
    // only scaling by powers of two); a NaN is the quiet NaN with no payload.
    if (std::string(t) == "f32") {
      def("def f32'to_bits (x: f32) : u32 =\n"
          "  let s = if x < 0 || (x == 0 && 1 / x < 0) then 0x80000000u32 else 0\n"
          "  let a = f64.abs (f64.f32 x)\n"
          "  in if f32.isnan x then 0x7fc00000u32 else if f64.isinf a then s | 0x7f800000\n"
          "     else if a == 0 then s\n"
          "     else let e0 = i32.f64 (f64.floor (f64.log2 a))\n"
          "          let e = if a >= f64.pow 2 (f64.i32 (e0 + 1)) then e0 + 1\n"
          "                  else if a < f64.pow 2 (f64.i32 e0) then e0 - 1 else e0\n"
          "          in if e < -126 then s | u32.f64 (a * f64.pow 2 149)\n"
          "             else s | (u32.i32 (e + 127) << 23) | u32.f64 ((a / f64.pow 2 (f64.i32 e) - 1) * f64.pow 2 23)");
      def("def f32'from_bits (b: u32) : f32 =\n"
          "  let sign = if b >> 31 == 1 then -1f64 else 1\n"
          "  let e = i32.u32 ((b >> 23) & 0xff)\n"
          "  let m = f64.u32 (b & 0x7fffff)\n"
          "  in if e == 255 then (if m == 0 then f32.f64 sign * f32.inf else f32.nan)\n"
          "     else if e == 0 then f32.f64 (sign * m * f64.pow 2 (-149))\n"
          "     else f32.f64 (sign * (1 + m / f64.pow 2 23) * f64.pow 2 (f64.i32 (e - 127)))");
    } else {
      def("def f64'to_bits (x: f64) : u64 =\n"
          "  let s = if x < 0 || (x == 0 && 1 / x < 0) then 0x8000000000000000u64 else 0\n"
          "  let a = f64.abs x\n"
          "  in if f64.isnan x then 0x7ff8000000000000u64 else if f64.isinf a then s | 0x7ff0000000000000\n"
          "     else if a == 0 then s\n"
          "     else let e0 = i32.f64 (f64.floor (f64.log2 a))\n"
          "          let e = if a >= f64.pow 2 (f64.i32 (e0 + 1)) then e0 + 1\n"
          "                  else if a < f64.pow 2 (f64.i32 e0) then e0 - 1 else e0\n"
          "          in if e < -1022 then s | u64.f64 (a * f64.pow 2 537 * f64.pow 2 537)\n"
          "             else s | (u64.i32 (e + 1023) << 52)\n"
          "                    | u64.f64 ((a / f64.pow 2 (f64.i32 e) - 1) * f64.pow 2 52)");
      def("def f64'from_bits (b: u64) : f64 =\n"
          "  let sign = if b >> 63 == 1 then -1f64 else 1\n"
          "  let e = i32.u64 ((b >> 52) & 0x7ff)\n"
          "  let m = f64.u64 (b & 0xfffffffffffff)\n"
          "  in if e == 2047 then (if m == 0 then sign * f64.inf else f64.nan)\n"
          "     else if e == 0 then sign * m * f64.pow 2 (-537) * f64.pow 2 (-537)\n"
          "     else sign * (1 + m / f64.pow 2 52) * f64.pow 2 (f64.i32 (e - 1023))");
    }
    if (std::string(t) == "f32") {
      // In f64, for the precision.
      def("def T'lgamma (x: T) : T = T.f64 (f64'lgamma (f64.T x))");
      def("def T'gamma (x: T) : T = T.f64 (f64'gamma (f64.T x))");
      continue;
    }
    // Lanczos' approximation (g = 7, 9 coefficients), with the reflection formula.
    def("def T'lgamma_pos (x: T) : T =\n"
        "  let x = x - 1\n"
        "  let a = 0.99999999999980993 + 676.5203681218851 / (x + 1) - 1259.1392167224028 / (x + 2)\n"
        "          + 771.32342877765313 / (x + 3) - 176.61502916214059 / (x + 4)\n"
        "          + 12.507343278686905 / (x + 5) - 0.13857109526572012 / (x + 6)\n"
        "          + 9.9843695780195716e-6 / (x + 7) + 1.5056327351493116e-7 / (x + 8)\n"
        "  let t = x + 7.5\n"
        "  in 0.5 * T.log (2 * T.pi) + (x + 0.5) * T.log t - t + T.log a");
    def("def T'lgamma (x: T) : T = if x < 0.5 "
        "then T.log (T.pi / T.abs (T.sin (T.pi * x))) - T'lgamma_pos (1 - x) else T'lgamma_pos x");
    def("def T'gamma (x: T) : T = if x < 0.5 "
        "then T.pi / (T.sin (T.pi * x) * T.exp (T'lgamma_pos (1 - x))) else T.exp (T'lgamma_pos x)");
  }
  // Integers: bits, and the high half of a product (through a wider type; 64-bit
  // products through 32-bit halves).
  const char *ints[][3] = {{"i8", "i64", "8"},   {"i16", "i64", "16"}, {"i32", "i64", "32"},
                           {"u8", "u64", "8"},   {"u16", "u64", "16"}, {"u32", "u64", "32"},
                           {"u64", "", "64"},    {"i64", "", "64"}};
  for (auto &row : ints) {
    std::string t = row[0], w = row[1], bits = row[2];
    auto def = [&](std::string d) {
      for (size_t at; (at = d.find("T")) != std::string::npos;) d.replace(at, 1, t);
      for (size_t at; (at = d.find("W")) != std::string::npos;) d.replace(at, 1, w);
      for (size_t at; (at = d.find("B")) != std::string::npos;) d.replace(at, 1, bits);
      out += d + "\n";
    };
    def("def T'get_bit (bit: i32) (x: T) : i32 = i32.T ((x >> T.i32 bit) & 1)");
    def("def T'set_bit (bit: i32) (x: T) (b: i32) : T = "
        "(x & !(1 << T.i32 bit)) | (T.i32 b << T.i32 bit)");
    def("def T'to_i64 (x: T) : i64 = i64.T x");
    def("def T'to_i32 (x: T) : i32 = i32.T x");
    if (!w.empty()) {
      def("def T'mul_hi (a: T) (b: T) : T = T.W ((W.T a * W.T b) >> B)");
    } else if (t == "u64") {
      def("def T'mul_hi (a: u64) (b: u64) : u64 =\n"
          "  let (a1, a0) = (a >> 32, a & 0xffffffff)\n"
          "  let (b1, b0) = (b >> 32, b & 0xffffffff)\n"
          "  let mid = (a0 * b0 >> 32) + (a1 * b0 & 0xffffffff) + (a0 * b1 & 0xffffffff)\n"
          "  in a1 * b1 + (a1 * b0 >> 32) + (a0 * b1 >> 32) + (mid >> 32)");
    } else {
      // Signed: the unsigned high half, corrected for negative operands.
      def("def T'mul_hi (a: i64) (b: i64) : i64 =\n"
          "  let h = i64.u64 (u64'mul_hi (u64.i64 a) (u64.i64 b))\n"
          "  in h - (if a < 0 then b else 0) - (if b < 0 then a else 0)");
    }
    def("def T'mad_hi (a: T) (b: T) (c: T) : T = T'mul_hi a b + c");
  }
  // Floats: conversions, and bits through the integer of their bits.
  for (auto [t_, u_] : {std::pair<std::string, std::string>{"f32", "u32"}, {"f64", "u64"}}) {
    // Named copies: clang 14 (the fuzz build) cannot capture structured bindings.
    const std::string &t = t_, &u = u_;
    auto def = [&](std::string d) {
      for (size_t at; (at = d.find("T")) != std::string::npos;) d.replace(at, 1, t);
      for (size_t at; (at = d.find("U")) != std::string::npos;) d.replace(at, 1, u);
      out += d + "\n";
    };
    def("def T'to_f64 (x: T) : f64 = f64.T x");
    def("def T'to_i64 (x: T) : i64 = i64.T x");
    def("def T'get_bit (bit: i32) (x: T) : i32 = U'get_bit bit (T'to_bits x)");
    def("def T'set_bit (bit: i32) (x: T) (b: i32) : T = T'from_bits (U'set_bit bit (T'to_bits x) b)");
  }
  return out;
}

} // namespace

void add_prelude(Program &program) {
  // Spans of prelude code point into this file, which lives as long as the process.
  static const std::shared_ptr<const SourceFile> file =
      std::make_shared<SourceFile>("/prelude.fut", std::string(kPrelude) + numeric_members());
  Program prelude = parse_program(file);
  size_t n = prelude.defs.size();
  for (auto &d : prelude.defs) d->from_prelude = true;
  for (auto &d : program.defs) prelude.defs.push_back(std::move(d));
  program.defs = std::move(prelude.defs);
  for (auto &t : program.types) t->before_def += n;
}

void remove_unused_prelude(Program &program) {
  for (;;) {
    std::set<std::string> used;
    std::function<void(const Expr &)> go = [&](const Expr &e) {
      if (e.kind == ExprKind::Var || e.kind == ExprKind::Apply || e.kind == ExprKind::OpSection)
        used.insert(e.name);
      for (const ExprPtr &a : e.args)
        if (a) go(*a);
      for (const IndexPart &p : e.indices)
        for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
          if (*x) go(**x);
    };
    for (const auto &d : program.defs)
      if (d->body) go(*d->body);
    size_t before = program.defs.size();
    std::erase_if(program.defs, [&](const std::unique_ptr<FunDef> &d) {
      return d->from_prelude && !used.count(d->name);
    });
    if (program.defs.size() == before) return;
  }
}

} // namespace kerb
