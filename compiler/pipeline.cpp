// The core IR pipeline (see pipeline.h). Read it top to bottom: the lowering makes the
// core IR and describes every check the program could make; one pass per kind of check
// decides which of them are kept (compiler/passes.h); a range analysis removes the
// bounds sites it proves cannot fail; two clean-up passes remove what
// the disabled checks left, and maps whose results are not used; flatten_nested_maps
// reshapes nested maps for the code generator's fusion, and hoist_invariant_scalars
// moves what a map's lambda computes the same for every element out of it;
// offload_sequential_loops makes a host loop that reads arrays a map of one thread (one
// kernel, not a device read per element); mark_lazy_checks notes the sites that
// compiled code runs only where their map is read. Kernel extraction and LLVM code
// generation follow in codegen/ (docs/CODEGEN.md); docs/CHECKS.md explains the checks
// end to end.
#include "compiler/pipeline.h"

#include "compiler/lower_to_core.h"
#include "compiler/passes.h"

#include <algorithm>

namespace kerb {

namespace {

struct Pass {
  const char *name;
  void (*run)(core::Program &, const CheckOptions &);
};

// The passes, in order.
const Pass kPasses[] = {
    {"insert_bounds_checks", insert_bounds_checks},     // a[i], a[i:j], a with [i] = v
    {"insert_division_checks", insert_division_checks}, // integer / % // %% by zero, ** < 0
    {"insert_assert_checks", insert_assert_checks},     // assert c e
    {"insert_range_checks", insert_range_checks},       // a..b...c, iota/replicate n < 0
    {"insert_size_checks", insert_size_checks},         // map2, zip, :>, concat, ...
    {"insert_nan_checks", insert_nan_checks},           // opt-in: NaN from non-NaN
    {"remove_proved_checks", remove_proved_checks},     // index sites proved in range
    {"remove_disabled_checks", remove_disabled_checks}, // asserts that are not sites
    {"remove_dead_code", remove_dead_code},             // their unused conditions
    {"flatten_nested_maps", flatten_nested_maps},       // flatten of map of map over iotas
    {"hoist_invariant_scalars", hoist_invariant_scalars}, // invariants out of map lambdas
    {"offload_sequential_loops", offload_sequential_loops}, // host loops that read arrays
    {"mark_lazy_checks", mark_lazy_checks},             // sites of maps computed where read
};

void dump_after(const PipelineOptions &opts, const std::string &pass, const core::Program &p) {
  if (!opts.dump) return;
  const std::vector<std::string> &names = opts.dump_after;
  if (std::find(names.begin(), names.end(), pass) != names.end() ||
      std::find(names.begin(), names.end(), "all") != names.end())
    opts.dump(pass, p);
}

} // namespace

core::Program lower_and_check(const Program &program, const std::vector<const FunDef *> &entries,
                              const PipelineOptions &opts) {
  core::Program p = lower_to_core(program, entries);
  dump_after(opts, "lower_to_core", p);
  for (const Pass &pass : kPasses) {
    pass.run(p, opts.checks);
    dump_after(opts, pass.name, p);
  }
  return p;
}

std::vector<std::string> core_pass_names() {
  std::vector<std::string> names{"lower_to_core"};
  for (const Pass &pass : kPasses) names.push_back(pass.name);
  return names;
}

} // namespace kerb
