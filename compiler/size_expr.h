// Size expressions in types. A dimension is a constant, a name, or (for sizes such as
// [n * m] or [k + (n - k)]) the text of a size expression held as a Var dim (see
// compiler/types/types.h). Used by the interpreter and by `kerb dataset`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace kerb {

// The value of size expression `text`: names (their values from `lookup`), integer
// literals (with or without a suffix: 2i64), + - * / % and parentheses, in 64-bit
// wrapping arithmetic. nullopt for text that is not such an expression, a name `lookup`
// does not know, or a division by 0 or -1.
std::optional<int64_t>
eval_size_expr(std::string_view text,
               const std::function<std::optional<int64_t>(std::string_view)> &lookup);

} // namespace kerb
