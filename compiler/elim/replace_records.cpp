// Replacing records by tuples (replace_records.h). Runs after defunctionalisation, on a
// first-order program; everything is rewritten in place.
//
// `r with a.b = v` becomes `let t = r in (t.0, ..., <t.i with b = v>, ...)`, the field
// on the path rebuilt the same way. A single-field record's tuple is the field itself,
// so its projection disappears and its update is the new value.
#include "compiler/elim/replace_records.h"

#include "compiler/elim/build.h"

namespace kerb {

Type record_as_tuple(const Type &t) {
  Type out = t;
  for (Type &e : out.elems) e = record_as_tuple(e);
  for (auto &p : out.payloads)
    for (Type &e : p) e = record_as_tuple(e);
  if (out.kind == Type::Array && out.elems[0].kind == Type::Array) {
    // An array of records of one array field is an array of arrays: one array type.
    bool unique = out.unique;
    out = Type::array(out.elems[0], out.dims);
    out.unique = unique;
  }
  if (out.kind == Type::Record) {
    bool unique = out.unique;
    std::vector<Type> elems = std::move(out.elems);
    out = elems.size() == 1 ? elems[0] : Type::tuple(std::move(elems));
    out.unique = out.unique || unique;
  }
  return out;
}

namespace {

class RecordReplacer {
public:
  explicit RecordReplacer(NameSource &names) : names_(names) {}

  void fundef(FunDef &f) {
    for (Pattern &p : f.params) pattern(p);
    if (f.ret_annotation) *f.ret_annotation = record_as_tuple(*f.ret_annotation);
    f.ret_type = record_as_tuple(f.ret_type);
    expr(f.body);
  }

private:
  NameSource &names_;

  void pattern(Pattern &p) {
    Type record = p.type; // before conversion: the field order
    p.type = record_as_tuple(p.type);
    if (p.annotation) *p.annotation = record_as_tuple(*p.annotation);
    for (Pattern &e : p.elems) pattern(e);
    if (p.kind != Pattern::Record) return;
    std::vector<Pattern> elems(record.names.size());
    for (size_t i = 0; i < record.names.size(); i++) {
      elems[i] = wildcard_pattern(p.span);
      for (size_t k = 0; k < p.fields.size(); k++)
        if (p.fields[k] == record.names[i]) elems[i] = p.elems[k];
    }
    p.fields.clear();
    if (elems.size() == 1) {
      Pattern only = elems[0];
      if (p.annotation && !only.annotation) only.annotation = p.annotation;
      p = only;
      return;
    }
    p.kind = Pattern::Tuple;
    p.elems = std::move(elems);
  }

  void expr(ExprPtr &ep) {
    Expr &e = *ep;
    for_each_child(e, [&](ExprPtr &x) { expr(x); });
    pattern(e.pattern);
    pattern(e.pattern2);
    for (Pattern &p : e.params) pattern(p);
    if (e.annotation) *e.annotation = record_as_tuple(*e.annotation);
    Type record = e.type;
    e.type = record_as_tuple(e.type);
    switch (e.kind) {
    case ExprKind::Record: {
      // Fields in name order (the type's).
      std::vector<ExprPtr> elems(record.names.size());
      for (size_t i = 0; i < record.names.size(); i++)
        for (size_t k = 0; k < e.fields.size(); k++)
          if (e.fields[k] == record.names[i]) elems[i] = std::move(e.args[k]);
      ExprPtr t = tuple_expr(std::move(elems), e.span);
      t->type = e.type;
      ep = std::move(t);
      return;
    }
    case ExprKind::Field: {
      Type of = e.args[0]->type; // already a tuple; the record's field order from before
      int i = field_position(e, *e.args[0]);
      ExprPtr inner = std::move(e.args[0]);
      if (i < 0) { // a single field
        ep = std::move(inner);
        return;
      }
      ExprPtr p = project_expr(std::move(inner), i, e.span);
      p->type = e.type;
      (void)of;
      ep = std::move(p);
      return;
    }
    case ExprKind::RecordUpdate: {
      ExprPtr rec = std::move(e.args[0]);
      ExprPtr value = std::move(e.args[1]);
      ep = update(std::move(rec), record_types_.at(&e), e.fields, 0, std::move(value), e.span);
      return;
    }
    default: return;
    }
  }

  // Field positions are fixed before the children's types are converted (see run()).
  int field_position(const Expr &e, const Expr &) { return positions_.at(&e); }

  // `rec with path[k..] = value` for a record of type `t` (as it was before).
  ExprPtr update(ExprPtr rec, const Type &t, const std::vector<std::string> &path, size_t k,
                 ExprPtr value, const Span &span) {
    if (k == path.size()) return value;
    // A record's field by name, or a tuple's component by number (`t with 0 = x`).
    int i = t.kind == Type::Tuple ? std::stoi(path[k]) : t.field_index(path[k]);
    KERB_ASSERT(i >= 0 && size_t(i) < t.elems.size(),
                "replace_records: an update of a field the record does not have");
    const Type &field_t = t.elems[size_t(i)];
    if (t.elems.size() == 1)
      return update(std::move(rec), field_t, path, k + 1, std::move(value), span);
    std::string tmp = names_.fresh("record");
    Type as_tuple = record_as_tuple(t);
    std::vector<ExprPtr> elems;
    for (size_t j = 0; j < t.elems.size(); j++) {
      ExprPtr part = project_expr(var_expr(tmp, span, as_tuple), int(j), span);
      if (int(j) == i) part = update(std::move(part), field_t, path, k + 1, std::move(value), span);
      elems.push_back(std::move(part));
    }
    ExprPtr tuple = tuple_expr(std::move(elems), span);
    tuple->type = as_tuple;
    Lets lets;
    lets.push_back({tmp, std::move(rec)});
    return wrap_lets(std::move(lets), std::move(tuple));
  }

public:
  // Records the positions of field accesses and the record types of updates, before
  // any type is converted.
  void note_positions(const Expr &e) {
    if (e.kind == ExprKind::Field) {
      const Type &t = e.args[0]->type;
      if (t.kind == Type::Record) positions_[&e] = t.names.size() == 1 ? -1 : t.field_index(e.name);
      else positions_[&e] = e.field;
    }
    if (e.kind == ExprKind::RecordUpdate) record_types_[&e] = e.args[0]->type;
    for (const ExprPtr &a : e.args)
      if (a) note_positions(*a);
    for (const IndexPart &p : e.indices)
      for (const ExprPtr *x : {&p.index, &p.start, &p.end, &p.stride})
        if (*x) note_positions(**x);
  }

private:
  std::map<const Expr *, int> positions_;
  std::map<const Expr *, Type> record_types_;
};

} // namespace

void replace_records(Program &program, NameSource &names) {
  for (auto &d : program.defs) {
    RecordReplacer r(names);
    r.note_positions(*d->body);
    r.fundef(*d);
  }
}

} // namespace kerb
