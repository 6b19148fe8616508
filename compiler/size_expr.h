// Size expressions in types. A dimension is a constant, a name, or (for sizes such as
// [n * m] or [k + (n - k)]) the text of a size expression held as a Var dim (see
// compiler/types/types.h). Used by the interpreter, the first-order checker, the
// lowering and `kerb dataset`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kerb {

// Splits a size expression "a <op> b" at its last top-level `op` (outside parentheses),
// for the sizes of unflatten's [n * m] and split's [n + m] arguments; the parts without
// surrounding spaces. `op` must be the operator applied last: a product may contain no
// top-level + or -, and a sum's last + may not be followed by a top-level -.
std::optional<std::pair<std::string, std::string>> split_size_text(std::string_view text, char op);

// The value of size expression `text`: names (their values from `lookup`), integer
// literals (with or without a suffix: 2i64), + - * / % and parentheses, in 64-bit
// wrapping arithmetic. nullopt for text that is not such an expression, a name `lookup`
// does not know, or a division by 0 or -1.
std::optional<int64_t>
eval_size_expr(std::string_view text,
               const std::function<std::optional<int64_t>(std::string_view)> &lookup);

} // namespace kerb
