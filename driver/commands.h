// The subcommands of `kerb`. Each cmd_*.cpp defines one Command: its name, a one-line
// summary for `kerb --help`, its full help text (`kerb help CMD`, `kerb CMD --help`)
// and the function that runs it. A function returns the exit status; it reports
// usage mistakes and bad input by throwing UsageError / InputError (cli.h), which
// main() prints.
#pragma once

#include <string>
#include <vector>

namespace kerb::driver {

struct Command {
  const char *name;
  const char *summary;
  const char *help;
  int (*run)(const std::vector<std::string> &args);
};

extern const Command kCheckCommand;
extern const Command kRunCommand;
extern const Command kDatasetCommand;
extern const Command kTestCommand;
extern const Command kDifftestCommand;
extern const Command kCompileCommand;
extern const Command kConfigCommand;
extern const Command kBenchCommand; // not yet available

// Every command, in the order `kerb --help` lists them.
const std::vector<const Command *> &all_commands();

// True when `args` asks for help (-h or --help anywhere before a "--").
bool wants_help(const std::vector<std::string> &args);

} // namespace kerb::driver
