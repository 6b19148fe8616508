// The core IR: what the type-checked AST is lowered to (lower_to_core.cpp) and what
// kernel extraction and code generation work on.
//
// A core program is one function per entry point, fully inlined (the language has no
// recursion), in A-normal form: a Body is a list of let-bound statements and a result.
// Tuples are gone: every variable is a primitive scalar or an array of primitives (an
// array of tuples is one array per component), so a statement binds a list of variables.
// Every dynamic check is explicit. The lowering describes each check the program
// could make as a candidate (`check`, an index into Program::candidates: its kind,
// message, and whether #[unsafe] covers it); the check insertion passes decide which
// candidates become check sites, with a failure code (`site`, -1 when unchecked) and a
// record in the program's failure table (see compiler/pipeline.cpp).
//
// Arrays are regular: each array variable has a shape of i64 sub-expressions, known
// when it is bound (sizes that depend on data, e.g. of filter, are bound as variables
// by the statement that computes them).
#pragma once

#include "compiler/ast.h"
#include "failure_table/failure_table.h"
#include "runtime/value.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kerb::core {

// The type of a core variable: a primitive or an array of primitives.
struct CType {
  PrimType prim = PrimType::I32;
  int rank = 0;

  bool operator==(const CType &) const = default;
  std::string str() const; // "i32", "[][]f32"
};

// A variable or a constant.
struct SubExp {
  int var = -1;         // >= 0: a variable
  PrimValue constant;   // var < 0: a constant scalar

  static SubExp of_var(int v) { SubExp s; s.var = v; return s; }
  static SubExp of_const(PrimValue c) { SubExp s; s.constant = c; return s; }
  static SubExp i64(int64_t v) { return of_const(PrimValue::signed_int(PrimType::I64, v)); }
  bool is_var() const { return var >= 0; }
};

// A check the program could make, as the lowering describes it. The check insertion
// pass of its kind sets `site` (kept: its failure code) or `disabled` (why not).
struct CheckCandidate {
  FailureKind kind = FailureKind::Assert;
  Span span;                      // where it fails (the failure's location)
  std::string message_template;   // "{}" per argument (failure_table.h)
  size_t num_args = 0;            // i64 arguments
  std::string unsafe_at;          // covered by #[unsafe]: where ("prog.fut:3:5-20"), else ""
  // Decided by the passes:
  int site = -1;                  // kept: the failure code
  std::string disabled;           // not kept: why ("--unsafe", "#[unsafe] at ...", ...)

  // Kept, but in a map that compiled code computes only where its result is read
  // (compiler/fusion.h), which may not happen where the interpreter makes the check: why
  // (compiler/mark_lazy_checks.cpp), else "".
  std::string lazy;

  static constexpr const char *kEliminated = "eliminated: "; // `disabled` of a proved one
  static constexpr const char *kDead = "dead code: ";        // `disabled` of a removed one
  // Proved not to fail (rather than turned off): the check cannot fail whatever the data.
  bool eliminated() const { return disabled.rfind(kEliminated, 0) == 0; }
  // Removed with the dead code it was in (compiler/remove_dead_code.cpp).
  bool removed_as_dead() const { return disabled.rfind(kDead, 0) == 0; }
  // Whether compiled code may skip this check where the interpreter makes it, because
  // the value it guards is not used there (docs/CHECKS.md, Note [Checks in dead code]).
  bool skipped_where_dead() const { return removed_as_dead() || (site >= 0 && !lazy.empty()); }
};

struct VarInfo {
  std::string name; // for printing: the source name or a hint, made unique with the id
  CType type;
  std::vector<SubExp> shape; // arrays: one i64 per dimension
};

struct Body;
struct Lambda;

enum class ExpKind : uint8_t {
  SubExp,    // args[0]
  BinOp,     // binop, args[0], args[1]; site: division by zero / negative exponent
  UnOp,      // unop, args[0]
  Convert,   // to, args[0]
  PrimFn,    // prim_fn (numeric-module member, scalar arity 0..2), args
  If,        // args[0] condition; bodies[0] then, bodies[1] else
  Loop,      // loop_params with args (initial values); for: args.back() is the bound,
             // loop_var the counter; while: bodies[1] computes the condition from the
             // params; bodies[0] the body (its result: the new params). An array
             // parameter whose size changes between iterations has an i64 loop
             // parameter as that size (after the others), and so does its result
             // (Note [Loops whose arrays change size] in lower_to_core.cpp)
  Index,     // arrays[0] indexed by args (one per leading dim; a scalar or a sub-array
             // result); site: bounds
  Update,    // arrays[0] with [args[0..n-2]] = args.back(); site: bounds
  UpdateSlice, // arrays[0] with its view selected by args[0..3k-1] (start, count, stride
             // for each of its leading k dims, as Slice) replaced by arrays[1], whose
             // shape is the view's without the `index_dims` (dims selected by a single
             // index, count 1); unchecked: the lowering checks bounds and shape
  Iota,      // args[0] the length (i64); result element type: to
  Replicate, // args[0] the length, args[1] the value (a scalar or an array)
  ArrayLit,  // args: the elements (scalars or arrays of one shape)
  Copy,      // arrays[0]
  Map,       // width args[0]; lambda over rows of `arrays`
  Reduce,    // width args[0]; neutral args[1..]; lambda (2k params) over `arrays`;
             // `comm`: reduce_comm (the program says the operator commutes)
  Scan,      // as Reduce; results are arrays
  Assert,    // args[0] the condition; site; args[1..]: the message's i64 arguments
  // Array views and rearrangements (unchecked: the lowering emits Asserts for them).
  Slice,     // arrays[0]; for each of its leading k dims, three i64 args: start, count,
             // stride (stride may be negative or zero); dims after k are kept whole.
             // `perm` empty. Result: [count_0]...[count_k-1][rest] (same rank).
  Rearrange, // arrays[0] with its dims permuted: result dim i is input dim perm[i]
             // (transpose is perm {1, 0, 2, 3, ...})
  Concat,    // arrays (rank r each, equal inner dims) joined along dim 0
  Reshape,   // arrays[0] with new dims args (same number of elements; row-major)
  Scatter,   // arrays[0] dest, arrays[1] indices (i64, 1-D), arrays[2] values: a new
             // array, dest with dest[is[i]] = vs[i] where is[i] is in range (others are
             // ignored, as in Futhark); an array of tuples scatters each component
  Hist,      // reduce_by_index of k components: arrays[0..k-1] the destinations,
             // arrays[k] the indices (i64), arrays[k+1..2k] the values; lambda (2k
             // params: a destination row, a value row) the operator; args the k neutral
             // elements; out-of-range indices are ignored
};

struct Exp {
  ExpKind kind = ExpKind::SubExp;
  std::vector<SubExp> args;
  std::vector<int> arrays;
  BinOp binop = BinOp::Add;
  UnOp unop = UnOp::Neg;
  PrimType to = PrimType::I32;
  PrimBuiltin prim_fn;
  std::vector<std::unique_ptr<Body>> bodies;
  std::unique_ptr<Lambda> lambda;
  std::vector<int> loop_params; // Loop
  int loop_var = -1;            // Loop (for): the counter
  bool is_while = false;
  // Reduce: the operator is associative and commutative by the program's word
  // (reduce_comm, as in Futhark: with an operator that does not commute the result is
  // unspecified), so the code generator may combine the elements in any order.
  // Printed as `reduce_comm`.
  bool comm = false;
  int check = -1;               // check candidate (Program::candidates), -1: none
  int site = -1;                // check site (failure code), -1: none / unchecked
  std::vector<int> perm;        // Rearrange
  std::vector<int> index_dims;  // UpdateSlice
  Span span;
};

struct Stm {
  std::vector<int> pat; // the variables bound
  Exp exp;
};

struct Body {
  std::vector<Stm> stms;
  std::vector<SubExp> result;
};

struct Lambda {
  std::vector<int> params;
  Body body;
};

struct Function {
  std::string name;
  std::vector<int> params;  // flattened entry parameters
  std::vector<int> results; // variables holding the flattened results (after body)
  Body body;
  // How the flattened parameters and results map to the entry point's values.
  std::vector<ValueType> param_types, result_types;
  std::vector<std::vector<int>> param_shape_vars; // per flattened param, its shape variables
};

struct Program {
  std::vector<VarInfo> vars;
  std::vector<Function> functions;
  std::vector<CheckCandidate> candidates; // what could be checked (the lowering)
  FailureTable failures;                  // what is checked: one record per site

  int new_var(std::string name, CType type, std::vector<SubExp> shape = {});
  const VarInfo &var(int v) const { return vars[size_t(v)]; }
  CType type_of(const SubExp &s) const;
};

// `--emit=ir`: a readable listing of the program (sites as `@site N`, undecided
// candidates as `?check N`).
std::string print_program(const Program &p);

// Calls f on every expression of the program, nested bodies and lambdas included
// (outer statements before the bodies they contain).
void for_each_exp(Program &p, const std::function<void(Exp &)> &f);
void for_each_exp(const Program &p, const std::function<void(const Exp &)> &f);
// The same over one body.
void for_each_exp(const Body &b, const std::function<void(const Exp &)> &f);

} // namespace kerb::core
