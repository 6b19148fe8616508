// `kerb compile PROG --emit=ptx|llvm|ir [-o FILE]`: writes a stage of the compiled
// program to a file (or stdout); `kerb compile --library PROG -o DIR/NAME`: writes
// DIR/NAME.h and DIR/libNAME.a, the program as a static library with a C API
// (codegen/library.h, driver/c_header.h).
#include "codegen/compiled_program.h"
#include "codegen/library.h"
#include "driver/c_header.h"
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb compile PROG --emit=STAGE [-o FILE] [options]
       kerb compile --library PROG -o DIR/NAME [options]

Compiles PROG and writes one stage of the result to FILE (default: stdout):
  --emit=ptx       the PTX of its CUDA kernels (load it with cuModuleLoadData)
  --emit=llvm      the LLVM IR: host code and CPU kernels, then the CUDA kernels
  --emit=ir        the core IR, with its check sites
or, with --library, the program as a static library with a C API:
  DIR/NAME.h       its C API (and C++ functions under __cplusplus; <kerb/kerb.hpp>)
  DIR/libNAME.a    the host code for both devices, the CPU kernels, the PTX and the
                   failure table; the device is chosen at run time, with no LLVM there
  Build against it with `kerb config --cflags --libs` (docs/C-API.md).
Options:
  -o, --output FILE  where to write (a missing directory is an error)
  --sm=SM            PTX target: sm_80 (default), sm_86, sm_89, sm_90
  --cpu=CPU          --library: the x86-64 CPU to compile host code for: x86-64
                     (default: any x86-64), x86-64-v2, x86-64-v3, native, ...
  -h, --help         show this help

)" KERB_CHECK_FLAGS_HELP R"(
The check report goes to stderr.
Exit status: 0 written; 1 a compile error; 2 a usage error or an unwritable file.
)";

void write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw InputError(fmt::format("cannot write '{}'", path));
  f << text;
  f.close();
  if (!f) throw InputError(fmt::format("cannot write '{}'", path));
}

// `--library -o DIR/NAME`.
int write_library(const Program &program, const std::string &out, const codegen::LibraryOptions &opts) {
  std::filesystem::path base(out);
  std::string name = base.filename().string();
  if (name.empty() || name == "." || name == "..")
    throw UsageError(fmt::format("-o '{}' must end in the library's name (DIR/NAME)", out));
  std::filesystem::path dir = base.parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    throw InputError(fmt::format("cannot write '{}': no directory '{}'", out, dir.string()));
  codegen::Library lib;
  try {
    lib = codegen::compile_library(program, name, opts);
  } catch (const CompileError &e) {
    std::fputs(e.render().c_str(), stderr);
    return kExitFailure;
  } catch (const std::invalid_argument &e) {
    throw UsageError(e.what());
  }
  write_file((dir / (name + ".h")).string(), c_header(name, program, lib));
  write_file((dir / ("lib" + name + ".a")).string(), lib.archive);
  return kExitOk;
}

int run_compile(const std::vector<std::string> &args) {
  std::string prog, emit, out, sm, cpu;
  bool library = false;
  CheckFlags checks;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"--emit"}, value)) {
      emit = value;
      continue;
    }
    if (match_option(args, i, {"-o", "--output"}, value)) {
      out = value;
      continue;
    }
    if (match_option(args, i, {"--sm"}, value)) {
      if (value != "sm_80" && value != "sm_86" && value != "sm_89" && value != "sm_90")
        throw UsageError(fmt::format("unsupported --sm '{}' (expected sm_80, sm_86, sm_89 or "
                                     "sm_90)",
                                     value));
      sm = value;
      continue;
    }
    if (match_check_flag(args, i, checks, /*runs_code=*/false)) continue;
    if (match_option(args, i, {"--cpu"}, value)) {
      cpu = value;
      continue;
    }
    if (args[i] == "--library") {
      library = true;
      continue;
    }
    if (looks_like_option(args[i])) throw UsageError(unknown_option("compile", args[i]));
    if (!prog.empty()) throw UsageError("'kerb compile' takes one program");
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb compile' needs a program (kerb compile PROG)");
  if (library && !emit.empty()) throw UsageError("--library and --emit do not go together");
  if (!library && !cpu.empty()) throw UsageError("--cpu goes with --library");
  if (library && out.empty())
    throw UsageError("'kerb compile --library' needs -o DIR/NAME (it writes DIR/NAME.h and "
                     "DIR/libNAME.a)");
  if (!library && emit.empty())
    throw UsageError("'kerb compile' needs --emit=ptx, llvm or ir, or --library");
  if (!library && emit != "ptx" && emit != "llvm" && emit != "ir")
    throw UsageError(fmt::format("unknown stage '{}' for --emit (expected ptx, llvm or ir)", emit));

  FrontendResult fr = run_frontend(prog);
  if (!fr.program) return report_frontend_failure(fr);
  if (checks.report) print_check_report(*fr.program, checks, stderr);
  codegen::CompileOptions co = checks.compile_options();
  if (!sm.empty()) co.sm = sm;
  if (library) {
    codegen::LibraryOptions lo;
    lo.compile = co;
    if (!cpu.empty()) lo.cpu = cpu;
    return write_library(*fr.program, out, lo);
  }
  std::string text;
  try {
    text = codegen::emit_stage(*fr.program, emit, co);
  } catch (const CompileError &e) {
    std::fputs(e.render().c_str(), stderr);
    return kExitFailure;
  }
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  write_file(out, text);
  return kExitOk;
}

} // namespace

const Command kCompileCommand = {"compile", "compile a program to a library with a C API, or write a stage",
                                 kHelp, run_compile};

} // namespace kerb::driver
