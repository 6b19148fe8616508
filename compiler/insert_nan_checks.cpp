// Check insertion: NaN, the opt-in kind (see passes.h; on with --checks=default,nan).
// The lowering describes a candidate on every float operation that can give NaN from
// operands that are not NaN (prim_ops.h's can_produce_nan: + - * / % // %% ** and
// sqrt, log, log2, log10, sin, cos, tan, asin, acos, pow, also inside sum and product);
// the code generator checks the result after the operation, and the message names the
// operation: "NaN produced by f32.sqrt".
#include "compiler/check_sites.h"
#include "compiler/passes.h"

namespace kerb {

void insert_nan_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::NaN, opts);
}

} // namespace kerb
