// The evaluator of size expressions (see size_expr.h).
#include "compiler/size_expr.h"

#include <cctype>

namespace kerb {

std::optional<std::pair<std::string, std::string>> split_size_text(std::string_view text, char op) {
  int depth = 0;
  std::optional<size_t> at;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (c == '(') depth++;
    else if (c == ')') depth--;
    else if (depth != 0) continue;
    else if (c == op) at = i;
    else if (c == '-' || (c == '+' && op == '*')) {
      if (op == '*') return std::nullopt;
      at.reset();
    }
  }
  if (!at) return std::nullopt;
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return std::string(s);
  };
  return std::make_pair(trim(text.substr(0, *at)), trim(text.substr(*at + 1)));
}

namespace {

class SizeExprEval {
public:
  using Lookup = std::function<std::optional<int64_t>(std::string_view)>;
  SizeExprEval(std::string_view text, const Lookup &lookup) : s_(text), lookup_(lookup) {}

  std::optional<int64_t> run() {
    std::optional<int64_t> v = sum();
    skip_space();
    if (pos_ != s_.size()) return std::nullopt;
    return v;
  }

private:
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      pos_++;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }
  std::optional<int64_t> sum() {
    std::optional<int64_t> v = product();
    for (;;) {
      if (eat('+')) {
        std::optional<int64_t> r = product();
        if (!v || !r) return std::nullopt;
        v = int64_t(uint64_t(*v) + uint64_t(*r));
      } else if (eat('-')) {
        std::optional<int64_t> r = product();
        if (!v || !r) return std::nullopt;
        v = int64_t(uint64_t(*v) - uint64_t(*r));
      } else {
        return v;
      }
    }
  }
  std::optional<int64_t> product() {
    std::optional<int64_t> v = atom();
    for (;;) {
      char op = 0;
      if (eat('*'))
        op = '*';
      else if (eat('/'))
        op = '/';
      else if (eat('%'))
        op = '%';
      else
        return v;
      std::optional<int64_t> r = atom();
      if (!v || !r) return std::nullopt;
      if (op == '*') {
        v = int64_t(uint64_t(*v) * uint64_t(*r));
        continue;
      }
      if (*r == 0 || *r == -1) return std::nullopt;
      v = op == '/' ? *v / *r : *v % *r;
    }
  }
  std::optional<int64_t> atom() {
    skip_space();
    if (eat('(')) {
      std::optional<int64_t> v = sum();
      if (!eat(')')) return std::nullopt;
      return v;
    }
    if (eat('-')) {
      std::optional<int64_t> v = atom();
      if (!v) return std::nullopt;
      return int64_t(uint64_t(0) - uint64_t(*v));
    }
    size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      uint64_t v = 0;
      while (pos_ < s_.size() &&
             (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
        if (s_[pos_] != '_') v = v * 10 + uint64_t(s_[pos_] - '0');
        pos_++;
      }
      // An integer suffix such as i64.
      while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_])))
        pos_++;
      return int64_t(v);
    }
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '_' || s_[pos_] == '\''))
      pos_++;
    if (pos_ == start) return std::nullopt;
    return lookup_(s_.substr(start, pos_ - start));
  }

  std::string_view s_;
  const Lookup &lookup_;
  size_t pos_ = 0;
};

} // namespace

std::optional<int64_t>
eval_size_expr(std::string_view text,
               const std::function<std::optional<int64_t>(std::string_view)> &lookup) {
  return SizeExprEval(text, lookup).run();
}

} // namespace kerb
