// Check insertion: sizes (see passes.h). The lowering describes an Assert candidate
// wherever two sizes must be equal and it cannot see that they are: the arguments of
// map2..map5, zip and friends, size coercions `e :> [n]t`, the sizes in a called
// function's parameter and return types, the rows of an array literal, the inner sizes
// of concat, unflatten, and rows stored by an update. Each carries Futhark's wording
// for that case.
#include "compiler/check_sites.h"
#include "compiler/passes.h"

namespace kerb {

void insert_size_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::Size, opts, assert_condition_true);
}

} // namespace kerb
