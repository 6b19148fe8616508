// `kerb compile` and `kerb bench`: listed so that users find them, but they arrive with
// code generation and the devices. Until then they explain that and exit with status 2.
#include "driver/cli.h"
#include "driver/commands.h"

#include <fmt/format.h>

namespace kerb::driver {

namespace {

const char kCompileHelp[] = R"(Usage: kerb compile PROG --library -o OUT   (not yet available)

Will compile PROG to a linkable library with a C header (kerb_context_new,
kerb_entry_NAME, ...) and the failure table compiled in. Not available in this build:
code generation comes in a later release. Use 'kerb run' to run programs now.
)";

const char kBenchHelp[] = R"(Usage: kerb bench FILE...   (not yet available)

Will run the test inputs of FILE... timed with device events and print JSON. Not
available in this build: the CPU and CUDA devices come in a later release.
)";

int not_available(const char *name) {
  throw UsageError(fmt::format("'kerb {}' is not available in this build (it comes with "
                               "code generation and the devices)",
                               name));
}

int run_compile(const std::vector<std::string> &) {
  return not_available("compile");
}
int run_bench(const std::vector<std::string> &) {
  return not_available("bench");
}

} // namespace

const Command kCompileCommand = {"compile", "compile to a library (not yet available)",
                                 kCompileHelp, run_compile};
const Command kBenchCommand = {"bench", "time test inputs on a device (not yet available)",
                               kBenchHelp, run_bench};

} // namespace kerb::driver
