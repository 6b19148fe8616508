// Check insertion: ranges (see passes.h). The lowering describes an Assert candidate for
// every range expression (a..<b, a..>b, a...b, a..b...c: "Range a..b...c is invalid.")
// and for iota/replicate of a count that is not a constant >= 0 (Futhark's prelude
// fails there with the message of the range 0..1..<n).
#include "compiler/check_sites.h"
#include "compiler/passes.h"

namespace kerb {

void insert_range_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::Range, opts, assert_condition_true);
}

} // namespace kerb
