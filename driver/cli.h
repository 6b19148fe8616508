// Shared pieces of the `kerb` command line: exit codes, the errors that subcommands
// throw (usage errors and bad input, both exit 2), option matching, and the device
// choice. Every subcommand (cmd_*.cpp) is a function from its arguments to an exit
// status, registered in commands.h.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kerb::driver {

// Exit statuses (docs/CONVENTIONS.md).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1; // the program failed, a compile error, failed tests
constexpr int kExitUsage = 2;   // a usage error or bad input

// A mistake in the command line. main() prints "kerb: error: MESSAGE" and a hint to
// run `kerb CMD --help`, and exits with kExitUsage.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Bad input (a missing file, a malformed or mistyped value, a wrong number of values).
// main() prints "kerb: error: MESSAGE" and exits with kExitUsage.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Prints "kerb: error: MESSAGE" on stderr.
void print_error(const std::string &message);

// True for "-x", "--xyz" (but not "-" alone, which names stdin).
bool looks_like_option(const std::string &arg);

// Matches option `args[i]` against `names` ("-e", "--entry"). Accepts "--entry NAME",
// "--entry=NAME" and "-e NAME"; on a match stores the value, advances `i` past a
// separate value and returns true. Throws UsageError when the value is missing.
bool match_option(const std::vector<std::string> &args, size_t &i,
                  std::initializer_list<std::string_view> names, std::string &value);

// Parses the value of option `opt` as a non-negative number (--ulps 4, --rtol 1e-6).
// Throws UsageError otherwise.
double parse_nonnegative_number(const std::string &opt, const std::string &v);

// Parses the value of option `opt` as a whole number >= 0 (--size 1000, --row-block-min
// 64). Throws UsageError otherwise.
int64_t parse_whole_number(const std::string &opt, const std::string &v);

// The executors a program can run on: the reference interpreter, compiled code on the
// CPU device, compiled code on the GPU.
enum class Device { Interp, Cpu, Cuda };

// Parses a --device value. Throws UsageError for an unknown name.
Device parse_device(const std::string &name);
// The --device name of a device: "interp", "cpu" or "cuda".
std::string device_name(Device d);

// The text of an unknown-option error for subcommand `cmd`.
std::string unknown_option(const std::string &cmd, const std::string &arg);

} // namespace kerb::driver
