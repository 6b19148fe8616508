// Small constructors of AST nodes that the elimination passes share.
#pragma once

#include "compiler/ast.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerb {

// A use of local variable `name`.
ExprPtr var_expr(const std::string &name, const Span &span, const Type &type = Type());
// (a, b, ...): a single element stands alone, none is `()`.
ExprPtr tuple_expr(std::vector<ExprPtr> elems, const Span &span);
// e.i
ExprPtr project_expr(ExprPtr e, int i, const Span &span);
// A literal of primitive type `t` with value `v` (0 or 1 for bool).
ExprPtr prim_literal(PrimType t, int64_t v, const Span &span);
// A value of type `t` made of zeros (false, empty arrays, a sum's first constructor):
// the filler of a slot that no constructor of a sum type's value uses, or of a hole.
ExprPtr zero_value(const Type &t, const Span &span);
Pattern id_pattern(const std::string &name, const Span &span, std::optional<Type> annotation);
Pattern wildcard_pattern(const Span &span);

// Lets to put around an expression: (name, value), outermost first.
using Lets = std::vector<std::pair<std::string, ExprPtr>>;
ExprPtr wrap_lets(Lets lets, ExprPtr body);

} // namespace kerb
