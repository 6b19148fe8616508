// The shared check options of the subcommands (see check_flags.h).
#include "driver/check_flags.h"

#include "compiler/pipeline.h"
#include "compiler/source.h"
#include "driver/cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace kerb::driver {

codegen::CompileOptions CheckFlags::compile_options() const {
  codegen::CompileOptions co;
  co.pipeline.checks = checks;
  co.pipeline.dump_after = dump_after;
  if (!dump_after.empty())
    co.pipeline.dump = [](const std::string &pass, const core::Program &p) {
      std::string text = fmt::format("-- core IR after {}\n{}", pass, core::print_program(p));
      std::fputs(text.c_str(), stderr);
    };
  co.sync_checks = sync;
  co.fp_contract = fp_contract;
  co.gen.deferred_checks = deferred;
  using Loads = codegen::GenOptions::Loads;
  co.gen.deferred_loads = deferred_loads == "select"      ? Loads::Select
                          : deferred_loads == "for-loops" ? Loads::ForLoops
                                                          : Loads::Predicated;
  co.gen.scan_vectors = scan_vectors;
  for (const ThresholdFlag &t : threshold_flags()) co.gen.*t.field = thresholds.*t.field;
  return co;
}

const std::vector<ThresholdFlag> &threshold_flags() {
  using G = codegen::GenOptions;
  static const std::vector<ThresholdFlag> flags = {
      {"--row-block-min", &G::row_block_min},
      {"--scan-single-pass-min", &G::scan_single_pass_min},
      {"--scan-single-pass-wide-min", &G::scan_single_pass_wide_min},
      {"--row-cache-max", &G::row_cache_max},
      {"--row-warp-max", &G::row_warp_max},
      {"--row-warp-rows", &G::row_warp_rows},
      {"--block-tile-min", &G::block_tile_min},
      {"--stage-max", &G::stage_max},
      {"--stage-min-outputs", &G::stage_min_outputs},
      {"--loop-blocks-per-sm", &G::loop_blocks_per_sm, "auto"},
  };
  return flags;
}

bool match_threshold_flag(const std::vector<std::string> &args, size_t &i, CheckFlags &flags) {
  std::string value;
  for (const ThresholdFlag &t : threshold_flags())
    if (match_option(args, i, {t.name}, value)) {
      bool zero = t.zero_word && value == t.zero_word;
      flags.thresholds.*t.field = value == "off" ? -1 : zero ? 0 : parse_whole_number(t.name, value);
      return true;
    }
  return false;
}

bool match_check_flag(const std::vector<std::string> &args, size_t &i, CheckFlags &flags,
                      bool runs_code) {
  const std::string &arg = args[i];
  std::string value;
  if (arg == "--unsafe") {
    if (flags.checks_given) throw UsageError("--unsafe turns every check off: it cannot be combined with --checks");
    flags.checks.unsafe = true;
    return true;
  }
  if (match_option(args, i, {"--checks"}, value)) {
    if (flags.checks.unsafe) throw UsageError("--unsafe turns every check off: it cannot be combined with --checks");
    try {
      flags.checks.kinds = parse_check_kinds(value);
    } catch (const std::invalid_argument &e) {
      throw UsageError(e.what());
    }
    flags.checks_given = true;
    return true;
  }
  if (arg == "--report-checks") {
    flags.report = true;
    return true;
  }
  if (arg == "--sync-checks") {
    if (!runs_code)
      throw UsageError("--sync-checks is an option of the commands that run code (kerb run, kerb "
                       "test, kerb bench)");
    flags.sync = true;
    return true;
  }
  if (match_option(args, i, {"--fp-contract"}, value)) {
    if (value != "on" && value != "off")
      throw UsageError(fmt::format("--fp-contract takes on or off, not '{}'", value));
    flags.fp_contract = value == "on";
    return true;
  }
  if (match_option(args, i, {"--deferred-checks"}, value)) {
    if (value != "on" && value != "off")
      throw UsageError(fmt::format("--deferred-checks takes on or off, not '{}'", value));
    flags.deferred = value == "on";
    return true;
  }
  if (match_option(args, i, {"--deferred-loads"}, value)) {
    if (value != "predicated" && value != "select" && value != "for-loops")
      throw UsageError(fmt::format("--deferred-loads takes predicated, select or for-loops, not '{}'", value));
    flags.deferred_loads = value;
    return true;
  }
  if (match_option(args, i, {"--scan-vectors"}, value)) {
    if (value != "on" && value != "off")
      throw UsageError(fmt::format("--scan-vectors takes on or off, not '{}'", value));
    flags.scan_vectors = value == "on";
    return true;
  }
  if (match_threshold_flag(args, i, flags)) return true;
  if (match_option(args, i, {"--dump-after"}, value)) {
    std::vector<std::string> names = core_pass_names();
    if (value != "all" && std::find(names.begin(), names.end(), value) == names.end()) {
      std::string list;
      for (const std::string &n : names) list += (list.empty() ? "" : ", ") + n;
      throw UsageError(fmt::format("unknown pass '{}' for --dump-after (expected all, {})", value, list));
    }
    flags.dump_after.push_back(value);
    return true;
  }
  return false;
}

void print_check_report(const Program &program, const CheckFlags &flags, std::FILE *out) {
  try {
    CheckFlags quiet = flags;
    quiet.dump_after.clear();
    std::string report = codegen::check_report(program, quiet.compile_options());
    std::fputs(report.c_str(), out);
  } catch (const CompileError &e) {
    std::fprintf(out, "no check report: %s\n", e.what());
  }
}

} // namespace kerb::driver
