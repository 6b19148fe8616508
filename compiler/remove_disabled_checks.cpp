// Removes the Assert statements whose candidate did not become a check site (see
// passes.h): disabled by the toggles or eliminated. What they computed their
// condition and message arguments from is left to remove_dead_code.
#include "compiler/passes.h"

#include <algorithm>

namespace kerb {

namespace {

void strip(core::Body &b) {
  std::erase_if(b.stms, [](const core::Stm &s) {
    return s.exp.kind == core::ExpKind::Assert && s.exp.site < 0;
  });
  for (core::Stm &s : b.stms) {
    for (auto &nb : s.exp.bodies)
      if (nb) strip(*nb);
    if (s.exp.lambda) strip(s.exp.lambda->body);
  }
}

} // namespace

void remove_disabled_checks(core::Program &p, const CheckOptions &) {
  for (core::Function &f : p.functions) strip(f.body);
}

} // namespace kerb
