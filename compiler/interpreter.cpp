// The reference interpreter (see interpreter.h): a direct evaluator of the type-checked
// AST. It performs the checks whose failure leaves no defined result (bounds, division
// by zero, ranges, sizes) always, also when the toggles turn them off for compiled
// code; `assert` and the opt-in nan check follow the toggles (--unsafe, --checks,
// #[unsafe]) exactly as compiled code does (docs/CHECKS.md). It reports a failure
// through the failure table's formatting so that its message is the same as every
// executor's.
//
// Design:
// - Values are the runtime's Values. Arrays are shared and immutable, except that an
//   array whose data has exactly one owner may be updated in place (`with`, scatter).
// - Variables live in one vector of (name, value) slots; a lookup scans backwards from
//   the top to the current function's frame base. Anonymous functions only occur as
//   arguments of built-ins and run while their defining frame is live, so they need
//   no closures: their bodies see the slots below their parameters.
// - An in-place update of a variable that is dead afterwards (see StealAnalysis) moves
//   the array out of its slot first, so that a loop `loop a = ... do a with [i] = v`
//   updates one buffer instead of copying it every iteration.
// - A failure throws Failed, caught in interpret().
// - possible_failures() runs the program in a mode that goes on after failures in the
//   elements of a map or filter; see Note [Which failures may be reported].
#include "compiler/interpreter.h"

#include "compiler/interp_arrays.h"
#include "compiler/prim_ops.h"
#include "compiler/size_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace kerb {

namespace {

// ---------------------------------------------------------------------------------
// Failures

struct Failed {
  RunFailure failure;
};

[[noreturn]] void fail(FailureKind kind, const Span &span, const std::string &message_template,
                       const std::vector<int64_t> &args = {}) {
  FailureRecord record;
  record.kind = kind;
  record.location = span.location();
  record.message_template = message_template;
  record.arg_types.assign(args.size(), ArgType::I64);
  throw Failed{RunFailure{kind, format_failure_message(record, args), record.location}};
}

[[noreturn]] void fail_text(FailureKind kind, const Span &span, const std::string &message) {
  fail(kind, span, escape_template_text(message));
}

std::string shape_text(const std::vector<int64_t> &shape) {
  std::string out;
  for (int64_t d : shape) out += fmt::format("[{}]", d);
  return out;
}


// ---------------------------------------------------------------------------------
// Steal analysis: which in-place updates `x with [...] = v` may move x's array out of
// its variable, because x is not used after the update (see the file comment).

class StealAnalysis {
public:
  explicit StealAnalysis(std::unordered_set<const Expr *> &out) : out_(out) {}

  void function(const FunDef &f) {
    if (f.body) pass(*f.body, {});
  }

private:
  using Names = std::set<std::string>;

  static void pattern_names(const Pattern &p, Names &out) {
    if (p.kind == Pattern::Id) out.insert(p.name);
    for (const Pattern &e : p.elems) pattern_names(e, out);
  }

  const Names &free_vars(const Expr &e) {
    auto it = fv_.find(&e);
    if (it != fv_.end()) return it->second;
    Names names = compute_free_vars(e);
    return fv_.emplace(&e, std::move(names)).first->second;
  }

  void add_free(const Expr *e, Names &out) {
    if (!e) return;
    const Names &n = free_vars(*e);
    out.insert(n.begin(), n.end());
  }

  Names compute_free_vars(const Expr &e) {
    Names out;
    switch (e.kind) {
    case ExprKind::Var:
      if (e.callee == Callee::Local) out.insert(e.name);
      return out;
    case ExprKind::Let: {
      add_free(e.args[1].get(), out);
      Names bound;
      pattern_names(e.pattern, bound);
      for (const std::string &b : bound) out.erase(b);
      add_free(e.args[0].get(), out);
      return out;
    }
    case ExprKind::Loop: {
      Names inner;
      add_free(e.args[2].get(), inner);
      if (e.loop_form == LoopForm::While) add_free(e.args[1].get(), inner);
      Names bound;
      pattern_names(e.pattern, bound);
      pattern_names(e.pattern2, bound);
      if (e.loop_form == LoopForm::For) bound.insert(e.name);
      for (const std::string &b : bound) inner.erase(b);
      out = std::move(inner);
      if (e.args[0]) add_free(e.args[0].get(), out);
      else pattern_names(e.pattern, out);
      if (e.loop_form != LoopForm::While) add_free(e.args[1].get(), out);
      return out;
    }
    case ExprKind::Lambda: {
      add_free(e.args[0].get(), out);
      Names bound;
      for (const Pattern &p : e.params) pattern_names(p, bound);
      for (const std::string &b : bound) out.erase(b);
      return out;
    }
    default:
      break;
    }
    for (const ExprPtr &a : e.args) add_free(a.get(), out);
    for (const IndexPart &p : e.indices) {
      add_free(p.index.get(), out);
      add_free(p.start.get(), out);
      add_free(p.end.get(), out);
      add_free(p.stride.get(), out);
    }
    return out;
  }

  static Names with(Names live, const Names &more) {
    live.insert(more.begin(), more.end());
    return live;
  }

  // `live`: the names that may be used after e has been evaluated.
  void pass(const Expr &e, const Names &live) {
    switch (e.kind) {
    case ExprKind::Let: {
      pass(*e.args[1], live);
      Names after = free_vars(*e.args[1]);
      Names bound;
      pattern_names(e.pattern, bound);
      for (const std::string &b : bound) after.erase(b);
      pass(*e.args[0], with(live, after));
      return;
    }
    case ExprKind::If:
      pass(*e.args[1], live);
      pass(*e.args[2], live);
      pass(*e.args[0], with(with(live, free_vars(*e.args[1])), free_vars(*e.args[2])));
      return;
    case ExprKind::Loop: {
      Names loop_free = free_vars(e);
      Names body_live = live;
      Names inner;
      add_free(e.args[2].get(), inner);
      if (e.loop_form == LoopForm::While) add_free(e.args[1].get(), inner);
      Names bound;
      pattern_names(e.pattern, bound);
      pattern_names(e.pattern2, bound);
      if (e.loop_form == LoopForm::For) bound.insert(e.name);
      for (const std::string &b : bound) inner.erase(b);
      body_live = with(body_live, inner);
      pass(*e.args[2], body_live);
      Names outer = with(live, loop_free);
      if (e.args[0]) pass(*e.args[0], outer);
      if (e.args[1]) pass(*e.args[1], with(outer, bound));
      return;
    }
    case ExprKind::Lambda:
      pass(*e.args[0], with(live, free_vars(e)));
      return;
    case ExprKind::Update:
      if (e.args[0]->kind == ExprKind::Var && e.args[0]->callee == Callee::Local &&
          !live.count(e.args[0]->name))
        out_.insert(&e);
      break;
    default:
      break;
    }
    // Children in evaluation order: each is followed by the ones after it.
    std::vector<const Expr *> children;
    for (const ExprPtr &a : e.args)
      if (a) children.push_back(a.get());
    for (const IndexPart &p : e.indices)
      for (const Expr *c : {p.index.get(), p.start.get(), p.end.get(), p.stride.get()})
        if (c) children.push_back(c);
    Names later = live;
    if (e.kind == ExprKind::Update) later.insert(e.args[0]->name);
    for (size_t i = children.size(); i-- > 0;) {
      pass(*children[i], later);
      later = with(later, free_vars(*children[i]));
    }
  }

  std::unordered_set<const Expr *> &out_;
  std::unordered_map<const Expr *, Names> fv_;
};

// ---------------------------------------------------------------------------------
// Callables: the functional arguments of built-ins.

struct Callable;
using CallablePtr = std::shared_ptr<const Callable>;

// An argument of a built-in: a value, or a function.
struct Arg {
  Value value;
  CallablePtr fn;
};

struct Callable {
  enum Kind : uint8_t { Lambda, Function, Prim, Op, Builtin } kind = Lambda;
  const Expr *expr = nullptr; // what it was made from
  const FunDef *fun = nullptr;
  PrimBuiltin prim;
  ArrayBuiltin builtin = ArrayBuiltin::Map;
  BinOp op = BinOp::Add;
  bool unsafe = false;      // made from #[unsafe] e: its checks are covered
  bool has_operand = false; // Op: a section with one operand given
  bool operand_left = false;
  Value operand;
  std::vector<Arg> bound; // a partial application's arguments
  Span span;
};

// The number of arguments of a full application of a built-in (unflatten and split:
// the current one-argument forms; their older forms take more).
size_t builtin_arity(ArrayBuiltin b) {
  switch (b) {
  case ArrayBuiltin::Map: case ArrayBuiltin::Map1: case ArrayBuiltin::Filter:
  case ArrayBuiltin::Partition: case ArrayBuiltin::All: case ArrayBuiltin::Any:
  case ArrayBuiltin::Replicate: case ArrayBuiltin::Tabulate: case ArrayBuiltin::Zip:
  case ArrayBuiltin::Zip2: case ArrayBuiltin::Concat: case ArrayBuiltin::Rotate:
  case ArrayBuiltin::Take: case ArrayBuiltin::Drop:
    return 2;
  case ArrayBuiltin::Map2: case ArrayBuiltin::Reduce: case ArrayBuiltin::ReduceComm:
  case ArrayBuiltin::Scan: case ArrayBuiltin::Scatter: case ArrayBuiltin::Zip3:
  case ArrayBuiltin::Foldl: case ArrayBuiltin::Foldr:
    return 3;
  case ArrayBuiltin::Map3: case ArrayBuiltin::Zip4:
    return 4;
  case ArrayBuiltin::Map4: case ArrayBuiltin::Zip5: case ArrayBuiltin::ReduceByIndex:
  case ArrayBuiltin::Hist:
    return 5;
  case ArrayBuiltin::Map5:
    return 6;
  default:
    return 1;
  }
}

bool is_comparison(BinOp op) {
  switch (op) {
  case BinOp::Eq: case BinOp::Neq: case BinOp::Lt: case BinOp::Le: case BinOp::Gt:
  case BinOp::Ge: case BinOp::LogAnd: case BinOp::LogOr:
    return true;
  default:
    return false;
  }
}

// Builds an array from rows pushed one at a time: primitives go straight into a flat
// buffer; other rows are stacked at the end.
class RowBuilder {
public:
  explicit RowBuilder(int64_t expected) : expected_(expected) {}

  void push(Value row) {
    if (rows_.empty() && bits_.empty() && !prim_) {
      prim_ = row.kind == Value::Prim;
      if (prim_) {
        type_ = row.prim.type;
        bits_.reserve(size_t(std::max<int64_t>(expected_, 0)));
      } else {
        rows_.reserve(size_t(std::max<int64_t>(expected_, 0)));
      }
    }
    if (prim_) {
      bits_.push_back(row.prim.bits);
      return;
    }
    rows_.push_back(std::move(row));
  }

  bool empty() const { return bits_.empty() && rows_.empty(); }

  // `empty_value` makes the result when no row was pushed. Irregular rows (of
  // different shapes) report a size failure at `span`, with `message` (an array
  // literal's by default; a map's is Futhark's "not all iterations produce same shape").
  Value finish(const std::function<Value()> &empty_value, const Span &span,
               const char *message = "shape of element differs from shape of first element") {
    if (prim_) {
      int64_t n = int64_t(bits_.size());
      return make_prim_array(type_, {n}, std::move(bits_));
    }
    if (rows_.empty()) return empty_value();
    for (const Value &r : rows_)
      if (!same_shapes(r, rows_[0]))
        fail_text(FailureKind::Size, span, message);
    return stack_rows(rows_[0].type(), rows_);
  }

private:
  int64_t expected_;
  bool prim_ = false;
  PrimType type_ = PrimType::I32;
  std::vector<Bits> bits_;
  std::vector<Value> rows_;
};

Value i64_value(int64_t v) { return Value(PrimValue::signed_int(PrimType::I64, v)); }

// One raw component of an index expression, evaluated but not yet checked.
struct RawPart {
  bool is_slice = false;
  int64_t index = 0;
  std::optional<int64_t> start, end, stride;
};

// `x ** y` on signed integers fails for y < 0 (Futhark: "negative exponent").
bool is_negative_exponent(BinOp op, const PrimValue &y) {
  return op == BinOp::Pow && is_signed_int(y.type) && y.bits.i < 0;
}

// `==` on tuples and arrays (Futhark allows it): equal shapes and elements, with
// IEEE equality for floats (NaN is unequal to itself).
bool deep_equal(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Value::Prim:
    return eval_binop(BinOp::Eq, a.prim, b.prim).as_bool();
  case Value::Tuple:
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); i++)
      if (!deep_equal(a.elems[i], b.elems[i])) return false;
    return true;
  case Value::Array:
    break;
  }
  const ArrayData &x = *a.array, &y = *b.array;
  if (x.shape != y.shape || x.components.size() != y.components.size()) return false;
  if (x.elem.kind == ValueType::Prim) {
    for (size_t k = 0; k < x.data.size(); k++)
      if (!eval_binop(BinOp::Eq, PrimValue{x.elem.prim, x.data[k]}, PrimValue{y.elem.prim, y.data[k]})
               .as_bool())
        return false;
    return true;
  }
  for (size_t k = 0; k < x.components.size(); k++)
    if (!deep_equal(x.components[k], y.components[k])) return false;
  return true;
}

// Wrapping int64 arithmetic (no undefined behaviour on overflow).
int64_t wadd(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }
int64_t wsub(int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }
int64_t wmul(int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); }
int64_t sgn(int64_t a) { return a > 0 ? 1 : a < 0 ? -1 : 0; }
int64_t wquot(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return wsub(0, a);
  return a / b;
}

// Checks one slice `i:j:s` of a dimension of size w exactly as Futhark does and
// computes the selected positions. Returns false when the slice is out of bounds.
bool resolve_slice(int64_t w, const RawPart &p, DimSel &sel) {
  int64_t s = p.stride.value_or(1);
  bool backwards = s < 0;
  int64_t i = p.start ? *p.start : (backwards ? wsub(w, 1) : 0);
  int64_t j = p.end ? *p.end : (backwards ? -1 : w);
  sel.is_index = false;
  sel.start = i;
  sel.stride = s;
  if (s == 0) return false;
  int64_t n = wquot(wadd(wsub(j, i), wsub(s, sgn(s))), s);
  sel.count = n;
  if (n == 0) return true;
  int64_t last = wadd(i, wmul(wsub(n, 1), s));
  bool in_range = 0 <= last && last < w;
  if (backwards) return -1 <= j && j <= i && in_range && n > 0;
  return 0 <= i && i <= j && in_range && n > 0;
}

// "Index [i, j:k] out of bounds for array of shape [n][m]." for failed selections.
[[noreturn]] void fail_index(const Span &span, const std::vector<int64_t> &shape,
                             const std::vector<RawPart> &parts, const std::vector<DimSel> &sels) {
  std::string tmpl = "Index [";
  std::vector<int64_t> args;
  for (size_t d = 0; d < parts.size(); d++) {
    const RawPart &p = parts[d];
    if (d > 0) tmpl += ", ";
    if (!p.is_slice) {
      tmpl += "{}";
      args.push_back(p.index);
      continue;
    }
    if (p.stride) {
      if (p.start) tmpl += "{}", args.push_back(sels[d].start);
      tmpl += ":";
      if (p.end) tmpl += "{}", args.push_back(*p.end);
      tmpl += ":{}";
      args.push_back(*p.stride);
    } else if (p.end) {
      if (p.start) tmpl += "{}", args.push_back(sels[d].start);
      tmpl += ":{}";
      args.push_back(*p.end);
    } else {
      tmpl += "{}:";
      args.push_back(sels[d].start);
    }
  }
  tmpl += "] out of bounds for array of shape ";
  for (size_t d = 0; d < parts.size(); d++) {
    tmpl += "[{}]";
    args.push_back(shape[d]);
  }
  tmpl += ".";
  fail(FailureKind::Bounds, span, tmpl, args);
}

// Checks a whole selection against `shape`; reports the failure at `span`.
std::vector<DimSel> resolve_selection(const std::vector<int64_t> &shape,
                                      const std::vector<RawPart> &parts, const Span &span) {
  KERB_ASSERT(parts.size() <= shape.size(), "more indices than array dimensions");
  std::vector<DimSel> sels(parts.size());
  bool ok = true;
  for (size_t d = 0; d < parts.size(); d++) {
    const RawPart &p = parts[d];
    if (p.is_slice) {
      ok = resolve_slice(shape[d], p, sels[d]) && ok;
      continue;
    }
    sels[d].is_index = true;
    sels[d].start = p.index;
    sels[d].count = 1;
    ok = ok && p.index >= 0 && p.index < shape[d];
  }
  if (!ok) fail_index(span, shape, parts, sels);
  return sels;
}

RawPart index_part(int64_t i) {
  RawPart p;
  p.index = i;
  return p;
}

RawPart slice_part(std::optional<int64_t> start, std::optional<int64_t> end) {
  RawPart p;
  p.is_slice = true;
  p.start = start;
  p.end = end;
  return p;
}

// The full shape of an array of primitives, or the outer shape of an array of tuples.
std::vector<int64_t> shape_of(const Value &v) {
  if (v.kind != Value::Array) return {};
  return v.array->shape;
}

// ---------------------------------------------------------------------------------
// The evaluator

// Note [Which failures may be reported]
// On a device, the elements of a map run in parallel threads. When several of them
// fail, any one may win the failure slot, and a kernel that fuses several maps may
// even report a failure of a later map in one thread before an earlier map's failure
// in another. So a device's failure need not be the interpreter's (the first in
// sequential order); it must be a failure that really happens: a check that fails on
// values computed from the input, not on values that a failed thread left behind.
//
// possible_failures() enumerates those. It runs the program with every element of a
// map (and every predicate call of a filter) isolated: an element that fails is
// recorded and replaced by a filler value of the same shape, and the run goes on, so
// the failures of the other elements, and of later code, are seen too. A failure
// outside any element (host code, a reduction's operator) ends the run. So a failure
// on the host after a failing map is possible too: the map may be fused into a kernel
// that runs after that host code (a size check of the map2 that reads it, an assert),
// also when every element of the map fails (rows of primitives get their filler from
// the type then; with array rows and no element to copy the shape from, the map fails
// as a whole). Later failures may depend on the filler values, which no device
// computes; so the program runs twice, with two different fillers (zeros, and a distinctive non-zero pattern),
// and only failures seen in both runs (same kind, message and location) count. A map
// whose every element fails in code that compiled code removed as dead (docs/CHECKS.md,
// Note [Checks in dead code]; the caller says which failures those are) is filled even
// with array rows, so that the failures after it, which compiled code does reach, are
// seen (kerb difftest, seed 1600274).
class Interpreter {
public:
  Interpreter(const Program &program, const CheckOptions &checks)
      : program_(program), checks_(checks) {
    for (const auto &def : program.defs) StealAnalysis(steal_ok_).function(*def);
  }

  // Turns on the mode of possible_failures(): failures of map elements are appended
  // to `seen`, and the elements are filled with `filler` (0 or 1); see there for
  // `in_dead_code`.
  void enumerate_failures(std::vector<RunFailure> *seen, int filler,
                          const std::function<bool(const RunFailure &)> &in_dead_code) {
    seen_ = seen;
    filler_ = filler;
    in_dead_code_ = in_dead_code;
  }

  Value run_entry(const FunDef &f, std::vector<Value> args) {
    return call_function(f, std::move(args), f.name_span.valid() ? f.name_span : f.span, true);
  }

private:
  struct Slot {
    std::string_view name;
    Value value;
  };

  // ---- environment

  void push(std::string_view name, Value v) { env_.push_back(Slot{name, std::move(v)}); }

  void pop_to(size_t base) { env_.erase(env_.begin() + std::ptrdiff_t(base), env_.end()); }

  std::optional<size_t> find_slot(std::string_view name) const {
    for (size_t i = env_.size(); i-- > frame_base_;)
      if (env_[i].name == name) return i;
    return std::nullopt;
  }

  Value &slot_value(std::string_view name) {
    std::optional<size_t> i = find_slot(name);
    KERB_ASSERT(i.has_value(), "unbound variable '" + std::string(name) + "'");
    Value &v = env_[*i].value;
    KERB_ASSERT(v.kind != Value::Array || v.array,
                "variable '" + std::string(name) + "' used after its array was moved out");
    return v;
  }

  // The value of a size name: a variable, or a top-level constant (`def n: i64 = 3`).
  std::optional<int64_t> lookup_size(std::string_view name) {
    std::optional<size_t> i = find_slot(name);
    Value constant;
    if (!i) {
      const FunDef *f = program_.find(std::string(name));
      if (!f || !f->params.empty()) return std::nullopt;
      constant = constant_value(*f, f->span);
    }
    const Value &v = i ? env_[*i].value : constant;
    if (v.kind != Value::Prim || !is_int(v.prim.type)) return std::nullopt;
    return v.prim.as_i64();
  }

  // A top-level definition without parameters, evaluated once (the language is pure).
  Value constant_value(const FunDef &f, const Span &span) {
    auto it = constants_.find(&f);
    if (it != constants_.end()) return it->second;
    Value v = call_function(f, {}, span);
    constants_.emplace(&f, v);
    return v;
  }

  std::optional<int64_t> size_of_text(std::string_view text) {
    return eval_size_expr(text, [this](std::string_view n) { return lookup_size(n); });
  }

  std::optional<int64_t> resolve_dim(const Dim &d) {
    switch (d.kind) {
    case Dim::Const: return d.value;
    case Dim::Var: return size_of_text(d.name);
    case Dim::Unknown: return std::nullopt;
    }
    return std::nullopt;
  }

  void bind(const Pattern &p, Value v) {
    switch (p.kind) {
    case Pattern::Id: push(p.name, std::move(v)); return;
    case Pattern::Wildcard: return;
    case Pattern::Tuple:
      KERB_ASSERT(v.kind == Value::Tuple && v.elems.size() == p.elems.size(),
                  "tuple pattern bound to a value of another shape");
      for (size_t i = 0; i < p.elems.size(); i++) bind(p.elems[i], std::move(v.elems[i]));
      return;
    KERB_ELIMINATED_PATTERN_KINDS: break;
    }
    KERB_ASSERT(false, "a pattern the front end eliminates reached the interpreter");
  }

  // The value of a pattern's variables (for `loop (x, y) for ...` with no initial value).
  Value value_of_pattern(const Pattern &p) {
    switch (p.kind) {
    case Pattern::Id: return slot_value(p.name);
    case Pattern::Wildcard: KERB_ASSERT(false, "loop parameter `_` without an initial value");
    case Pattern::Tuple: break;
    KERB_ELIMINATED_PATTERN_KINDS:
      KERB_ASSERT(false, "a pattern the front end eliminates reached the interpreter");
    }
    std::vector<Value> elems;
    for (const Pattern &e : p.elems) elems.push_back(value_of_pattern(e));
    return Value::tuple(std::move(elems));
  }

  // ---- sizes
  //
  // Note [Inner sizes of empty arrays]
  // Futhark knows every size statically, so an empty array of arrays has exact inner
  // sizes (map f over [0][2] gives [0][k] for f's result size k). Kerb's types may not
  // say, so the interpreter finds them out where it can (the neutral element of a scan,
  // one trial call of a map's function on a row of zeros, the dims of the expression's
  // type), and otherwise uses 0. Because such inner sizes may be wrong, the size checks
  // below ignore the dims that follow a dimension of size 0.

  // `t` with each resolvable dim replaced by its value, printed as Futhark does.
  std::string type_text(const Type &t) {
    Type shown = t;
    resolve_type_dims(shown);
    return shown.str();
  }

  void resolve_type_dims(Type &t) {
    for (Dim &d : t.dims) {
      std::optional<int64_t> v = resolve_dim(d);
      if (v) d = Dim::constant(*v);
    }
    for (Type &e : t.elems) resolve_type_dims(e);
  }

  // Futhark's coercion check (`e :> t`, also used for `e : t`): every resolvable dim of
  // t must equal the value's.
  void check_coercion(const Type &t, const Value &v, const Type &whole, const Span &span) {
    if (t.is_tuple()) {
      if (v.kind != Value::Tuple) return;
      for (size_t i = 0; i < t.elems.size() && i < v.elems.size(); i++)
        check_coercion(t.elems[i], v.elems[i], t.elems[i], span);
      return;
    }
    if (!t.is_array() || v.kind != Value::Array) return;
    const std::vector<int64_t> &shape = v.shape();
    for (size_t d = 0; d < t.dims.size() && d < shape.size(); d++) {
      if (d > 0 && shape[d - 1] == 0) break; // See Note [Inner sizes of empty arrays]
      std::optional<int64_t> want = resolve_dim(t.dims[d]);
      if (want && *want != shape[d]) {
        std::string dims;
        for (size_t k = 0; k < shape.size(); k++) dims += (k ? "][" : "") + std::to_string(shape[k]);
        fail_text(FailureKind::Size, span,
                  "Value of (desugared) shape [" + dims + "] cannot match shape of type \"" +
                      type_text(whole) + "\".");
      }
    }
    const Type &elem = t.element();
    if (elem.is_tuple()) {
      for (size_t k = 0; k < elem.elems.size() && k < v.array->components.size(); k++) {
        Type comp = Type::array(elem.elems[k], t.dims);
        check_coercion(comp, v.array->components[k], comp, span);
      }
    }
  }

  // Binds the size parameters of `f` that appear in `t` from v's shape, or checks them
  // where they (or other names, or constants) are already known. `bind_only`: bind, check
  // nothing (the first pass over a call's parameters, so that a size expression of an
  // earlier parameter, [r * c], is checked with the sizes later ones bind).
  void bind_sizes(const FunDef &f, const Type &t, const Value &v, const Span &span, bool entry,
                  bool bind_only = false) {
    if (t.is_tuple()) {
      if (v.kind != Value::Tuple) return;
      for (size_t i = 0; i < t.elems.size() && i < v.elems.size(); i++)
        bind_sizes(f, t.elems[i], v.elems[i], span, entry, bind_only);
      return;
    }
    if (!t.is_array() || v.kind != Value::Array) return;
    const std::vector<int64_t> &shape = v.shape();
    for (size_t d = 0; d < t.dims.size() && d < shape.size(); d++) {
      const Dim &dim = t.dims[d];
      if (dim.kind == Dim::Unknown) continue;
      bool unreliable = d > 0 && shape[d - 1] == 0; // See Note [Inner sizes of empty arrays]
      auto size_param = std::find(f.size_params.begin(), f.size_params.end(), dim.name);
      // A size parameter not yet bound in this call is bound here, even where a top-level
      // constant has its name (parboil's tpacf: `def numBins : i32 = 20` and
      // `def sumBins [numBins] ...`): the parameter shadows the constant.
      if (dim.kind == Dim::Var && size_param != f.size_params.end() && !find_slot(dim.name)) {
        // The slot's name must outlive `t`, which may be a temporary: use the FunDef's.
        push(*size_param, i64_value(shape[d]));
        continue;
      }
      if (bind_only) continue;
      std::optional<int64_t> known = resolve_dim(dim);
      if (known && *known != shape[d] && !unreliable) {
        if (entry)
          fail_text(FailureKind::Size, span, "entry point arguments have invalid sizes.");
        fail_text(FailureKind::Size, span, "function arguments of wrong shape");
      }
    }
    const Type &elem = t.element();
    if (elem.is_tuple()) {
      for (size_t k = 0; k < elem.elems.size() && k < v.array->components.size(); k++)
        bind_sizes(f, Type::array(elem.elems[k], t.dims), v.array->components[k], span, entry,
                   bind_only);
    }
  }

  void check_result_shape(const Type &t, const Value &v, const Span &span) {
    if (t.is_tuple()) {
      if (v.kind != Value::Tuple) return;
      for (size_t i = 0; i < t.elems.size() && i < v.elems.size(); i++)
        check_result_shape(t.elems[i], v.elems[i], span);
      return;
    }
    if (!t.is_array() || v.kind != Value::Array) return;
    const std::vector<int64_t> &shape = v.shape();
    for (size_t d = 0; d < t.dims.size() && d < shape.size(); d++) {
      if (d > 0 && shape[d - 1] == 0) break; // See Note [Inner sizes of empty arrays]
      std::optional<int64_t> want = resolve_dim(t.dims[d]);
      if (want && *want != shape[d])
        fail_text(FailureKind::Size, span,
                  "Function return value does not match shape of declared return type.");
    }
    const Type &elem = t.element();
    if (elem.is_tuple()) {
      for (size_t k = 0; k < elem.elems.size() && k < v.array->components.size(); k++)
        check_result_shape(Type::array(elem.elems[k], t.dims), v.array->components[k], span);
    }
  }

public:
  // ---- calls

  Value call_function(const FunDef &f, std::vector<Value> args, const Span &call_span,
                      bool entry = false) {
    KERB_ASSERT(args.size() == f.params.size(),
                "function '" + f.name + "' called with the wrong number of arguments");
    std::optional<UnsafeScope> scope;
    if (f.is_unsafe) scope.emplace(*this);
    size_t saved_base = frame_base_;
    size_t base = env_.size();
    frame_base_ = base;
    for (size_t i = 0; i < args.size(); i++)
      bind_param_sizes(f, f.params[i], args[i], call_span, entry, /*bind_only=*/true);
    for (size_t i = 0; i < args.size(); i++) {
      const Pattern &p = f.params[i];
      bind_param_sizes(f, p, args[i], call_span, entry);
      bind(p, std::move(args[i]));
    }
    Value result = eval(*f.body);
    const Type &ret = f.ret_annotation ? *f.ret_annotation : f.ret_type;
    check_result_shape(ret, result, call_span);
    pop_to(base);
    frame_base_ = saved_base;
    return result;
  }

private:
  // Binds the size parameters that a parameter's types name: the pattern's own type
  // and the annotations inside a tuple pattern (`(_, xs: [n]i64): (i32, []i64)`).
  void bind_param_sizes(const FunDef &f, const Pattern &p, const Value &v, const Span &span,
                        bool entry, bool bind_only = false) {
    bind_sizes(f, p.annotation ? *p.annotation : p.type, v, span, entry, bind_only);
    if (p.kind != Pattern::Tuple || v.kind != Value::Tuple) return;
    for (size_t k = 0; k < p.elems.size() && k < v.elems.size(); k++)
      bind_param_sizes(f, p.elems[k], v.elems[k], span, entry, bind_only);
  }

  Value call(const Callable &c, Value *args, size_t n, const Span &span) {
    std::optional<UnsafeScope> scope;
    if (c.unsafe) scope.emplace(*this);
    switch (c.kind) {
    case Callable::Lambda: {
      const Expr &lam = *c.expr;
      KERB_ASSERT(n == lam.params.size(), "anonymous function called with the wrong arity");
      size_t base = env_.size();
      for (size_t i = 0; i < n; i++) bind(lam.params[i], std::move(args[i]));
      Value r = eval(*lam.args[0]);
      pop_to(base);
      return r;
    }
    case Callable::Function: {
      std::vector<Value> all;
      all.reserve(c.bound.size() + n);
      for (const Arg &a : c.bound) all.push_back(a.value);
      for (size_t i = 0; i < n; i++) all.push_back(std::move(args[i]));
      return call_function(*c.fun, std::move(all), span);
    }
    case Callable::Prim: {
      std::vector<Value> all;
      for (const Arg &a : c.bound) all.push_back(a.value);
      for (size_t i = 0; i < n; i++) all.push_back(std::move(args[i]));
      return apply_prim(c.prim, all, c.span);
    }
    case Callable::Op: {
      if (c.has_operand) {
        KERB_ASSERT(n == 1, "an operator section takes one argument");
        if (c.operand_left) return apply_binop(c.op, c.operand, args[0], c.span);
        return apply_binop(c.op, args[0], c.operand, c.span);
      }
      KERB_ASSERT(n == 2, "an operator takes two arguments");
      return apply_binop(c.op, args[0], args[1], c.span);
    }
    case Callable::Builtin: {
      std::vector<Arg> all = c.bound;
      for (size_t i = 0; i < n; i++) all.push_back(Arg{std::move(args[i]), nullptr});
      return eval_builtin(c.builtin, all, nullptr, c.span);
    }
    }
    KERB_ASSERT(false, "unknown callable");
    return {};
  }

  Value call1(const Callable &c, Value a, const Span &span) { return call(c, &a, 1, span); }

  Value call2(const Callable &c, Value a, Value b, const Span &span) {
    Value args[2] = {std::move(a), std::move(b)};
    return call(c, args, 2, span);
  }

  CallablePtr make_callable(const Expr &e) {
    auto c = std::make_shared<Callable>();
    c->expr = &e;
    c->span = e.span;
    switch (e.kind) {
    case ExprKind::Lambda:
      c->kind = Callable::Lambda;
      return c;
    case ExprKind::OpSection:
      c->kind = Callable::Op;
      c->op = e.binop;
      if (!e.args.empty()) {
        c->has_operand = true;
        c->operand_left = e.section_left;
        c->operand = eval(*e.args[0]);
      }
      return c;
    case ExprKind::Unsafe: {
      auto inner = std::const_pointer_cast<Callable>(make_callable(*e.args[0]));
      inner->unsafe = true;
      return inner;
    }
    case ExprKind::Var:
    case ExprKind::Apply:
      break;
    default:
      KERB_ASSERT(false, "expression cannot be used as a function");
    }
    switch (e.callee) {
    case Callee::Function:
      c->kind = Callable::Function;
      c->fun = e.fun;
      break;
    case Callee::PrimBuiltin:
      c->kind = Callable::Prim;
      c->prim = e.prim_builtin;
      break;
    case Callee::ArrayBuiltin:
      c->kind = Callable::Builtin;
      c->builtin = e.array_builtin;
      break;
    default:
      KERB_ASSERT(false, "'" + e.name + "' cannot be used as a function");
    }
    if (e.kind == ExprKind::Apply) {
      for (size_t i = 0; i < e.args.size(); i++) {
        if (c->kind == Callable::Builtin && builtin_takes_function(c->builtin, i))
          c->bound.push_back(Arg{Value(), make_callable(*e.args[i])});
        else
          c->bound.push_back(Arg{eval(*e.args[i]), nullptr});
      }
    }
    return c;
  }

  // The element type a callable returns, for the rows of an empty result.
  ValueType callable_result_type(const Callable &c, const std::vector<ValueType> &arg_types) {
    switch (c.kind) {
    case Callable::Lambda: return c.expr->args[0]->type.value_type();
    case Callable::Function: return c.fun->ret_type.value_type();
    case Callable::Prim:
      switch (c.prim.fn) {
      case PrimFn::IsNan: case PrimFn::IsInf: return ValueType::of_prim(PrimType::Bool);
      case PrimFn::Popc: case PrimFn::Clz: case PrimFn::Ctz: return ValueType::of_prim(PrimType::I32);
      default: return ValueType::of_prim(c.prim.module);
      }
    case Callable::Op:
      if (is_comparison(c.op)) return ValueType::of_prim(PrimType::Bool);
      if (c.has_operand && c.op != BinOp::Concat) return c.operand.type();
      break;
    case Callable::Builtin:
      if ((c.builtin == ArrayBuiltin::Map || c.builtin == ArrayBuiltin::Map1) &&
          c.bound.size() == 1 && c.bound[0].fn && !arg_types.empty() && arg_types[0].rank > 0) {
        ValueType r = callable_result_type(*c.bound[0].fn, {arg_types[0].row()});
        r.rank++;
        return r;
      }
      if ((c.builtin == ArrayBuiltin::Reduce || c.builtin == ArrayBuiltin::Scan ||
           c.builtin == ArrayBuiltin::ReduceComm || c.builtin == ArrayBuiltin::Foldl) &&
          c.bound.size() >= 2)
      {
        ValueType r = c.bound[1].value.type();
        if (c.builtin == ArrayBuiltin::Scan) r.rank++;
        return r;
      }
      if (!arg_types.empty() && arg_types[0].rank > 0 &&
          (c.builtin == ArrayBuiltin::Sum || c.builtin == ArrayBuiltin::Product ||
           c.builtin == ArrayBuiltin::Maximum || c.builtin == ArrayBuiltin::Minimum ||
           c.builtin == ArrayBuiltin::Head || c.builtin == ArrayBuiltin::Last))
        return arg_types[0].row();
      if (c.builtin == ArrayBuiltin::Length) return ValueType::of_prim(PrimType::I64);
      break;
    }
    if (!arg_types.empty()) return arg_types[0];
    return ValueType::of_prim(PrimType::I32);
  }

  // ---- expressions

  Value eval(const Expr &e) {
    switch (e.kind) {
    case ExprKind::IntLit: return Value(int_literal(e));
    case ExprKind::FloatLit: return Value(PrimValue::floating(prim_type_of(e, PrimType::F64), e.float_value));
    case ExprKind::BoolLit: return Value(PrimValue::boolean(e.bool_value));
    case ExprKind::Var: return eval_var(e);
    case ExprKind::Tuple: {
      std::vector<Value> elems;
      elems.reserve(e.args.size());
      for (const ExprPtr &a : e.args) elems.push_back(eval(*a));
      return Value::tuple(std::move(elems));
    }
    case ExprKind::ArrayLit: {
      RowBuilder rows(int64_t(e.args.size()));
      for (const ExprPtr &a : e.args) rows.push(eval(*a));
      return rows.finish([&] { return empty_of(e.type); }, e.span);
    }
    case ExprKind::Unary: {
      Value a = eval(*e.args[0]);
      return Value(eval_unop(e.unop, a.prim));
    }
    case ExprKind::Binary: return eval_binary(e);
    case ExprKind::If:
      return eval(*e.args[0]).prim.as_bool() ? eval(*e.args[1]) : eval(*e.args[2]);
    case ExprKind::Let: {
      Value v = eval(*e.args[0]);
      size_t base = env_.size();
      bind(e.pattern, std::move(v));
      Value r = eval(*e.args[1]);
      pop_to(base);
      return r;
    }
    case ExprKind::Loop: return eval_loop(e);
    case ExprKind::Index: return eval_index(e);
    case ExprKind::Update: return eval_update(e);
    case ExprKind::Project: {
      Value t = eval(*e.args[0]);
      KERB_ASSERT(t.kind == Value::Tuple && size_t(e.field) < t.elems.size(),
                  "projection of a non-tuple value");
      return std::move(t.elems[size_t(e.field)]);
    }
    case ExprKind::Apply: return eval_apply(e);
    case ExprKind::Lambda:
    case ExprKind::OpSection:
      KERB_ASSERT(false, "a function value outside the argument of a built-in");
      return {};
    case ExprKind::Ascribe: // checked statically by Futhark: no run-time check
      return eval(*e.args[0]);
    case ExprKind::Coerce: {
      Value v = eval(*e.args[0]);
      if (e.annotation) check_coercion(*e.annotation, v, *e.annotation, e.span);
      return v;
    }
    case ExprKind::Assert: {
      Value c = eval(*e.args[0]);
      if (!c.prim.as_bool() && checking(FailureKind::Assert))
        fail_text(FailureKind::Assert, e.span,
                  "Assertion is false: " + std::string(e.args[0]->span.text()));
      return eval(*e.args[1]);
    }
    case ExprKind::Range: return eval_range(e);
    case ExprKind::Unsafe: {
      UnsafeScope scope(*this);
      return eval(*e.args[0]);
    }
    KERB_ELIMINATED_EXPR_KINDS: break;
    }
    KERB_ASSERT(false, "an expression the front end eliminates reached the interpreter");
    return {};
  }

private:
  static PrimType prim_type_of(const Expr &e, PrimType fallback) {
    if (e.type.is_prim()) return e.type.prim;
    if (e.suffix) return *e.suffix;
    return fallback;
  }

  static PrimValue int_literal(const Expr &e) {
    PrimType t = prim_type_of(e, PrimType::I32);
    return convert_prim(PrimValue::unsigned_int(PrimType::U64, e.int_value), t);
  }

  // An empty array of array type t (outer size 0; inner sizes from t where known).
  Value empty_of(const Type &t) {
    if (!t.is_array()) return make_empty_array(ValueType::of_prim(PrimType::I32), {0});
    std::vector<int64_t> shape{0};
    for (size_t d = 1; d < t.dims.size(); d++) shape.push_back(resolve_dim(t.dims[d]).value_or(0));
    return make_empty_array(t.element().value_type(), std::move(shape));
  }

  Value eval_var(const Expr &e) {
    switch (e.callee) {
    case Callee::Local: return slot_value(e.name);
    case Callee::Function: return constant_value(*e.fun, e.span);
    case Callee::PrimBuiltin:
      KERB_ASSERT(prim_fn_arity(e.prim_builtin.fn) == 0, "'" + e.name + "' is not a constant");
      return Value(prim_constant(e.prim_builtin.module, e.prim_builtin.fn));
    default: break;
    }
    KERB_ASSERT(false, "variable '" + e.name + "' is not resolved to a value");
    return {};
  }

  Value eval_binary(const Expr &e) {
    if (e.binop == BinOp::LogAnd || e.binop == BinOp::LogOr) {
      bool left = eval(*e.args[0]).prim.as_bool();
      if (e.binop == BinOp::LogAnd && !left) return Value(PrimValue::boolean(false));
      if (e.binop == BinOp::LogOr && left) return Value(PrimValue::boolean(true));
      return Value(PrimValue::boolean(eval(*e.args[1]).prim.as_bool()));
    }
    Value a = eval(*e.args[0]);
    Value b = eval(*e.args[1]);
    return apply_binop(e.binop, a, b, e.span);
  }

  Value apply_binop(BinOp op, const Value &a, const Value &b, const Span &span) {
    if (op == BinOp::Concat) return concat_checked(a, b, span);
    if ((op == BinOp::Eq || op == BinOp::Neq) && a.kind != Value::Prim) {
      bool equal = deep_equal(a, b);
      return Value(PrimValue::boolean(op == BinOp::Eq ? equal : !equal));
    }
    if (is_checked_division(op, a.prim.type) && prim_is_zero(b.prim))
      fail(FailureKind::Division, span, "division by zero");
    if (is_negative_exponent(op, b.prim)) fail(FailureKind::Division, span, "negative exponent");
    return Value(checked_binop(op, a.prim, b.prim, span));
  }

  // ---- the checks that follow the toggles (see the file comment)

  // Inside #[unsafe] (an expression, a function, or a function argument marked so).
  struct UnsafeScope {
    explicit UnsafeScope(Interpreter &i) : in(i) { in.unsafe_depth_++; }
    ~UnsafeScope() { in.unsafe_depth_--; }
    Interpreter &in;
  };
  bool checking(FailureKind k) const { return checks_.enabled(k) && unsafe_depth_ == 0; }

  // a op b, with the nan check (when on) as compiled code makes it.
  PrimValue checked_binop(BinOp op, const PrimValue &a, const PrimValue &b, const Span &span) {
    PrimValue r = eval_binop(op, a, b);
    if (checking(FailureKind::NaN) && can_produce_nan(op, a.type)) {
      PrimValue ab[2] = {a, b};
      if (produced_nan(r, ab, 2))
        fail_text(FailureKind::NaN, span, "NaN produced by " + nan_op_name(op));
    }
    return r;
  }

  PrimValue checked_prim_fn(const PrimBuiltin &fn, const PrimValue *args, size_t n, const Span &span) {
    PrimValue r = eval_prim_fn(fn, args, n);
    if (checking(FailureKind::NaN) && can_produce_nan(fn) && produced_nan(r, args, n))
      fail_text(FailureKind::NaN, span, "NaN produced by " + nan_op_name(fn));
    return r;
  }

  Value concat_checked(const Value &a, const Value &b, const Span &span) {
    const std::vector<int64_t> &sa = a.shape(), &sb = b.shape();
    bool same = sa.size() == sb.size() && std::equal(sa.begin() + 1, sa.end(), sb.begin() + 1);
    for (size_t k = 0; same && k < a.array->components.size(); k++) {
      const std::vector<int64_t> &ca = a.array->components[k].shape();
      const std::vector<int64_t> &cb = b.array->components[k].shape();
      same = ca.size() == cb.size() && std::equal(ca.begin() + 1, ca.end(), cb.begin() + 1);
    }
    if (!same) fail_size_mismatch(span, "concat", {sa, sb});
    return concat_arrays(a, b);
  }

  // Arguments whose sizes must agree and do not.
  [[noreturn]] void fail_size_mismatch(const Span &span, const std::string &what,
                                       const std::vector<std::vector<int64_t>> &shapes) {
    std::string list;
    for (size_t i = 0; i < shapes.size(); i++) list += (i ? " and " : "") + shape_text(shapes[i]);
    fail_text(FailureKind::Size, span, "Sizes of the arguments of " + what + " do not match: " + list + ".");
  }

  std::vector<RawPart> eval_parts(const std::vector<IndexPart> &indices) {
    std::vector<RawPart> parts(indices.size());
    for (size_t d = 0; d < indices.size(); d++) {
      const IndexPart &p = indices[d];
      RawPart &r = parts[d];
      r.is_slice = p.is_slice;
      if (!p.is_slice) {
        r.index = eval(*p.index).prim.as_i64();
        continue;
      }
      if (p.start) r.start = eval(*p.start).prim.as_i64();
      if (p.end) r.end = eval(*p.end).prim.as_i64();
      if (p.stride) r.stride = eval(*p.stride).prim.as_i64();
    }
    return parts;
  }

  static bool is_local_var(const Expr &e) {
    return e.kind == ExprKind::Var && e.callee == Callee::Local;
  }

  Value eval_index(const Expr &e) {
    const Expr &target = *e.args[0];
    bool local = is_local_var(target);
    Value holder;
    if (!local) holder = eval(target);
    if (e.indices.size() == 1 && !e.indices[0].is_slice) {
      int64_t i = eval(*e.indices[0].index).prim.as_i64();
      const Value &arr = local ? slot_value(target.name) : holder;
      const ArrayData &a = *arr.array;
      if (i < 0 || i >= a.shape[0]) fail_index(e.span, a.shape, {index_part(i)}, {DimSel{}});
      if (a.shape.size() == 1 && a.elem.kind == ValueType::Prim)
        return Value(PrimValue{a.elem.prim, a.data[size_t(i)]});
      return array_index(arr, i);
    }
    std::vector<RawPart> parts = eval_parts(e.indices);
    const Value &arr = local ? slot_value(target.name) : holder;
    std::vector<DimSel> sels = resolve_selection(arr.shape(), parts, e.span);
    return gather(arr, sels);
  }

  Value eval_update(const Expr &e) {
    const Expr &target = *e.args[0];
    bool local = is_local_var(target);
    Value arr;
    if (!local) arr = eval(target);
    std::vector<RawPart> parts = eval_parts(e.indices);
    Value v = eval(*e.args[1]);
    if (local) {
      Value &slot = slot_value(target.name);
      if (steal_ok_.count(&e)) arr = std::move(slot);
      else arr = slot;
    }
    std::vector<DimSel> sels = resolve_selection(arr.shape(), parts, e.span);
    // The common case: one element of a vector.
    if (sels.size() == 1 && sels[0].is_index && arr.rank() == 1 && v.kind == Value::Prim &&
        arr.array->elem.kind == ValueType::Prim) {
      make_unique_array(arr).data[size_t(sels[0].start)] = v.prim.bits;
      return arr;
    }
    std::vector<int64_t> want = selection_outer_shape(arr.shape(), sels);
    if (shape_of(v) != want)
      fail_text(FailureKind::Size, e.span, "Shape of slice does not match shape of value.");
    write_selection(arr, sels, v);
    return arr;
  }

  Value eval_loop(const Expr &e) {
    Value state = e.args[0] ? eval(*e.args[0]) : value_of_pattern(e.pattern);
    const Expr &body = *e.args[2];
    switch (e.loop_form) {
    case LoopForm::For: {
      PrimValue bound = eval(*e.args[1]).prim;
      PrimType t = bound.type;
      uint64_t n = is_signed_int(t) ? (bound.bits.i > 0 ? uint64_t(bound.bits.i) : 0) : bound.bits.u;
      for (uint64_t i = 0; i < n; i++) {
        size_t base = env_.size();
        bind(e.pattern, std::move(state));
        push(e.name, Value(PrimValue::unsigned_int(t, i)));
        state = eval(body);
        pop_to(base);
      }
      return state;
    }
    case LoopForm::ForIn: {
      Value xs = eval(*e.args[1]);
      int64_t n = xs.length();
      for (int64_t i = 0; i < n; i++) {
        size_t base = env_.size();
        bind(e.pattern, std::move(state));
        bind(e.pattern2, array_index(xs, i));
        state = eval(body);
        pop_to(base);
      }
      return state;
    }
    case LoopForm::While: {
      const Expr &cond = *e.args[1];
      for (;;) {
        size_t base = env_.size();
        // The condition sees a copy, popped before the body runs, so that the body
        // can still update the state's arrays in place.
        bind(e.pattern, state);
        bool go = eval(cond).prim.as_bool();
        pop_to(base);
        if (!go) return state;
        bind(e.pattern, std::move(state));
        state = eval(body);
        pop_to(base);
      }
    }
    }
    KERB_ASSERT(false, "unknown loop form");
    return {};
  }

  // Ranges, as Futhark's: a..b (inclusive), a..<b, a..>b, with an optional second
  // element giving the step. Invalid ranges fail with "Range ... is invalid.".
  Value eval_range(const Expr &e) {
    PrimValue start = eval(*e.args[0]).prim;
    std::optional<PrimValue> second;
    if (e.args[1]) second = eval(*e.args[1]).prim;
    PrimValue end = eval(*e.args[2]).prim;
    PrimType t = start.type;
    bool is_signed = is_signed_int(t);
    auto math = [&](const PrimValue &p) -> __int128 {
      return is_signed ? __int128(p.bits.i) : __int128(p.bits.u);
    };
    __int128 a = math(start), b = math(end);
    __int128 step = second ? math(*second) - a : (e.range_kind == RangeKind::DownToExcl ? -1 : 1);
    bool invalid = step == 0;
    __int128 distance = 0;
    switch (e.range_kind) {
    case RangeKind::UpToExcl:
      invalid = invalid || step < 0 || b < a;
      distance = b - a;
      break;
    case RangeKind::DownToExcl:
      invalid = invalid || step > 0 || a < b;
      distance = a - b;
      break;
    case RangeKind::UpTo:
      if (step < 0) {
        invalid = invalid || a < b;
        distance = a - b + 1;
      } else {
        invalid = invalid || b < a;
        distance = b - a + 1;
      }
      break;
    }
    if (invalid) {
      std::string tmpl = "Range {}";
      // Futhark prints the bounds as i64 (unsigned ones zero-extended).
      auto shown = [&](const PrimValue &p) { return is_signed ? p.bits.i : int64_t(p.bits.u); };
      std::vector<int64_t> args{shown(start)};
      if (second) {
        tmpl += "..{}";
        args.push_back(shown(*second));
      }
      tmpl += e.range_kind == RangeKind::UpToExcl     ? "..<{}"
              : e.range_kind == RangeKind::DownToExcl ? "..>{}"
                                                      : "...{}";
      args.push_back(shown(end));
      tmpl += " is invalid.";
      fail(FailureKind::Range, e.span, tmpl, args);
    }
    __int128 abs_step = step < 0 ? -step : step;
    __int128 count = (distance + abs_step - 1) / abs_step;
    if (count > __int128(int64_t(1) << 40))
      fail_text(FailureKind::Range, e.span, "Range is too large to be built.");
    std::vector<Bits> data;
    data.reserve(size_t(count));
    for (__int128 i = 0; i < count; i++)
      data.push_back(PrimValue::unsigned_int(t, uint64_t(a + i * step)).bits);
    return make_prim_array(t, {int64_t(count)}, std::move(data));
  }

  Value eval_apply(const Expr &e) {
    switch (e.callee) {
    case Callee::Function: {
      std::vector<Value> args;
      args.reserve(e.args.size());
      for (const ExprPtr &a : e.args) args.push_back(eval(*a));
      return call_function(*e.fun, std::move(args), e.span);
    }
    case Callee::ArrayBuiltin: {
      std::vector<Arg> args;
      args.reserve(e.args.size());
      for (size_t i = 0; i < e.args.size(); i++) {
        if (builtin_takes_function(e.array_builtin, i))
          args.push_back(Arg{Value(), make_callable(*e.args[i])});
        else
          args.push_back(Arg{eval(*e.args[i]), nullptr});
      }
      return eval_builtin(e.array_builtin, args, &e, e.span);
    }
    case Callee::PrimBuiltin: {
      std::vector<Value> args;
      for (const ExprPtr &a : e.args) args.push_back(eval(*a));
      return apply_prim(e.prim_builtin, args, e.span);
    }
    default: break;
    }
    KERB_ASSERT(false, "call of an unresolved function '" + e.name + "'");
    return {};
  }

  Value apply_prim(const PrimBuiltin &b, const std::vector<Value> &args, const Span &span) {
    int arity = prim_fn_arity(b.fn);
    if (arity < 0) {
      KERB_ASSERT(args.size() == 1, "an array reduction takes one array");
      return reduce_prims(b.fn, b.module, args[0], span);
    }
    if (arity == 0) return Value(prim_constant(b.module, b.fn));
    KERB_ASSERT(args.size() == size_t(arity), "numeric function applied to the wrong number of arguments");
    PrimValue ps[2];
    for (size_t i = 0; i < args.size(); i++) ps[i] = args[i].prim;
    return Value(checked_prim_fn(b, ps, args.size(), span));
  }

  // sum, product, maximum, minimum of an array of primitives of type t.
  Value reduce_prims(PrimFn fn, PrimType t, const Value &xs, const Span &span) {
    KERB_ASSERT(xs.kind == Value::Array && xs.array->elem.kind == ValueType::Prim,
                "a numeric reduction of a non-numeric array");
    PrimValue acc;
    PrimBuiltin op{t, PrimFn::Max, t};
    switch (fn) {
    case PrimFn::Sum: acc = convert_prim(PrimValue::signed_int(PrimType::I64, 0), t); break;
    case PrimFn::Product: acc = convert_prim(PrimValue::signed_int(PrimType::I64, 1), t); break;
    case PrimFn::Maximum: acc = prim_constant(t, PrimFn::Lowest); op.fn = PrimFn::Max; break;
    case PrimFn::Minimum: acc = prim_constant(t, PrimFn::Highest); op.fn = PrimFn::Min; break;
    default: KERB_ASSERT(false, "not an array reduction");
    }
    for (const Bits &b : xs.array->data) {
      PrimValue x{t, b};
      if (fn == PrimFn::Sum) acc = checked_binop(BinOp::Add, acc, x, span);
      else if (fn == PrimFn::Product) acc = checked_binop(BinOp::Mul, acc, x, span);
      else {
        PrimValue ab[2] = {acc, x};
        acc = eval_prim_fn(op, ab, 2);
      }
    }
    return Value(acc);
  }

  // ---- built-in array functions

  // True for a callable that combines two primitives without calling back into the
  // evaluator: `(+)`, `i32.max`, ...
  static bool is_plain_prim_op(const Callable &c) {
    if (c.kind == Callable::Op) return !c.has_operand && c.op != BinOp::Concat;
    return c.kind == Callable::Prim && c.bound.empty() && prim_fn_arity(c.prim.fn) == 2;
  }

  PrimValue apply_plain_prim_op(const Callable &c, const PrimValue &a, const PrimValue &b) {
    std::optional<UnsafeScope> scope;
    if (c.unsafe) scope.emplace(*this);
    if (c.kind == Callable::Prim) {
      PrimValue ab[2] = {a, b};
      return checked_prim_fn(c.prim, ab, 2, c.span);
    }
    if (is_checked_division(c.op, a.type) && prim_is_zero(b))
      fail(FailureKind::Division, c.span, "division by zero");
    if (is_negative_exponent(c.op, b)) fail(FailureKind::Division, c.span, "negative exponent");
    return checked_binop(c.op, a, b, c.span);
  }

  static bool is_prim_vector(const Value &v) {
    return v.kind == Value::Array && v.array->shape.size() == 1 &&
           v.array->elem.kind == ValueType::Prim;
  }

  static Value row(const Value &xs, int64_t i) {
    if (is_prim_vector(xs)) return Value(PrimValue{xs.array->elem.prim, xs.array->data[size_t(i)]});
    return array_index(xs, i);
  }

  // A row of zeros shaped like the rows of arr (which may be empty).
  static Value zero_row(const Value &arr) {
    const ArrayData &a = *arr.array;
    std::vector<int64_t> rest(a.shape.begin() + 1, a.shape.end());
    if (a.elem.kind == ValueType::Prim) {
      if (rest.empty()) {
        PrimValue z;
        z.type = a.elem.prim;
        z.bits.u = 0;
        return Value(z);
      }
      return make_empty_array(a.elem, rest);
    }
    std::vector<Value> comps;
    for (const Value &c : a.components) comps.push_back(zero_row(c));
    if (rest.empty()) return Value::tuple(std::move(comps));
    return make_tuple_array(std::move(rest), std::move(comps));
  }

  static bool has_array_parts(const Type &t) {
    if (t.is_array()) return true;
    for (const Type &e : t.elems)
      if (has_array_parts(e)) return true;
    return false;
  }

  // The result of a map over no rows. See Note [Inner sizes of empty arrays]: when the
  // rows of the result may be arrays, one trial call on rows of zeros gives their shape
  // (a failure in that call is ignored). In the trial, the elements of maps are isolated
  // as for possible_failures (a failing element is filled), so that a map whose every
  // element fails on the zeros still gives its rows' length (found by kerb difftest,
  // seed 90906); what fails there is not recorded anywhere.
  Value empty_result(const Expr *apply, const Callable &f, const std::vector<const Value *> &xs) {
    if (apply && apply->type.is_array() && apply->type.rank() == 1 &&
        !has_array_parts(apply->type.element()))
      return empty_of(apply->type);
    size_t base = env_.size(), saved_base = frame_base_;
    std::vector<RunFailure> trial_failures;
    std::vector<RunFailure> *saved_seen = seen_;
    std::optional<RunFailure> saved_first = first_failure_;
    seen_ = &trial_failures;
    try {
      std::vector<Value> probe;
      for (const Value *x : xs) probe.push_back(zero_row(*x));
      Value r = call(f, probe.data(), probe.size(), f.span);
      seen_ = saved_seen;
      first_failure_ = saved_first;
      return replicate_value(0, r);
    } catch (const Failed &) {
      pop_to(base);
      frame_base_ = saved_base;
    }
    seen_ = saved_seen;
    first_failure_ = saved_first;
    if (apply && apply->type.is_array()) return empty_of(apply->type);
    std::vector<ValueType> rows;
    for (const Value *x : xs) rows.push_back(x->type().row());
    return make_empty_array(callable_result_type(f, rows), {0});
  }

  // A map's rows of different shapes (Futhark's message; lower_to_core.cpp, Note [Map
  // rows whose sizes depend on the element]).
  static constexpr const char *map_shape_message = "not all iterations produce same shape";

  Value map_arrays(const Callable &f, const std::vector<const Value *> &xs, const Expr *apply,
                   const Span &span, const char *name) {
    int64_t n = xs[0]->length();
    for (const Value *x : xs) {
      if (x->length() == n) continue;
      std::vector<std::vector<int64_t>> shapes;
      for (const Value *y : xs) shapes.push_back({y->length()});
      fail_size_mismatch(span, name, shapes);
    }
    RowBuilder out(n);
    std::vector<Value> argv(xs.size());
    if (seen_) return map_isolated(f, xs, apply, span);
    for (int64_t i = 0; i < n; i++) {
      for (size_t k = 0; k < xs.size(); k++) argv[k] = row(*xs[k], i);
      out.push(call(f, argv.data(), argv.size(), span));
    }
    return out.finish([&] { return empty_result(apply, f, xs); }, span, map_shape_message);
  }

  // ---- isolated elements (see Note [Which failures may be reported])

  // Calls f on args; on a failure records it, restores the environment and returns
  // nothing.
  std::optional<Value> call_isolated(const Callable &f, Value *args, size_t n, const Span &span) {
    size_t base = env_.size(), saved_base = frame_base_;
    try {
      return call(f, args, n, span);
    } catch (const Failed &failed) {
      pop_to(base);
      frame_base_ = saved_base;
      seen_->push_back(failed.failure);
      if (!first_failure_) first_failure_ = failed.failure;
      return std::nullopt;
    }
  }

  // A value shaped like `model` whose primitives are all the filler value.
  Value filler_like(const Value &model) const {
    switch (model.kind) {
    case Value::Prim: return Value(filler_prim(model.prim.type));
    case Value::Tuple: {
      std::vector<Value> elems;
      for (const Value &e : model.elems) elems.push_back(filler_like(e));
      return Value::tuple(std::move(elems));
    }
    case Value::Array: break;
    }
    const ArrayData &a = *model.array;
    if (a.elem.kind == ValueType::Tuple) {
      std::vector<Value> comps;
      for (const Value &c : a.components) comps.push_back(filler_like(c));
      return make_tuple_array(a.shape, std::move(comps));
    }
    std::vector<Bits> data(a.data.size(), filler_prim(a.elem.prim).bits);
    return make_prim_array(a.elem.prim, a.shape, std::move(data));
  }

  PrimValue filler_prim(PrimType t) const {
    if (filler_ == 0) return PrimValue::from_int(t, 0);
    if (t == PrimType::Bool) return PrimValue::boolean(true);
    if (is_float(t)) return PrimValue::floating(t, -7.25);
    return PrimValue::unsigned_int(t, 0x5a5a5a5a5a5a5a5aULL);
  }

  Value map_isolated(const Callable &f, const std::vector<const Value *> &xs, const Expr *apply,
                     const Span &span) {
    int64_t n = xs[0]->length();
    std::vector<std::optional<Value>> rows(static_cast<size_t>(n));
    std::vector<Value> argv(xs.size());
    const Value *model = nullptr;
    bool any_failed = false;
    size_t seen_before = seen_->size();
    for (int64_t i = 0; i < n; i++) {
      for (size_t k = 0; k < xs.size(); k++) argv[k] = row(*xs[k], i);
      rows[size_t(i)] = call_isolated(f, argv.data(), argv.size(), span);
      if (rows[size_t(i)] && !model) model = &*rows[size_t(i)];
      any_failed = any_failed || !rows[size_t(i)];
    }
    // Every element failed: rows of primitives (or tuples of them) take their shape from
    // the type, as if some element had succeeded (a device runs on, to later failures,
    // whether one element succeeded or none; found by kerb difftest, seed 5260). With
    // array rows there is no shape to copy, and the map as a whole fails.
    // So do rows of arrays when every failure is in dead code (their sizes from the
    // type, 0 where it does not say): compiled code never computes the map.
    bool dead = in_dead_code_ && std::all_of(seen_->begin() + std::ptrdiff_t(seen_before), seen_->end(), in_dead_code_);
    Value typed_model;
    if (any_failed && !model && apply && apply->type.is_array() &&
        ((apply->type.rank() == 1 && !has_array_parts(apply->type.element())) || dead)) {
      typed_model = zero_row(empty_of(apply->type));
      model = &typed_model;
    }
    if (any_failed && !model) throw Failed{*first_failure_};
    // The filler is made before the rows move into `out`: `model` may be one of them
    // (a failing element after it was filled from a moved-from row, and "failed" with a
    // shape difference; pbbs/ray's triangles, docs/REAL-PROGRAMS.md).
    Value fill = any_failed ? filler_like(*model) : Value();
    RowBuilder out(n);
    for (std::optional<Value> &r : rows) out.push(r ? std::move(*r) : fill);
    return out.finish([&] { return empty_result(apply, f, xs); }, span, map_shape_message);
  }

  Value reduce_array(const Callable &op, Value acc, const Value &xs, const Span &span) {
    int64_t n = xs.length();
    if (is_plain_prim_op(op) && is_prim_vector(xs) && acc.kind == Value::Prim) {
      PrimValue p = acc.prim;
      PrimType t = xs.array->elem.prim;
      for (const Bits &b : xs.array->data) p = apply_plain_prim_op(op, p, PrimValue{t, b});
      return Value(p);
    }
    for (int64_t i = 0; i < n; i++) acc = call2(op, std::move(acc), row(xs, i), span);
    return acc;
  }

  Value scan_array(const Callable &op, Value acc, const Value &xs, const Span &span) {
    int64_t n = xs.length();
    if (is_plain_prim_op(op) && is_prim_vector(xs) && acc.kind == Value::Prim) {
      PrimValue p = acc.prim;
      PrimType t = xs.array->elem.prim;
      std::vector<Bits> out;
      out.reserve(size_t(n));
      for (const Bits &b : xs.array->data) {
        p = apply_plain_prim_op(op, p, PrimValue{t, b});
        out.push_back(p.bits);
      }
      return make_prim_array(p.type, {n}, std::move(out));
    }
    if (n == 0) return replicate_value(0, acc); // rows shaped like the neutral element
    RowBuilder out(n);
    for (int64_t i = 0; i < n; i++) {
      acc = call2(op, std::move(acc), row(xs, i), span);
      out.push(acc);
    }
    return out.finish([&] { return replicate_value(0, acc); }, span);
  }

  std::vector<int64_t> filter_rows(const Callable &p, const Value &xs, const Span &span,
                                   std::vector<int64_t> *rejected) {
    std::vector<int64_t> kept;
    int64_t n = xs.length();
    for (int64_t i = 0; i < n; i++) {
      bool keep;
      if (seen_) {
        Value x = row(xs, i);
        std::optional<Value> r = call_isolated(p, &x, 1, span);
        keep = r ? r->prim.as_bool() : filler_ != 0;
      } else {
        keep = call1(p, row(xs, i), span).prim.as_bool();
      }
      if (keep) kept.push_back(i);
      else if (rejected) rejected->push_back(i);
    }
    return kept;
  }

  static bool in_range(int64_t i, int64_t n) { return i >= 0 && i < n; }

  static void write_row(Value &dest, int64_t i, const Value &v) {
    if (is_prim_vector(dest) && v.kind == Value::Prim) {
      make_unique_array(dest).data[size_t(i)] = v.prim.bits;
      return;
    }
    DimSel sel;
    sel.is_index = true;
    sel.start = i;
    write_selection(dest, {sel}, v);
  }

  // The shapes of an array's rows, one per tuple component (an array of tuples keeps
  // each component as an array of its own).
  static void row_shapes(const Value &a, std::vector<std::vector<int64_t>> &out) {
    if (a.array->elem.kind == ValueType::Tuple && !a.array->components.empty()) {
      for (const Value &c : a.array->components) row_shapes(c, out);
      return;
    }
    out.emplace_back(a.shape().begin() + 1, a.shape().end());
  }

  Value scatter(Value dest, const Value &is, const Value &vs, const Span &span) {
    if (is.length() != vs.length())
      fail_size_mismatch(span, "scatter", {{is.length()}, {vs.length()}});
    // Each value must have the shape of the destination's rows, whether or not it is
    // written (as the code generator checks: lower_to_core's scatter).
    std::vector<std::vector<int64_t>> drows, vrows;
    row_shapes(dest, drows);
    row_shapes(vs, vrows);
    if (drows != vrows)
      fail_text(FailureKind::Size, span, "Shape of slice does not match shape of value.");
    int64_t n = dest.length();
    for (int64_t j = 0; j < is.length(); j++) {
      int64_t i = prim_at(is, j).as_i64();
      if (in_range(i, n)) write_row(dest, i, row(vs, j));
    }
    return dest;
  }

  Value reduce_by_index(Value dest, const Callable &op, const Value &is, const Value &vs,
                        const Span &span, const char *name) {
    if (is.length() != vs.length())
      fail_size_mismatch(span, name, {{is.length()}, {vs.length()}});
    int64_t n = dest.length();
    bool plain = is_plain_prim_op(op) && is_prim_vector(dest) && is_prim_vector(vs);
    for (int64_t j = 0; j < is.length(); j++) {
      int64_t i = prim_at(is, j).as_i64();
      if (!in_range(i, n)) continue;
      if (plain) {
        ArrayData &d = make_unique_array(dest);
        PrimType t = d.elem.prim;
        d.data[size_t(i)] =
            apply_plain_prim_op(op, PrimValue{t, d.data[size_t(i)]}, prim_at(vs, j)).bits;
        continue;
      }
      Value combined = call2(op, row(dest, i), row(vs, j), span);
      write_row(dest, i, combined);
    }
    return dest;
  }

  // iota and replicate of a negative size fail as Futhark's prelude does.
  // (Futhark's prelude defines them with the range 0..1..<n.)
  static void check_count(int64_t n, const Span &span) {
    if (n >= 0) return;
    fail(FailureKind::Range, span, "Range {}..{}..<{} is invalid.", {0, 1, n});
  }

  Value iota(const PrimValue &n, const Span &span) {
    int64_t count = n.as_i64();
    check_count(count, span);
    std::vector<Bits> data(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; i++) data[size_t(i)] = PrimValue::signed_int(n.type, i).bits;
    return make_prim_array(n.type, {count}, std::move(data));
  }

  Value checked_slice(const Value &xs, RawPart part, const Span &span) {
    std::vector<RawPart> parts{part};
    return gather(xs, resolve_selection(xs.shape(), parts, span));
  }

  Value checked_row(const Value &xs, int64_t i, const Span &span) {
    std::vector<RawPart> parts{index_part(i)};
    return gather(xs, resolve_selection(xs.shape(), parts, span));
  }

  // The sizes [a op b] of an argument's outer dimension, as unflatten and split take
  // them from their argument's type.
  std::optional<std::pair<int64_t, int64_t>> split_dim(const Expr *apply, char op) {
    if (!apply || apply->args.empty()) return std::nullopt;
    const Type &t = apply->args.back()->type;
    if (!t.is_array() || t.dims[0].kind != Dim::Var) return std::nullopt;
    auto parts = split_size_text(t.dims[0].name, op);
    if (!parts) return std::nullopt;
    std::optional<int64_t> a = size_of_text(parts->first), b = size_of_text(parts->second);
    if (!a || !b) return std::nullopt;
    return std::make_pair(*a, *b);
  }

  // The sizes of the two outer dims of a result type, where known.
  std::optional<std::pair<int64_t, int64_t>> result_dims(const Expr *apply) {
    if (!apply) return std::nullopt;
    const Type &t = apply->type;
    if (t.is_array() && t.dims.size() >= 2) {
      std::optional<int64_t> a = resolve_dim(t.dims[0]), b = resolve_dim(t.dims[1]);
      if (a && b) return std::make_pair(*a, *b);
    }
    if (t.is_tuple() && t.elems.size() == 2 && t.elems[0].is_array() && t.elems[1].is_array()) {
      std::optional<int64_t> a = resolve_dim(t.elems[0].dims[0]), b = resolve_dim(t.elems[1].dims[0]);
      if (a && b) return std::make_pair(*a, *b);
    }
    return std::nullopt;
  }

  Value unflatten(int64_t n, int64_t m, const Value &xs, const Span &span) {
    int64_t len = xs.length();
    if (n < 0 || m < 0 || wmul(n, m) != len)
      fail(FailureKind::Size, span,
           "Cannot unflatten array of shape [{}] to array of shape [{}][{}]", {len, n, m});
    return reshape_outer(xs, 1, {n, m});
  }

  Value eval_builtin(ArrayBuiltin b, std::vector<Arg> &a, const Expr *apply, const Span &span) {
    KERB_ASSERT(a.size() >= builtin_arity(b), std::string("built-in '") + array_builtin_name(b) +
                                                  "' applied to too few arguments");
    auto val = [&](size_t i) -> const Value & {
      KERB_ASSERT(i < a.size() && !a[i].fn, "built-in argument is missing or not a value");
      return a[i].value;
    };
    auto fn = [&](size_t i) -> const Callable & {
      KERB_ASSERT(i < a.size() && a[i].fn, "built-in argument is missing or not a function");
      return *a[i].fn;
    };
    auto values_from = [&](size_t first) {
      std::vector<const Value *> out;
      for (size_t i = first; i < a.size(); i++) out.push_back(&val(i));
      return out;
    };
    switch (b) {
    case ArrayBuiltin::Map:
    case ArrayBuiltin::Map1:
    case ArrayBuiltin::Map2:
    case ArrayBuiltin::Map3:
    case ArrayBuiltin::Map4:
    case ArrayBuiltin::Map5:
      return map_arrays(fn(0), values_from(1), apply, span, array_builtin_name(b));
    case ArrayBuiltin::Reduce:
    case ArrayBuiltin::ReduceComm:
      return reduce_array(fn(0), val(1), val(2), span);
    case ArrayBuiltin::Scan:
      return scan_array(fn(0), val(1), val(2), span);
    case ArrayBuiltin::Filter:
      return take_rows(val(1), filter_rows(fn(0), val(1), span, nullptr));
    case ArrayBuiltin::Partition: {
      std::vector<int64_t> rejected;
      std::vector<int64_t> kept = filter_rows(fn(0), val(1), span, &rejected);
      return Value::tuple({take_rows(val(1), kept), take_rows(val(1), rejected)});
    }
    case ArrayBuiltin::Scatter:
      return scatter(std::move(a[0].value), val(1), val(2), span);
    case ArrayBuiltin::ReduceByIndex:
      return reduce_by_index(std::move(a[0].value), fn(1), val(3), val(4), span,
                             "reduce_by_index");
    case ArrayBuiltin::Hist: {
      int64_t k = val(2).prim.as_i64();
      check_count(k, span);
      return reduce_by_index(replicate_value(k, val(1)), fn(0), val(3), val(4), span, "hist");
    }
    case ArrayBuiltin::Iota:
      return iota(val(0).prim, span);
    case ArrayBuiltin::Replicate: {
      int64_t n = val(0).prim.as_i64();
      check_count(n, span);
      return replicate_value(n, val(1));
    }
    case ArrayBuiltin::Tabulate: {
      Value is = iota(val(0).prim, span);
      return map_arrays(fn(1), {&is}, apply, span, "tabulate");
    }
    case ArrayBuiltin::Zip:
    case ArrayBuiltin::Zip2:
    case ArrayBuiltin::Zip3:
    case ArrayBuiltin::Zip4:
    case ArrayBuiltin::Zip5: {
      int64_t n = val(0).length();
      std::vector<Value> comps;
      for (size_t i = 0; i < a.size(); i++) {
        if (val(i).length() != n) {
          std::vector<std::vector<int64_t>> shapes;
          for (size_t k = 0; k < a.size(); k++) shapes.push_back({val(k).length()});
          fail_size_mismatch(span, array_builtin_name(b), shapes);
        }
        comps.push_back(val(i));
      }
      return make_tuple_array({n}, std::move(comps));
    }
    case ArrayBuiltin::Unzip:
    case ArrayBuiltin::Unzip2:
    case ArrayBuiltin::Unzip3:
    case ArrayBuiltin::Unzip4:
    case ArrayBuiltin::Unzip5: {
      const Value &xs = val(0);
      KERB_ASSERT(xs.array->elem.kind == ValueType::Tuple, "unzip of an array of non-tuples");
      return Value::tuple(xs.array->components);
    }
    case ArrayBuiltin::Length:
      return i64_value(val(0).length());
    case ArrayBuiltin::Flatten: {
      const Value &xs = val(0);
      const std::vector<int64_t> &s = xs.shape();
      KERB_ASSERT(s.size() >= 2, "flatten of an array of rank < 2");
      return reshape_outer(xs, 2, {wmul(s[0], s[1])});
    }
    case ArrayBuiltin::Unflatten: {
      if (a.size() == 3) return unflatten(val(0).prim.as_i64(), val(1).prim.as_i64(), val(2), span);
      std::optional<std::pair<int64_t, int64_t>> dims = split_dim(apply, '*');
      if (!dims) dims = result_dims(apply);
      if (!dims)
        fail_text(FailureKind::Size, span, "unflatten: the sizes of the result are not known");
      return unflatten(dims->first, dims->second, val(0), span);
    }
    case ArrayBuiltin::Unflatten3d: case ArrayBuiltin::Unflatten4d:
      KERB_ASSERT(false, "unflatten_3d and unflatten_4d are expanded by finish_first_order");
      return Value();
    case ArrayBuiltin::Transpose:
      return transpose_outer(val(0));
    case ArrayBuiltin::Concat:
      return concat_checked(val(0), val(1), span);
    case ArrayBuiltin::Reverse: {
      int64_t n = val(0).length();
      std::vector<int64_t> rows(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; i++) rows[size_t(i)] = n - 1 - i;
      return take_rows(val(0), rows);
    }
    case ArrayBuiltin::Rotate: {
      int64_t r = val(0).prim.as_i64();
      const Value &xs = val(1);
      int64_t n = xs.length();
      if (n == 0) return xs;
      int64_t shift = r % n;
      if (shift < 0) shift += n;
      std::vector<int64_t> rows(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; i++) rows[size_t(i)] = (i + shift) % n;
      return take_rows(xs, rows);
    }
    case ArrayBuiltin::Take:
      return checked_slice(val(1), slice_part(0, val(0).prim.as_i64()), span);
    case ArrayBuiltin::Drop:
      return checked_slice(val(1), slice_part(val(0).prim.as_i64(), std::nullopt), span);
    case ArrayBuiltin::Split: {
      if (a.size() == 2) {
        int64_t i = val(0).prim.as_i64();
        Value first = checked_slice(val(1), slice_part(0, i), span);
        return Value::tuple({first, checked_slice(val(1), slice_part(i, std::nullopt), span)});
      }
      std::optional<std::pair<int64_t, int64_t>> dims = split_dim(apply, '+');
      if (!dims) dims = result_dims(apply);
      if (!dims) fail_text(FailureKind::Size, span, "split: the sizes of the result are not known");
      int64_t n = dims->first, m = dims->second;
      Value first = checked_slice(val(0), slice_part(0, n), span);
      return Value::tuple({first, checked_slice(val(0), slice_part(n, wadd(n, m)), span)});
    }
    case ArrayBuiltin::Head:
      return checked_row(val(0), 0, span);
    case ArrayBuiltin::Last:
      return checked_row(val(0), wsub(val(0).length(), 1), span);
    case ArrayBuiltin::Tail:
      return checked_slice(val(0), slice_part(1, std::nullopt), span);
    case ArrayBuiltin::Init:
      return checked_slice(val(0), slice_part(0, wsub(val(0).length(), 1)), span);
    case ArrayBuiltin::Copy:
    case ArrayBuiltin::Opaque:
      return std::move(a[0].value);
    case ArrayBuiltin::All:
    case ArrayBuiltin::Any: {
      bool want_all = b == ArrayBuiltin::All;
      bool result = want_all;
      const Value &xs = val(1);
      for (int64_t i = 0; i < xs.length(); i++) {
        bool v = call1(fn(0), row(xs, i), span).prim.as_bool();
        result = want_all ? (result && v) : (result || v);
      }
      return Value(PrimValue::boolean(result));
    }
    case ArrayBuiltin::Sum:
    case ArrayBuiltin::Product:
    case ArrayBuiltin::Maximum:
    case ArrayBuiltin::Minimum: {
      PrimFn f = b == ArrayBuiltin::Sum       ? PrimFn::Sum
                 : b == ArrayBuiltin::Product ? PrimFn::Product
                 : b == ArrayBuiltin::Maximum ? PrimFn::Maximum
                                              : PrimFn::Minimum;
      return reduce_prims(f, val(0).array->elem.prim, val(0), span);
    }
    case ArrayBuiltin::Foldl: {
      Value acc = val(1);
      const Value &xs = val(2);
      for (int64_t i = 0; i < xs.length(); i++) acc = call2(fn(0), std::move(acc), row(xs, i), span);
      return acc;
    }
    case ArrayBuiltin::Foldr: {
      Value acc = val(1);
      const Value &xs = val(2);
      for (int64_t i = xs.length(); i-- > 0;) acc = call2(fn(0), row(xs, i), std::move(acc), span);
      return acc;
    }
    }
    KERB_ASSERT(false, "unknown built-in");
    return {};
  }

  std::vector<Slot> env_;
  size_t frame_base_ = 0;
  std::unordered_set<const Expr *> steal_ok_;
  std::unordered_map<const FunDef *, Value> constants_;
  // possible_failures(): where failures of isolated elements go, the filler variant,
  // and the first failure recorded (rethrown when a map has no element left).
  std::vector<RunFailure> *seen_ = nullptr;
  int filler_ = 0;
  std::function<bool(const RunFailure &)> in_dead_code_;
  std::optional<RunFailure> first_failure_;
  const Program &program_;
  CheckOptions checks_;
  int unsafe_depth_ = 0; // > 0 inside #[unsafe]
};

std::string param_name(const Pattern &p, size_t index) {
  if (p.kind == Pattern::Id) return "'" + p.name + "'";
  return fmt::format("number {}", index + 1);
}

} // namespace

namespace {

// Throws std::invalid_argument unless `args` fit entry point `entry`.
void check_entry_call(const Program &program, const std::string &entry,
                      const std::vector<Value> &args) {
  const FunDef *f = program.find(entry);
  if (!f) throw std::invalid_argument("no entry point '" + entry + "'");
  if (args.size() != f->params.size())
    throw std::invalid_argument(fmt::format("entry point '{}' takes {} argument(s), {} given",
                                            entry, f->params.size(), args.size()));
  for (size_t i = 0; i < args.size(); i++) {
    ValueType want = f->params[i].type.value_type();
    ValueType have = args[i].type();
    if (have != want)
      throw std::invalid_argument(fmt::format("parameter {} of entry point '{}' has type {}, "
                                              "but the argument is of type {}",
                                              param_name(f->params[i], i), entry, want.str(),
                                              have.str()));
  }
}

} // namespace

RunResult interpret(const Program &program, const std::string &entry,
                    const std::vector<Value> &args, const CheckOptions &checks) {
  check_entry_call(program, entry, args);
  const FunDef *f = program.find(entry);
  Interpreter interp(program, checks);
  RunResult result;
  try {
    Value v = interp.run_entry(*f, args);
    result.ok = true;
    if (v.kind == Value::Tuple) result.results = std::move(v.elems);
    else result.results.push_back(std::move(v));
  } catch (Failed &failed) {
    result.ok = false;
    result.failure = std::move(failed.failure);
  }
  return result;
}

std::vector<RunFailure> possible_failures(const Program &program, const std::string &entry,
                                         const std::vector<Value> &args, const CheckOptions &checks,
                                         const std::function<bool(const RunFailure &)> &in_dead_code) {
  check_entry_call(program, entry, args);
  const FunDef *f = program.find(entry);
  std::vector<RunFailure> runs[2];
  for (int filler = 0; filler < 2; filler++) {
    Interpreter interp(program, checks);
    interp.enumerate_failures(&runs[filler], filler, in_dead_code);
    try {
      interp.run_entry(*f, args);
    } catch (Failed &failed) {
      runs[filler].push_back(std::move(failed.failure));
    }
  }
  auto same = [](const RunFailure &a, const RunFailure &b) {
    return a.kind == b.kind && a.message == b.message && a.location == b.location;
  };
  std::vector<RunFailure> out;
  for (const RunFailure &a : runs[0]) {
    bool in_both = std::any_of(runs[1].begin(), runs[1].end(), [&](const RunFailure &b) { return same(a, b); });
    bool known = std::any_of(out.begin(), out.end(), [&](const RunFailure &b) { return same(a, b); });
    if (in_both && !known) out.push_back(a);
  }
  return out;
}

} // namespace kerb
