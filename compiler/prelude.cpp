// The prelude (prelude.h). Its text is Kerb's own; the signatures follow Futhark's
// documented prelude so that programs written for Futhark find what they expect.
#include "compiler/prelude.h"

#include "compiler/syntax/parser.h"

#include <functional>
#include <set>

namespace kerb {

namespace {

const char kPrelude[] = R"(
def id 'a (x: a) : a = x
def const 'a '^b (x: a) (_: b) : a = x
def flip '^a '^b '^c (f: a -> b -> c) (y: b) (x: a) : c = f x y
def curry '^a '^b '^c (f: (a, b) -> c) (x: a) (y: b) : c = f (x, y)
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)) : c = f p.0 p.1
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)

def iterate 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while !(p x) do f x
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while p x do f x

def and (xs: []bool) : bool = all (\b -> b) xs
def or (xs: []bool) : bool = any (\b -> b) xs
def null 'a (xs: []a) : bool = length xs == 0
def indices [n] 'a (_: [n]a) : [n]i64 = iota n
def manifest 't (x: t) : t = copy x
def sized 't [m] (n: i64) (xs: [m]t) : [n]t = xs :> [n]t

def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : [n][m]a =
  map (\i -> map (\j -> f i j) (iota m)) (iota n)
def tabulate_3d 'a (n: i64) (m: i64) (l: i64) (f: i64 -> i64 -> i64 -> a) : [n][m][l]a =
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

def reduce_by_index_3d 'a [k][n][m][l] (dest: *[n][m][l]a) (f: a -> a -> a) (ne: a)
                       (is: [k](i64, i64, i64)) (vs: [k]a) : *[n][m][l]a =
  let flat = map (\(i, j, h) -> if i >= 0 && i < n && j >= 0 && j < m && h >= 0 && h < l
                                then (i * m + j) * l + h else -1) is
  in unflatten n m (unflatten (n * m) l (reduce_by_index (flatten (flatten dest)) f ne flat vs))
)";

} // namespace

void add_prelude(Program &program) {
  // Spans of prelude code point into this file, which lives as long as the process.
  static const std::shared_ptr<const SourceFile> file =
      std::make_shared<SourceFile>("/prelude.fut", kPrelude);
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
