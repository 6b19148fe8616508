// `kerb config --cflags --libs`: the flags to compile against a compiled library's
// header (<kerb/kerb.h>) and to link Kerb's runtime (lib/libkerb_runtime.a). Both are
// found next to the `kerb` binary: in a build tree, kerb sits beside include/ and lib/;
// in an install, in bin/ beside them.
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/runtime_layout.h"

#include <fmt/format.h>

#include <cstdio>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb config OPTION...

Prints, on one line, what building against a compiled library (kerb compile --library)
needs:
  --cflags       -I for <kerb/kerb.h> and <kerb/kerb.hpp>
  --libs         -L and -l for the Kerb runtime and what it needs (C++ library, libm,
                 libdl, pthreads); the CUDA driver is loaded at run time, never linked
  --include-dir  the directory holding kerb/kerb.h
  --lib-dir      the directory holding libkerb_runtime.a
  --cmake-dir    the directory holding KerbConfig.cmake (for find_package(Kerb))
  -h, --help     show this help
For example:
  kerb compile --library prog.fut -o out/prog
  cc app.c out/libprog.a -o app $(kerb config --cflags --libs)
Exit status: 0 printed; 2 a usage error, or the runtime is not next to this kerb.
)";

int run_config(const std::vector<std::string> &args) {
  if (args.empty()) throw UsageError("'kerb config' needs an option (--cflags, --libs, ...)");
  std::vector<std::string> parts;
  RuntimeLayout l;
  bool found = false;
  auto layout = [&]() -> const RuntimeLayout & {
    if (!found) l = find_runtime_layout();
    found = true;
    return l;
  };
  for (const std::string &a : args) {
    if (a == "--cflags")
      parts.push_back("-I" + layout().include.string());
    else if (a == "--libs")
      parts.push_back(fmt::format("-L{} -lkerb_runtime -lstdc++ -lm -ldl -lpthread", layout().lib.string()));
    else if (a == "--include-dir")
      parts.push_back(layout().include.string());
    else if (a == "--lib-dir")
      parts.push_back(layout().lib.string());
    else if (a == "--cmake-dir")
      parts.push_back((layout().lib / "cmake" / "Kerb").string());
    else if (looks_like_option(a))
      throw UsageError(unknown_option("config", a));
    else
      throw UsageError(fmt::format("'kerb config' takes options only, not '{}'", a));
  }
  std::string line;
  for (const std::string &p : parts) line += (line.empty() ? "" : " ") + p;
  std::printf("%s\n", line.c_str());
  return kExitOk;
}

} // namespace

const Command kConfigCommand = {"config", "print the flags to build against a compiled library",
                                kHelp, run_config};

} // namespace kerb::driver
