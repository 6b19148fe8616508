// What the check insertion passes (compiler/insert_*_checks.cpp) share: turning a check
// candidate that the lowering described into a check site, or recording why it is not
// one; and the `--report-checks` listing of every candidate and its fate.
//
// A candidate ends in one of four states:
//   kept        a site: a dense failure code and a record in the failure table (in a
//               map computed only where it is read, it may not run where the
//               interpreter's does: Note [Checks in dead code]);
//   disabled    the toggles turn it off (--unsafe, --checks, #[unsafe]);
//   eliminated  its pass proved that it cannot fail (e.g. a division by a non-zero
//               constant);
//   removed     it was in dead code that compiler/remove_dead_code.cpp removed (a map
//               whose result is not used).
#pragma once

#include "compiler/check_options.h"
#include "compiler/core_ir.h"

#include <functional>
#include <string>

namespace kerb {

// Decides every candidate of `kind` in the program: `proven(e)` returns why the check
// of expression e cannot fail, or "" when it may (null: nothing is proved). A kept
// candidate gets a failure code in `site`, both in the candidate and in the expression.
void insert_checks_of_kind(core::Program &p, FailureKind kind, const CheckOptions &opts,
                           const std::function<std::string(const core::Program &, const core::Exp &)>
                               &proven = nullptr);

// Removes the sites marked in `removed` (by failure code) that a later pass proved
// cannot fail: their candidates become eliminated (`why`), or, with `state`
// CheckCandidate::kDead, removed as dead code; the other sites are renumbered so that
// the codes stay dense.
void remove_sites(core::Program &p, const std::vector<bool> &removed,
                  const std::function<std::string(const core::CheckCandidate &)> &why,
                  const char *state = core::CheckCandidate::kEliminated);

// For an Assert candidate whose condition is the constant true: why it cannot fail.
std::string assert_condition_true(const core::Program &p, const core::Exp &e);

// The --report-checks listing: a header line, then one line per candidate in program
// order: location, kind, "kept (code N)" (or "kept (code N; WHY)" where it may be
// skipped as dead code) / "disabled (WHY)" / "eliminated (WHY)" / "removed (dead code:
// WHY)", and the message.
std::string format_check_report(const core::Program &p, const CheckOptions &opts);

} // namespace kerb
