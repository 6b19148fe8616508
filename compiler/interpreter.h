// The reference interpreter ("gold"): evaluates a type-checked Program directly and
// reports a failure with the exact message and location of LANGUAGE.md. The checks
// whose failure leaves no defined result (bounds, div, range, size) it always makes;
// assert and nan follow the toggles as compiled code does (docs/CHECKS.md).
#pragma once

#include "compiler/ast.h"
#include "compiler/check_options.h"
#include "failure_table/failure_table.h"
#include "runtime/value.h"

#include <functional>
#include <string>
#include <vector>

namespace kerb {

// A dynamic check failed while running a program.
struct RunFailure {
  FailureKind kind;
  std::string message;  // "Index [7] out of bounds for array of shape [3]."
  std::string location; // "prog.fut:5:46-50"
  std::string str() const { return message + "\nat " + location; }
};

struct RunResult {
  bool ok = false;
  std::vector<Value> results; // ok: the entry's results (a tuple result is split)
  RunFailure failure;         // !ok
};

// Runs entry point `entry` on `args` (one Value per parameter, already of the
// parameter's type; see check_entry_args). Entry parameters' size variables are bound
// from the arguments' shapes; inconsistent sizes are a Size failure.
RunResult interpret(const Program &program, const std::string &entry,
                    const std::vector<Value> &args, const CheckOptions &checks = {});

// The failures that a parallel executor may legitimately report for this call: every
// failure of an element of a map or filter that happens on values computed from the
// input (the elements' threads race for the failure slot), and the first failure
// outside such elements. Empty when the call succeeds. interpret()'s failure is always
// among them. See Note [Which failures may be reported] in interpreter.cpp.
// `in_dead_code`, if given, says which failures are of checks that compiled code removed
// with dead code (docs/CHECKS.md, Note [Checks in dead code]): a map whose every element
// fails with those is filled, rows of arrays too, instead of failing as a whole, since
// compiled code goes on to what follows.
std::vector<RunFailure> possible_failures(const Program &program, const std::string &entry,
                                          const std::vector<Value> &args,
                                          const CheckOptions &checks = {},
                                          const std::function<bool(const RunFailure &)> &in_dead_code = nullptr);

} // namespace kerb
