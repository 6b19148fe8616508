// `kerb bench`: listed so that users find it, but it arrives with the benchmarks issue.
// Until then it explains that and exits with status 2.
#include "driver/cli.h"
#include "driver/commands.h"

#include <fmt/format.h>

namespace kerb::driver {

namespace {

const char kBenchHelp[] = R"(Usage: kerb bench FILE...   (not yet available)

Will run the test inputs of FILE... timed with device events and print JSON. Not
available in this build yet; KERB_PROFILE=1 with `kerb run --device cuda` times every
kernel launch meanwhile.
)";

int not_available(const char *name) {
  throw UsageError(fmt::format("'kerb {}' is not available in this build yet", name));
}

int run_bench(const std::vector<std::string> &) {
  return not_available("bench");
}

} // namespace

const Command kBenchCommand = {"bench", "time test inputs on a device (not yet available)",
                               kBenchHelp, run_bench};

} // namespace kerb::driver
