// Check insertion: integer division (see passes.h). The lowering describes a candidate
// on every integer / % // %% (any integer type; the message is "division by zero") and
// on every signed integer ** ("negative exponent"). A constant divisor other than zero,
// or a constant exponent that is not negative, cannot fail.
#include "compiler/check_sites.h"
#include "compiler/passes.h"
#include "compiler/prim_ops.h"

namespace kerb {

namespace {

std::string constant_operand(const core::Program &, const core::Exp &e) {
  if (e.kind != core::ExpKind::BinOp || e.args[1].is_var()) return "";
  const PrimValue &b = e.args[1].constant;
  if (e.binop == BinOp::Pow) return b.bits.i >= 0 ? "constant exponent not negative" : "";
  return prim_is_zero(b) ? "" : "constant divisor not zero";
}

} // namespace

void insert_division_checks(core::Program &p, const CheckOptions &opts) {
  insert_checks_of_kind(p, FailureKind::Division, opts, constant_operand);
}

} // namespace kerb
