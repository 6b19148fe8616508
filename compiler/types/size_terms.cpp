// Size expressions as terms (see size_terms.h).
#include "compiler/types/size_terms.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>

namespace kerb {

SizeTerm SizeTerm::integer(int64_t v) {
  SizeTerm t;
  t.kind = Int;
  t.value = v;
  return t;
}

SizeTerm SizeTerm::name(std::string n) {
  SizeTerm t;
  t.kind = Name;
  t.text = std::move(n);
  return t;
}

SizeTerm SizeTerm::op(std::string o, SizeTerm a, SizeTerm b) {
  SizeTerm t;
  t.kind = Op;
  t.text = std::move(o);
  t.args.push_back(std::move(a));
  t.args.push_back(std::move(b));
  return t;
}

namespace {

// A recursive-descent reader of Futhark's arithmetic, with its precedences:
//   sum     = product (("+" | "-") product)*
//   product = power (("*" | "/" | "%" | "//" | "%%") power)*
//   power   = apply ("**" power)?
//   apply   = atom atom*          (a name applied to arguments)
//   atom    = integer | name | "(" sum ")"
class Reader {
public:
  explicit Reader(std::string_view s) : s_(s) {}

  std::optional<SizeTerm> run() {
    std::optional<SizeTerm> t = sum();
    skip();
    if (!t || pos_ != s_.size()) return std::nullopt;
    return t;
  }

private:
  std::string_view s_;
  size_t pos_ = 0;

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) pos_++;
  }
  bool at(std::string_view tok) {
    skip();
    return s_.substr(pos_, tok.size()) == tok;
  }
  bool eat(std::string_view tok) {
    if (!at(tok)) return false;
    pos_ += tok.size();
    return true;
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'';
  }
  bool starts_atom() {
    skip();
    if (pos_ >= s_.size()) return false;
    char c = s_[pos_];
    return c == '(' || std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '?' ||
           c == '!' || c == '#' || c == '@';
  }

  // A left-associative chain of `next`s joined by the operators `ops` (the longest
  // first where one is a prefix of another); `**` ends a product (power() takes it).
  std::optional<SizeTerm> chain(std::optional<SizeTerm> (Reader::*next)(),
                                std::initializer_list<std::string_view> ops) {
    std::optional<SizeTerm> l = (this->*next)();
    while (l && !at("**")) {
      auto op = std::find_if(ops.begin(), ops.end(), [&](std::string_view o) { return eat(o); });
      if (op == ops.end()) break;
      std::optional<SizeTerm> r = (this->*next)();
      if (!r) return std::nullopt;
      l = SizeTerm::op(std::string(*op), std::move(*l), std::move(*r));
    }
    return l;
  }

  std::optional<SizeTerm> sum() { return chain(&Reader::product, {"+", "-"}); }
  std::optional<SizeTerm> product() { return chain(&Reader::power, {"//", "%%", "*", "/", "%"}); }

  std::optional<SizeTerm> power() {
    std::optional<SizeTerm> l = apply();
    if (l && eat("**")) {
      std::optional<SizeTerm> r = power();
      if (!r) return std::nullopt;
      return SizeTerm::op("**", std::move(*l), std::move(*r));
    }
    return l;
  }

  std::optional<SizeTerm> apply() {
    std::optional<SizeTerm> f = atom();
    if (!f || f->kind != SizeTerm::Name || !starts_atom()) return f;
    SizeTerm app;
    app.kind = SizeTerm::Apply;
    app.text = f->text;
    while (starts_atom()) {
      std::optional<SizeTerm> a = atom();
      if (!a) return std::nullopt;
      app.args.push_back(std::move(*a));
    }
    return app;
  }

  std::optional<SizeTerm> atom() {
    skip();
    if (pos_ >= s_.size()) return std::nullopt;
    char c = s_[pos_];
    if (c == '(') {
      pos_++;
      std::optional<SizeTerm> t = sum();
      if (!t || !eat(")")) return std::nullopt;
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) pos_++;
      std::string digits(s_.substr(start, pos_ - start));
      // A suffix (2i64) names the type only.
      if (pos_ < s_.size() && (s_[pos_] == 'i' || s_[pos_] == 'u')) {
        size_t k = pos_ + 1;
        while (k < s_.size() && std::isdigit(static_cast<unsigned char>(s_[k]))) k++;
        if (k == pos_ + 1) return std::nullopt;
        pos_ = k;
      }
      if (pos_ < s_.size() && name_char(s_[pos_])) return std::nullopt;
      if (digits.size() > 18) return std::nullopt;
      return SizeTerm::integer(std::strtoll(digits.c_str(), nullptr, 10));
    }
    if (c == '?' || c == '!' || c == '#' || c == '@') {
      size_t start = pos_++;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) pos_++;
      if (pos_ == start + 1) return std::nullopt;
      return SizeTerm::name(std::string(s_.substr(start, pos_ - start)));
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      for (;;) {
        while (pos_ < s_.size() && name_char(s_[pos_])) pos_++;
        // A qualified name: f32.sqrt, i64.i32.
        if (pos_ + 1 < s_.size() && s_[pos_] == '.' &&
            (std::isalpha(static_cast<unsigned char>(s_[pos_ + 1])) || s_[pos_ + 1] == '_')) {
          pos_++;
          continue;
        }
        break;
      }
      return SizeTerm::name(std::string(s_.substr(start, pos_ - start)));
    }
    return std::nullopt;
  }
};

int precedence(const SizeTerm &t) {
  switch (t.kind) {
  case SizeTerm::Op:
    if (t.text == "+" || t.text == "-") return 1;
    if (t.text == "**") return 3;
    return 2;
  case SizeTerm::Apply: return 4;
  case SizeTerm::Opaque: return 0;
  default: return 5;
  }
}

std::string print_at(const SizeTerm &t, int need) {
  std::string out;
  switch (t.kind) {
  case SizeTerm::Int: out = std::to_string(t.value); break;
  case SizeTerm::Name: out = t.text; break;
  case SizeTerm::Opaque: out = t.text; break;
  case SizeTerm::Op: {
    int p = precedence(t);
    bool right_assoc = t.text == "**";
    out = print_at(t.args[0], right_assoc ? p + 1 : p) + " " + t.text + " " +
          print_at(t.args[1], right_assoc ? p : p + 1);
    break;
  }
  case SizeTerm::Apply:
    out = t.text;
    for (const SizeTerm &a : t.args) out += " " + print_at(a, 5);
    break;
  }
  bool negative = t.kind == SizeTerm::Int && t.value < 0;
  if (precedence(t) < need || (negative && need > 0)) return "(" + out + ")";
  return out;
}

} // namespace

SizeTerm parse_size_term(std::string_view text) {
  if (std::optional<SizeTerm> t = Reader(text).run()) return *t;
  SizeTerm o;
  o.kind = SizeTerm::Opaque;
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) b++;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) e--;
  o.text = std::string(text.substr(b, e - b));
  return o;
}

SizeTerm term_of_dim(const Dim &d) {
  if (d.kind == Dim::Const) return SizeTerm::integer(d.value);
  return parse_size_term(d.name);
}

std::string print_size_term(const SizeTerm &t) { return print_at(t, 0); }

Dim dim_of_term(const SizeTerm &t) {
  if (t.kind == SizeTerm::Int && t.value >= 0) return Dim::constant(t.value);
  return Dim::var(print_size_term(t));
}

bool same_size_term(const SizeTerm &a, const SizeTerm &b) {
  if (a.kind != b.kind || a.args.size() != b.args.size()) return false;
  if (a.kind == SizeTerm::Int) return a.value == b.value;
  if (a.text != b.text) return false;
  for (size_t i = 0; i < a.args.size(); i++)
    if (!same_size_term(a.args[i], b.args[i])) return false;
  return true;
}

void for_each_size_name(const SizeTerm &t, const std::function<void(const std::string &)> &f) {
  if (t.kind == SizeTerm::Name) f(t.text);
  if (t.kind == SizeTerm::Apply) f(t.text);
  for (const SizeTerm &a : t.args) for_each_size_name(a, f);
}

SizeTerm substitute_size_names(const SizeTerm &t,
                               const std::function<std::optional<SizeTerm>(const std::string &)> &f) {
  if (t.kind == SizeTerm::Name) {
    if (std::optional<SizeTerm> r = f(t.text)) return *r;
    return t;
  }
  SizeTerm out = t;
  for (SizeTerm &a : out.args) a = substitute_size_names(a, f);
  return out;
}

} // namespace kerb
