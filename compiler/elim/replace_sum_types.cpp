// Replacing sum types and `match` (replace_sum_types.h). Runs after records are tuples.
//
// Note [Sum types as tuples]
// `#a i32 f32 | #b | #c bool` is (u8, i32, f32, bool): the tag (0 for #a, 1 for #b, 2
// for #c: constructors in name order) and one slot per payload component, constructor
// after constructor. `#c true` is (2u8, 0, 0.0, true). A type with no payload at all is
// its tag alone. Slots are not shared between constructors (Futhark shares slots of the
// same type; this is simpler and costs memory only).
//
// `match e case p1 -> b1 case p2 -> b2 ... case pn -> bn` becomes
//   let s = e in if <p1 matches s> then (let p1' = s in b1) else if ... else (let pn' = s in bn)
// where <p matches s> tests the tags and literals p requires (true for a name or `_`),
// and p' is p over the tuple: a constructor pattern becomes a tuple pattern with its
// sub-patterns in their slots and `_` elsewhere, a literal becomes `_`. The last case
// needs no test: the source checker proved the cases exhaustive.
#include "compiler/elim/replace_sum_types.h"

#include "compiler/elim/build.h"

#include <functional>

namespace kerb {

namespace {

PrimType tag_type(size_t constructors) { return constructors <= 256 ? PrimType::U8 : PrimType::I32; }

// The first slot of constructor `c` (after the tag).
size_t first_slot(const Type &sum, size_t c) {
  size_t slot = 1;
  for (size_t i = 0; i < c; i++) slot += sum.payloads[i].size();
  return slot;
}

size_t slot_count(const Type &sum) { return first_slot(sum, sum.names.size()); }

} // namespace

Type sum_as_tuple(const Type &t) {
  Type out = t;
  for (Type &e : out.elems) e = sum_as_tuple(e);
  for (auto &p : out.payloads)
    for (Type &e : p) e = sum_as_tuple(e);
  if (out.kind == Type::Array && out.elems[0].kind == Type::Array) {
    // An array of records of one array field is an array of arrays: one array type.
    bool unique = out.unique;
    out = Type::array(out.elems[0], out.dims);
    out.unique = unique;
  }
  if (out.kind == Type::Sum) {
    std::vector<Type> elems{Type::prim_type(tag_type(out.names.size()))};
    for (const auto &p : out.payloads)
      for (const Type &e : p) elems.push_back(e);
    bool unique = out.unique;
    out = elems.size() == 1 ? elems[0] : Type::tuple(std::move(elems));
    out.unique = unique;
  }
  return out;
}

namespace {

class SumReplacer {
public:
  explicit SumReplacer(NameSource &names) : names_(names) {}

  void fundef(FunDef &f) {
    for (Pattern &p : f.params) p = pattern(p);
    if (f.ret_annotation) *f.ret_annotation = sum_as_tuple(*f.ret_annotation);
    f.ret_type = sum_as_tuple(f.ret_type);
    expr(f.body);
  }

private:
  NameSource &names_;

  // The pattern over the tuple representation.
  Pattern pattern(const Pattern &p) {
    Pattern out = p;
    out.type = sum_as_tuple(p.type);
    if (p.annotation) out.annotation = sum_as_tuple(*p.annotation);
    out.elems.clear();
    switch (p.kind) {
    case Pattern::Literal:
      out = wildcard_pattern(p.span);
      out.type = sum_as_tuple(p.type);
      return out;
    case Pattern::Constr: {
      const Type &sum = p.type;
      int c = sum.field_index(p.name);
      KERB_ASSERT(c >= 0, "replace_sum_types: a constructor the type does not have");
      size_t n = slot_count(sum);
      size_t first = first_slot(sum, size_t(c));
      if (n == 1) { // the tag alone
        Pattern w = wildcard_pattern(p.span);
        w.type = out.type;
        w.annotation = out.annotation;
        return w;
      }
      out.kind = Pattern::Tuple;
      out.name.clear();
      for (size_t i = 0; i < n; i++) {
        if (i >= first && i < first + p.elems.size()) {
          out.elems.push_back(pattern(p.elems[i - first]));
        } else {
          Pattern w = wildcard_pattern(p.span);
          out.elems.push_back(w);
        }
      }
      return out;
    }
    default:
      for (const Pattern &e : p.elems) out.elems.push_back(pattern(e));
      return out;
    }
  }

  // Whether value `x` (of the pattern's type, before conversion) matches `p`.
  ExprPtr matches(const Pattern &p, const std::function<ExprPtr()> &x, const Span &span) {
    switch (p.kind) {
    case Pattern::Id: case Pattern::Wildcard: case Pattern::Record: return nullptr;
    case Pattern::Literal: {
      ExprPtr lit = clone_expr(*p.literal);
      return bool_binary(BinOp::Eq, x(), std::move(lit), span);
    }
    case Pattern::Tuple: {
      ExprPtr all;
      for (size_t i = 0; i < p.elems.size(); i++) {
        ExprPtr c = matches(p.elems[i], [&] { return project_expr(x(), int(i), span); }, span);
        all = conj(std::move(all), std::move(c), span);
      }
      return all;
    }
    case Pattern::Constr: {
      const Type &sum = p.type;
      int c = sum.field_index(p.name);
      size_t n = slot_count(sum);
      size_t first = first_slot(sum, size_t(c));
      auto slot = [&](size_t i) { return n == 1 ? x() : project_expr(x(), int(i), span); };
      ExprPtr all;
      if (sum.names.size() > 1)
        all = bool_binary(BinOp::Eq, slot(0), prim_literal(tag_type(sum.names.size()), c, span), span);
      for (size_t i = 0; i < p.elems.size(); i++) {
        ExprPtr sub = matches(p.elems[i], [&] { return slot(first + i); }, span);
        all = conj(std::move(all), std::move(sub), span);
      }
      return all;
    }
    }
    return nullptr;
  }

  static ExprPtr conj(ExprPtr a, ExprPtr b, const Span &span) {
    if (!a) return b;
    if (!b) return a;
    return bool_binary(BinOp::LogAnd, std::move(a), std::move(b), span);
  }

  void expr(ExprPtr &ep) {
    Expr &e = *ep;
    Type original = e.type;
    for_each_child(e, [&](ExprPtr &x) { expr(x); });
    if (e.kind != ExprKind::Match) {
      e.pattern = pattern(e.pattern);
      e.pattern2 = pattern(e.pattern2);
      for (Pattern &p : e.params) p = pattern(p);
    }
    if (e.annotation) *e.annotation = sum_as_tuple(*e.annotation);
    e.type = sum_as_tuple(e.type);
    if (e.kind == ExprKind::Constr) {
      ep = construct(e, original);
      return;
    }
    if (e.kind == ExprKind::Match) ep = match(e);
  }

  ExprPtr construct(Expr &e, const Type &sum) {
    int c = sum.field_index(e.name);
    KERB_ASSERT(c >= 0, "replace_sum_types: a constructor the type does not have");
    std::vector<ExprPtr> elems;
    elems.push_back(prim_literal(tag_type(sum.names.size()), c, e.span));
    for (size_t k = 0; k < sum.names.size(); k++)
      for (size_t i = 0; i < sum.payloads[k].size(); i++) {
        if (int(k) == c) elems.push_back(std::move(e.args[i]));
        else elems.push_back(zero_value(sum_as_tuple(sum.payloads[k][i]), e.span));
      }
    ExprPtr t = tuple_expr(std::move(elems), e.span);
    t->type = e.type;
    return t;
  }

  ExprPtr match(Expr &e) {
    std::string s = names_.fresh("scrutinee");
    Type st = e.args[0]->type; // converted
    ExprPtr result;
    for (size_t i = e.params.size(); i-- > 0;) {
      const Pattern &p = e.params[i];
      ExprPtr body = std::move(e.args[i + 1]);
      ExprPtr bound = make_expr(ExprKind::Let, body->span);
      bound->pattern = pattern(p);
      bound->type = e.type;
      bound->args.push_back(var_expr(s, p.span, st));
      bound->args.push_back(std::move(body));
      ExprPtr test = i + 1 < e.params.size()
                         ? matches(p, [&] { return var_expr(s, p.span, st); }, p.span)
                         : nullptr;
      if (!test) {
        result = std::move(bound);
        continue;
      }
      ExprPtr iff = make_expr(ExprKind::If, e.span);
      iff->type = e.type;
      iff->args.push_back(std::move(test));
      iff->args.push_back(std::move(bound));
      iff->args.push_back(std::move(result));
      result = std::move(iff);
    }
    Lets lets;
    lets.push_back({s, std::move(e.args[0])});
    return wrap_lets(std::move(lets), std::move(result));
  }
};

} // namespace

void replace_sum_types(Program &program, NameSource &names) {
  for (auto &d : program.defs) SumReplacer(names).fundef(*d);
}

} // namespace kerb
