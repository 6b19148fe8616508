// The core IR's small helpers (types, variables) and its printer, `--emit=ir`: a
// readable, stable listing with one statement per line and nested bodies indented.
#include "compiler/core_ir.h"

#include "runtime/value_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace kerb::core {

std::string CType::str() const {
  std::string out;
  for (int i = 0; i < rank; i++) out += "[]";
  return out + prim_name(prim);
}

int Program::new_var(std::string name, CType type, std::vector<SubExp> shape) {
  int id = int(vars.size());
  if (name.empty()) name = "v";
  vars.push_back(VarInfo{name + "_" + std::to_string(id), type, std::move(shape)});
  return id;
}

CType Program::type_of(const SubExp &s) const {
  if (s.is_var()) return var(s.var).type;
  return CType{s.constant.type, 0};
}

namespace {

class Printer {
public:
  explicit Printer(const Program &p) : p_(p) {}

  std::string function(const Function &f) {
    out_ += "entry " + f.name + " (";
    for (size_t i = 0; i < f.params.size(); i++)
      out_ += (i ? ", " : "") + typed(f.params[i]);
    out_ += ") -> (";
    for (size_t i = 0; i < f.result_types.size(); i++)
      out_ += (i ? ", " : "") + f.result_types[i].str();
    out_ += ") {\n";
    body(f.body, 1);
    out_ += "}\n";
    return out_;
  }

private:
  std::string sub(const SubExp &s) {
    if (s.is_var()) return p_.var(s.var).name;
    return format_value(Value(s.constant));
  }

  std::string subs(const std::vector<SubExp> &ss) {
    std::string out;
    for (size_t i = 0; i < ss.size(); i++) out += (i ? ", " : "") + sub(ss[i]);
    return out;
  }

  std::string vars(const std::vector<int> &vs) {
    std::string out;
    for (size_t i = 0; i < vs.size(); i++) out += (i ? ", " : "") + p_.var(vs[i]).name;
    return out;
  }

  std::string type(int v) {
    const VarInfo &info = p_.var(v);
    std::string out;
    for (const SubExp &d : info.shape) out += "[" + sub(d) + "]";
    for (size_t i = info.shape.size(); i < size_t(info.type.rank); i++) out += "[]";
    return out + prim_name(info.type.prim);
  }

  std::string typed(int v) { return p_.var(v).name + ": " + type(v); }

  void line(int depth, const std::string &text) {
    out_ += std::string(size_t(depth) * 2, ' ') + text + "\n";
  }

  void body(const Body &b, int depth) {
    for (const Stm &s : b.stms) stm(s, depth);
    line(depth, "in (" + subs(b.result) + ")");
  }

  // Opens a nested body on the current line's end and closes it with `close`.
  void nested(const Body &b, int depth, const std::string &close) {
    body(b, depth + 1);
    line(depth, close);
  }

  std::string lambda_head(const Lambda &l) {
    std::string out = "\\";
    for (size_t i = 0; i < l.params.size(); i++) out += (i ? " " : "") + p_.var(l.params[i]).name;
    return out + " -> {";
  }

  static std::string site(const Exp &e) {
    if (e.site >= 0) return fmt::format(" @site {}", e.site);
    return e.check >= 0 ? fmt::format(" ?check {}", e.check) : "";
  }

  void stm(const Stm &s, int depth) {
    std::string head = "let ";
    for (size_t i = 0; i < s.pat.size(); i++) head += (i ? ", " : "") + typed(s.pat[i]);
    head += " = ";
    const Exp &e = s.exp;
    switch (e.kind) {
    case ExpKind::SubExp: line(depth, head + sub(e.args[0])); return;
    case ExpKind::BinOp:
      line(depth, head + sub(e.args[0]) + " " + binop_text(e.binop) + " " + sub(e.args[1]) + site(e));
      return;
    case ExpKind::UnOp:
      line(depth, head + (e.unop == UnOp::Neg ? "-" : "!") + sub(e.args[0]));
      return;
    case ExpKind::Convert:
      line(depth, head + "convert " + prim_name(e.to) + " " + sub(e.args[0]));
      return;
    case ExpKind::PrimFn:
      line(depth, head + prim_name(e.prim_fn.module) + "." + prim_fn_name(e.prim_fn.fn) + "(" +
                      subs(e.args) + ")");
      return;
    case ExpKind::If:
      line(depth, head + "if " + sub(e.args[0]) + " then {");
      nested(*e.bodies[0], depth, "} else {");
      nested(*e.bodies[1], depth, "}");
      return;
    case ExpKind::Loop: {
      std::string params;
      for (size_t i = 0; i < e.loop_params.size(); i++)
        params += (i ? ", " : "") + p_.var(e.loop_params[i]).name + " = " + sub(e.args[i]);
      if (e.is_while) {
        line(depth, head + "loop (" + params + ") while {");
        nested(*e.bodies[1], depth, "} do {");
      } else {
        line(depth, head + "loop (" + params + ") for " + p_.var(e.loop_var).name + " < " +
                        sub(e.args.back()) + " do {");
      }
      nested(*e.bodies[0], depth, "}");
      return;
    }
    case ExpKind::Index:
      line(depth, head + p_.var(e.arrays[0]).name + "[" + subs(e.args) + "]" + site(e));
      return;
    case ExpKind::Update: {
      std::vector<SubExp> idx(e.args.begin(), e.args.end() - 1);
      line(depth, head + p_.var(e.arrays[0]).name + " with [" + subs(idx) + "] = " +
                      sub(e.args.back()) + site(e));
      return;
    }
    case ExpKind::UpdateSlice: {
      std::string dims;
      for (size_t d = 0; d + 2 < e.args.size(); d += 3) {
        bool index = std::find(e.index_dims.begin(), e.index_dims.end(), int(d / 3)) != e.index_dims.end();
        dims += (d ? ", " : "") + sub(e.args[d]) +
                (index ? std::string() : " +" + sub(e.args[d + 1]) + " :" + sub(e.args[d + 2]));
      }
      line(depth, head + p_.var(e.arrays[0]).name + " with [" + dims + "] = " +
                      p_.var(e.arrays[1]).name);
      return;
    }
    case ExpKind::Iota:
      line(depth, head + "iota " + prim_name(e.to) + " " + sub(e.args[0]) + site(e));
      return;
    case ExpKind::Replicate:
      line(depth, head + "replicate " + sub(e.args[0]) + " " + sub(e.args[1]) + site(e));
      return;
    case ExpKind::ArrayLit: line(depth, head + "[" + subs(e.args) + "]"); return;
    case ExpKind::Copy: line(depth, head + "copy " + p_.var(e.arrays[0]).name); return;
    case ExpKind::Map:
    case ExpKind::Reduce:
    case ExpKind::Scan: {
      const char *name = e.kind == ExpKind::Map ? "map" : e.kind == ExpKind::Reduce ? (e.comm ? "reduce_comm" : "reduce") : "scan";
      std::string args = sub(e.args[0]);
      if (e.args.size() > 1) {
        std::vector<SubExp> ne(e.args.begin() + 1, e.args.end());
        args += ", (" + subs(ne) + ")";
      }
      line(depth, head + name + " " + args + " (" + vars(e.arrays) + ") " + lambda_head(*e.lambda));
      nested(e.lambda->body, depth, "}");
      return;
    }
    case ExpKind::Assert:
      line(depth, head + "assert(" + subs(e.args) + ")" + site(e));
      return;
    case ExpKind::Slice: {
      std::string dims;
      for (size_t d = 0; d + 2 < e.args.size(); d += 3)
        dims += (d ? ", " : "") + sub(e.args[d]) + " +" + sub(e.args[d + 1]) + " :" +
                sub(e.args[d + 2]);
      line(depth, head + "slice " + p_.var(e.arrays[0]).name + "[" + dims + "]");
      return;
    }
    case ExpKind::Rearrange: {
      std::string perm;
      for (size_t i = 0; i < e.perm.size(); i++) perm += (i ? " " : "") + std::to_string(e.perm[i]);
      line(depth, head + "rearrange (" + perm + ") " + p_.var(e.arrays[0]).name);
      return;
    }
    case ExpKind::Concat: line(depth, head + "concat (" + vars(e.arrays) + ")"); return;
    case ExpKind::Reshape:
      line(depth, head + "reshape [" + subs(e.args) + "] " + p_.var(e.arrays[0]).name);
      return;
    case ExpKind::Scatter: line(depth, head + "scatter (" + vars(e.arrays) + ")"); return;
    case ExpKind::Hist:
      line(depth, head + "hist (" + subs(e.args) + ") (" + vars(e.arrays) + ") " +
                      lambda_head(*e.lambda));
      nested(e.lambda->body, depth, "}");
      return;
    }
    line(depth, head + "<unknown>");
  }

  const Program &p_;
  std::string out_;
};

} // namespace

std::string print_program(const Program &p) {
  std::string out;
  for (const Function &f : p.functions) {
    if (!out.empty()) out += "\n";
    out += Printer(p).function(f);
  }
  if (!p.failures.records.empty()) {
    out += "\nsites:\n";
    for (size_t i = 0; i < p.failures.records.size(); i++) {
      const FailureRecord &r = p.failures.records[i];
      out += fmt::format("  @site {}: {} at {}: {}\n", i, failure_kind_name(r.kind), r.location,
                         r.message_template);
    }
  }
  // Candidates no pass has decided yet (after lower_to_core, for --dump-after).
  std::string undecided;
  for (size_t i = 0; i < p.candidates.size(); i++) {
    const CheckCandidate &c = p.candidates[i];
    if (c.site >= 0 || !c.disabled.empty()) continue;
    undecided += fmt::format("  ?check {}: {} at {}: {}{}\n", i, failure_kind_name(c.kind),
                             c.span.location(), c.message_template,
                             c.unsafe_at.empty() ? "" : " (#[unsafe] at " + c.unsafe_at + ")");
  }
  if (!undecided.empty()) out += "\ncheck candidates:\n" + undecided;
  return out;
}

namespace {
template <typename BodyT, typename ExpT, typename F> void walk_body(BodyT &b, F &f) {
  for (auto &s : b.stms) {
    ExpT &e = s.exp;
    f(e);
    for (auto &nb : e.bodies)
      if (nb) walk_body<BodyT, ExpT>(*nb, f);
    if (e.lambda) walk_body<BodyT, ExpT>(e.lambda->body, f);
  }
}
} // namespace

void for_each_exp(Program &p, const std::function<void(Exp &)> &f) {
  for (Function &fn : p.functions) walk_body<Body, Exp>(fn.body, f);
}

void for_each_exp(const Program &p, const std::function<void(const Exp &)> &f) {
  for (const Function &fn : p.functions) walk_body<const Body, const Exp>(fn.body, f);
}

void for_each_exp(const Body &b, const std::function<void(const Exp &)> &f) {
  walk_body<const Body, const Exp>(b, f);
}

} // namespace kerb::core
