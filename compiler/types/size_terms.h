// Size expressions as terms, for the size unification of the type checker (infer.cpp).
//
// A Dim holds a size expression as its text (types.h): `[n * m]`, `[k + 1]`, `[length
// xs]`. To unify two sizes the checker reads the text as a term, compares terms by
// their structure (Futhark unifies sizes syntactically: `n * m` and `m * n` differ),
// binds its size variables, and prints the result back in one canonical form ("n * m",
// operators spaced, parentheses only where they are needed).
//
// The checker's own names occur in the text too: `?3` is size variable 3 (a size not
// decided yet, solved by unification), `!3` an unknown size of its own (an existential,
// or the size a branch or loop makes; it equals only itself), `#3` the name a function
// type gives its parameter (`(#3: i64) -> [#3]i32`), `@3` an anonymous size that a type
// abbreviation uses more than once (`square []` of `type square [n] 't = [n][n]t`).
// They never reach the rest of the compiler (infer.cpp makes such sizes unknown when it
// is done).
#pragma once

#include "compiler/types/types.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kerb {

struct SizeTerm {
  enum Kind : uint8_t {
    Int,    // value
    Name,   // text: a name (qualified names such as i64.i32 are one name), or ?N !N #N
    Op,     // text: the operator (+ - * / % // %% **); args: the two operands
    Apply,  // text: the function's name; args: the arguments (`length xs`, `i64.i32 n`)
    Opaque, // text: anything else, kept as written (equal only to the same text)
  };
  Kind kind = Int;
  int64_t value = 0;
  std::string text;
  std::vector<SizeTerm> args;

  static SizeTerm integer(int64_t v);
  static SizeTerm name(std::string n);
  static SizeTerm op(std::string o, SizeTerm a, SizeTerm b);
};

// The term a size's text reads as (Opaque when it is not a sum, product, ... of names,
// integers and applications).
SizeTerm parse_size_term(std::string_view text);
SizeTerm term_of_dim(const Dim &d); // d must not be unknown

// The canonical text of a term, and the Dim that holds it (a constant for an integer).
std::string print_size_term(const SizeTerm &t);
Dim dim_of_term(const SizeTerm &t);

bool same_size_term(const SizeTerm &a, const SizeTerm &b);

// Calls `f` on every name in `t` (also inside applications; not inside Opaque text).
void for_each_size_name(const SizeTerm &t, const std::function<void(const std::string &)> &f);

// `t` with the names `f` gives a term for replaced.
SizeTerm substitute_size_names(const SizeTerm &t,
                               const std::function<std::optional<SizeTerm>(const std::string &)> &f);

// Whether a name is one of the checker's own (?N, !N, #N).
inline bool is_internal_size_name(std::string_view n) {
  return !n.empty() && (n[0] == '?' || n[0] == '!' || n[0] == '#' || n[0] == '@');
}

} // namespace kerb
