// The `kerb` command: dispatches to the subcommands (commands.h), prints help and the
// version, and turns the errors that subcommands throw into one-line messages and the
// exit statuses of docs/CONVENTIONS.md.
#include "codegen/llvm_target.h"
#include "driver/build_info.h"
#include "driver/cli.h"
#include "driver/commands.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>

#include <pthread.h>

#include <cstdio>
#include <cstring>
#include <exception>

namespace kerb::driver {

namespace {

void print_general_help(std::FILE *out) {
  std::string text = R"(Usage: kerb COMMAND [ARGS...]

Kerb compiles Futhark programs (modules, polymorphism and higher-order functions
included) with every array index, division and assert checked. It runs programs on
the reference interpreter, on the CPU device (compiled, JIT) or on a CUDA GPU
(compiled to PTX).

Commands:
)";
  for (const Command *c : all_commands())
    text += fmt::format("  {:<9} {}\n", c->name, c->summary);
  text += R"(
Options:
  -h, --help     show this help
  --version      show the version

Run 'kerb help COMMAND' or 'kerb COMMAND --help' for a command's options.
Exit status: 0 success; 1 a failed program, compile error or failed test; 2 a usage
error or bad input.
)";
  std::fputs(text.c_str(), out);
}

const Command *find_command(const std::string &name) {
  for (const Command *c : all_commands())
    if (name == c->name) return c;
  return nullptr;
}

int run_main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_general_help(stderr);
    return kExitUsage;
  }
  const std::string &first = args[0];
  if (first == "-h" || first == "--help") {
    print_general_help(stdout);
    return kExitOk;
  }
  if (first == "--version") {
    std::printf("kerb %s (commit %s; interpreter, CPU device, CUDA device; LLVM %s)\n", kVersion,
                build_commit(), LLVM_VERSION_STRING);
    return kExitOk;
  }
  if (first == "help") {
    if (args.size() == 1) {
      print_general_help(stdout);
      return kExitOk;
    }
    const Command *c = find_command(args[1]);
    if (!c) {
      print_error(fmt::format("unknown command '{}' (see 'kerb --help')", args[1]));
      return kExitUsage;
    }
    std::fputs(c->help, stdout);
    return kExitOk;
  }
  const Command *c = find_command(first);
  if (!c) {
    if (looks_like_option(first))
      print_error(fmt::format("unknown option '{}' (see 'kerb --help')", first));
    else
      print_error(fmt::format("unknown command '{}' (see 'kerb --help')", first));
    return kExitUsage;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (wants_help(rest)) {
    std::fputs(c->help, stdout);
    return kExitOk;
  }
  try {
    return c->run(rest);
  } catch (const UsageError &e) {
    print_error(e.what());
    std::fprintf(stderr, "Try 'kerb %s --help'.\n", c->name);
    return kExitUsage;
  } catch (const InputError &e) {
    print_error(e.what());
    return kExitUsage;
  } catch (const codegen::EnvironmentError &e) {
    print_error(e.what());
    return kExitUsage;
  }
}

} // namespace

const std::vector<const Command *> &all_commands() {
  static const std::vector<const Command *> commands = {&kCheckCommand, &kRunCommand, &kDatasetCommand,
                                                        &kTestCommand, &kDifftestCommand,
                                                        &kCompileCommand, &kConfigCommand,
                                                        &kBenchCommand};
  return commands;
}

bool wants_help(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--") return false;
    if (a == "-h" || a == "--help") return true;
  }
  return false;
}

} // namespace kerb::driver

namespace {

int guarded_main(int argc, char **argv) {
  try {
    return kerb::driver::run_main(argc, argv);
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    kerb::driver::print_error("out of memory: an array or a program too large for this machine's memory");
    return kerb::driver::kExitFailure;
  } catch (const std::exception &e) {
    std::fflush(stdout);
    kerb::driver::print_error(fmt::format("internal error: {}", e.what()));
    return kerb::driver::kExitFailure;
  }
}

// The compiler recurses over the program (the parser, inference, defunctionalisation,
// the interpreter), as deep as the program nests: a library's sort whose comparison is
// passed through several higher-order functions (Futhark's sorts package, qsort
// (f64.<=)) needed more than the main thread's 8 MiB to defunctionalise. So the command
// runs on a thread of its own with kStackBytes of stack (address space, touched only as
// deep as it goes).
constexpr size_t kStackBytes = size_t(1) << 30;

struct MainCall {
  int argc;
  char **argv;
  int status;
};

void *main_thread(void *p) {
  auto *call = static_cast<MainCall *>(p);
  call->status = guarded_main(call->argc, call->argv);
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
  MainCall call{argc, argv, 0};
  pthread_attr_t attr;
  pthread_t thread;
  // Where the thread cannot be made, the command runs here, with the usual stack.
  if (pthread_attr_init(&attr) != 0) return guarded_main(argc, argv);
  bool made = pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
              pthread_create(&thread, &attr, main_thread, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!made) return guarded_main(argc, argv);
  if (pthread_join(thread, nullptr) != 0) return kerb::driver::kExitFailure;
  return call.status;
}
