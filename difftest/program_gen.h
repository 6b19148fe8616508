// The random program generator of `kerb difftest` (issue 7): well-typed programs of the
// language subset (LANGUAGE.md), built from a seed, with random inputs of chosen sizes.
//
// A generated program is a small tree (GProgram/GNode) that renders to Futhark source.
// It is typed by construction: every node knows its type, every variable is in scope
// where it is used, and array sizes are tracked (size variables n and m of the entry
// point, constant sizes, and the unknown sizes of filter, concat, ...) so that map2/zip
// get arrays of one size. Programs use SOACs (map..map3, reduce, reduce_comm, scan,
// filter, partition, scatter, reduce_by_index, tabulate, foldl, all/any, sum/...),
// nested maps, for/while/for-in loops, in-place updates, indexing that is in range by
// construction, guarded, or unguarded (so it may fail), divisions that may be by zero,
// asserts, every primitive type, tuples and arrays of tuples; since issue 18, code that
// the front end must make first-order and monomorphic: polymorphic helpers of its own
// (pk_map, pk_twice, pk_compose, ...) instantiated at many types, lambdas passed to
// them, let-bound and local functions, partial application, operator sections (`(+)`,
// `(x *)`, `(& y)`, `(i32.+)`) and the pipes `|>` and `<|`. Since issue 16 (checks
// hoisted out of loops and deferred): `for j < k` loops, in map lambdas and at the top
// level, reading arrays at indices affine in the counter (a[s + j], a[s + c * j],
// a[s + k - 1 - j], mostly in range by construction with s and k from data, an index
// variable or constants, else failing in the first, a middle or the last iteration) or
// through an index array (a[b[j]]), their bodies reducing, dividing by and asserting on
// what they read; gathers a[b[i]] and a[c[b[i]]]; while loops whose condition reads an
// array (binary searches and scans, their trip counts bounded); and arrays updated in
// place at such indices.
//
// Results must agree between executors, so the generator keeps apart what may
// legitimately differ: a float value is "approximate" when it comes from a float sum
// (reassociated by parallel reductions) or a libm function (sin, exp, **, ...: the GPU
// rounds differently); an approximate value only flows into results and into
// operations that keep relative error small (*, /, abs, sqrt, min, max, conversion to
// a float type no wider), never into comparisons, integers, indices or control flow, nor
// into libm functions and ** (cos of a sum of 1e30s has no relative error bound: kerb
// difftest, seed 100838).
// Float sums add absolute values, so that their relative error stays small. Reduction
// operators are associative with a true neutral element; scatter writes each index once.
#pragma once

#include "runtime/value.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kerb::difftest {

// Array sizes are ids: kSizeN and kSizeM are the entry's size parameters; other ids
// are constants or sizes only known at run time.
constexpr int kSizeN = 0;
constexpr int kSizeM = 1;

struct GType {
  enum Kind : uint8_t { Prim, Tuple, Array } kind = Prim;
  PrimType prim = PrimType::I32;
  std::vector<GType> elems; // Tuple: components; Array: exactly one, the element (prim or tuple)
  std::vector<int> dims;    // Array: size ids, outermost first

  static GType of(PrimType p);
  static GType tuple(std::vector<GType> elems);
  static GType array(GType elem, std::vector<int> dims);
  bool is_prim() const { return kind == Prim; }
  bool is_array() const { return kind == Array; }
  int rank() const { return kind == Array ? int(dims.size()) : 0; }
  const GType &elem() const { return elems[0]; } // Array only
  GType row() const;                             // Array: drop the outer dim
  // Source text; dims kSizeN/kSizeM print as [n]/[m] when `sized`, others as [].
  std::string str(bool sized = false) const;
  ValueType value_type() const;
};
bool operator==(const GType &a, const GType &b); // including sizes
bool same_shape(const GType &a, const GType &b); // ignoring sizes

// An expression: `tmpl` is source text in which $0..$9 stand for the children's text.
struct GNode {
  std::string tmpl;
  std::vector<GNode> kids;
  GType type;
  bool approx = false;  // see the file comment
  bool literal = false; // a literal or a constant (the shrinker leaves these alone)
};
std::string render(const GNode &n);

struct GParam {
  std::string name;
  GType type;
};

// A helper function: `def NAME (p: t) ... : RET = BODY`.
struct GFun {
  std::string name;
  std::vector<GParam> params;
  GNode body;
};

// `let NAME = VALUE` at the top of the entry's body.
struct GStmt {
  std::string name;
  GNode value;
};

struct GProgram {
  uint64_t seed = 0;
  std::vector<std::string> library; // polymorphic, higher-order helpers used (rendered first)
  std::vector<GFun> funs;
  std::vector<GParam> params; // the entry point `main`; sizes n and m are bound by them
  std::vector<GStmt> stmts;
  std::vector<GNode> results;
  std::string source() const; // the whole program as Futhark source
  bool uses_size(int size) const;
  // Per result (in order): whether it may differ by rounding between executors.
  std::vector<bool> approx_results() const;
};

struct GenOptions {
  int max_depth = 4;     // expression nesting
  int max_stmts = 5;     // top-level lets
  double max_work = 4e5; // bound on nested iteration (sizes count as 300 iterations)
};

GProgram generate_program(uint64_t seed, const GenOptions &opts);

// Random arguments for the entry point of `p`, one value per parameter (parameters are
// scalars and arrays of primitives); n and m are picked from `sizes`.
struct GenInput {
  std::vector<Value> args;
  int64_t n = 0, m = 0;
};
GenInput generate_input(const GProgram &p, std::mt19937_64 &rng,
                        const std::vector<int64_t> &sizes);

} // namespace kerb::difftest
