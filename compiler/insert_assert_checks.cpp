// Check insertion: `assert c e` (see passes.h). The lowering describes each assert as
// an Assert candidate whose message is "Assertion is false: " and the source text of c.
// An assert of the constant true cannot fail.
#include "compiler/check_sites.h"
#include "compiler/passes.h"

namespace kerb {

void insert_assert_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::Assert, opts, assert_condition_true);
}

} // namespace kerb
