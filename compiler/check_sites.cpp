// Deciding check candidates, and the check report (see check_sites.h).
#include "compiler/check_sites.h"

#include <fmt/format.h>

#include <algorithm>

namespace kerb {

namespace {

// Keeps candidate `id` (a failure code) unless the toggles turn it off.
int decide(core::Program &p, int id, const CheckOptions &opts) {
  core::CheckCandidate &c = p.candidates[size_t(id)];
  if (c.site >= 0 || !c.disabled.empty()) return c.site; // decided already
  std::string why = opts.why_disabled(c.kind);
  if (why.empty() && !c.unsafe_at.empty()) why = "#[unsafe] at " + c.unsafe_at;
  if (!why.empty()) {
    c.disabled = why;
    return -1;
  }
  FailureRecord r;
  r.kind = c.kind;
  r.location = c.span.location();
  r.message_template = c.message_template;
  r.arg_types.assign(c.num_args, ArgType::I64);
  c.site = p.failures.add(std::move(r));
  return c.site;
}

const std::string kEliminated = core::CheckCandidate::kEliminated;

} // namespace

void insert_checks_of_kind(core::Program &p, FailureKind kind, const CheckOptions &opts,
                           const std::function<std::string(const core::Program &, const core::Exp &)>
                               &proven) {
  core::for_each_exp(p, [&](core::Exp &e) {
    if (e.check < 0 || p.candidates[size_t(e.check)].kind != kind) return;
    core::CheckCandidate &c = p.candidates[size_t(e.check)];
    if (proven && c.site < 0 && c.disabled.empty()) {
      std::string why = proven(p, e);
      if (!why.empty()) {
        c.disabled = kEliminated + why;
        return;
      }
    }
    e.site = decide(p, e.check, opts);
  });
}

void remove_sites(core::Program &p, const std::vector<bool> &removed,
                  const std::function<std::string(const core::CheckCandidate &)> &why,
                  const char *state) {
  if (std::find(removed.begin(), removed.end(), true) == removed.end()) return;
  std::vector<int> code(p.failures.records.size(), -1);
  std::vector<FailureRecord> kept;
  for (size_t i = 0; i < code.size(); i++) {
    if (i < removed.size() && removed[i]) continue;
    code[i] = int(kept.size());
    kept.push_back(std::move(p.failures.records[i]));
  }
  p.failures.records = std::move(kept);
  for (core::CheckCandidate &c : p.candidates) {
    if (c.site < 0) continue;
    int old = c.site;
    c.site = code[size_t(old)];
    if (c.site < 0) c.disabled = state + why(c);
  }
  core::for_each_exp(p, [&](core::Exp &e) {
    if (e.site >= 0) e.site = code[size_t(e.site)];
  });
}

std::string assert_condition_true(const core::Program &, const core::Exp &e) {
  const core::SubExp &c = e.args[0];
  bool is_true = !c.is_var() && c.constant.type == PrimType::Bool && c.constant.bits.u != 0;
  return is_true ? "condition is the constant true" : "";
}

std::string format_check_report(const core::Program &p, const CheckOptions &opts) {
  int kept = 0, disabled = 0, eliminated = 0, removed = 0;
  std::string lines;
  for (const core::CheckCandidate &c : p.candidates) {
    std::string status;
    if (c.site >= 0) {
      status = c.lazy.empty() ? fmt::format("kept (code {})", c.site)
                              : fmt::format("kept (code {}; {})", c.site, c.lazy);
      kept++;
    } else if (c.eliminated()) {
      status = fmt::format("eliminated ({})", c.disabled.substr(kEliminated.size()));
      eliminated++;
    } else if (c.removed_as_dead()) {
      status = fmt::format("removed ({})", c.disabled);
      removed++;
    } else if (!c.disabled.empty()) {
      status = fmt::format("disabled ({})", c.disabled);
      disabled++;
    } else {
      status = "disabled (not in the generated program)";
      disabled++;
    }
    lines += fmt::format("{}  {}  {}  {}\n", c.span.location(), failure_kind_name(c.kind), status,
                         c.message_template);
  }
  return fmt::format("check sites (checks: {}): {} kept, {} disabled, {} eliminated, {} removed as dead "
                     "code\n{}",
                     opts.str(), kept, disabled, eliminated, removed, lines);
}

} // namespace kerb
