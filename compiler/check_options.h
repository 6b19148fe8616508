// Which dynamic checks a program is compiled with (DESIGN.md, "Toggles"): the command
// line's `--unsafe` and `--checks=KIND,...`. The check insertion passes
// (compiler/pipeline.cpp) read it to decide every check site; the interpreter reads it
// for the kinds whose failure leaves a defined result (assert, nan; see
// docs/CHECKS.md). `#[unsafe]` in the source is not here: the lowering records which
// checks it covers.
#pragma once

#include "failure_table/failure_table.h"

#include <cstdint>
#include <string>

namespace kerb {

struct CheckOptions {
  // Every kind but nan (the opt-in kind).
  static constexpr uint32_t kDefaultKinds = 0x3f & ~(1u << int(FailureKind::NaN));

  bool unsafe = false;              // --unsafe: no check at all, whatever `kinds` says
  uint32_t kinds = kDefaultKinds;   // --checks: bit k set = FailureKind(k) is checked

  bool enabled(FailureKind k) const { return !unsafe && ((kinds >> int(k)) & 1) != 0; }
  // "bounds,div,assert,range,size" (the enabled kinds), "none" under --unsafe.
  std::string str() const;
  // Why a check of kind k is off ("--unsafe", "nan is not in --checks"); "" when on.
  std::string why_disabled(FailureKind k) const;
};

// Parses the value of --checks: kind names separated by commas (bounds, div, assert,
// range, size, nan), `all` (every kind) or `default` (every kind but nan); they may be
// combined ("default,nan"). Returns the kinds as CheckOptions::kinds; throws
// std::invalid_argument with a message for an empty list or an unknown name.
uint32_t parse_check_kinds(const std::string &list);

// The names --checks accepts, for messages and help: "bounds, div, assert, range, size, nan".
std::string check_kind_names();

} // namespace kerb
