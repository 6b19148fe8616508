// `kerb compile PROG --emit=ptx|llvm|ir [-o FILE]`: writes a stage of the compiled
// program to a file (or stdout). `--library` (a linkable library with a C API) comes
// with its own issue and says so.
#include "codegen/compiled_program.h"
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb compile PROG --emit=STAGE [-o FILE] [options]

Compiles PROG and writes one stage of the result to FILE (default: stdout):
  --emit=ptx       the PTX of its CUDA kernels (load it with cuModuleLoadData)
  --emit=llvm      the LLVM IR: host code and CPU kernels, then the CUDA kernels
  --emit=ir        the core IR, with its check sites
Options:
  -o, --output FILE  where to write (a missing directory is an error)
  --sm=SM            PTX target: sm_80 (default), sm_86, sm_89, sm_90
  --library          a linkable library with a C header: not available yet
  -h, --help         show this help

)" KERB_CHECK_FLAGS_HELP R"(
The check report goes to stderr.
Exit status: 0 written; 1 a compile error; 2 a usage error or an unwritable file.
)";

int run_compile(const std::vector<std::string> &args) {
  std::string prog, emit, out, sm;
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
    if (args[i] == "--library")
      throw UsageError("'kerb compile --library' is not available in this build yet; "
                       "--emit=ptx|llvm|ir works");
    if (looks_like_option(args[i])) throw UsageError(unknown_option("compile", args[i]));
    if (!prog.empty()) throw UsageError("'kerb compile' takes one program");
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb compile' needs a program (kerb compile PROG)");
  if (emit.empty()) throw UsageError("'kerb compile' needs --emit=ptx, llvm or ir");
  if (emit != "ptx" && emit != "llvm" && emit != "ir")
    throw UsageError(fmt::format("unknown stage '{}' for --emit (expected ptx, llvm or ir)", emit));

  FrontendResult fr = run_frontend(prog);
  if (!fr.program) return report_frontend_failure(fr);
  if (checks.report) print_check_report(*fr.program, checks, stderr);
  codegen::CompileOptions co = checks.compile_options();
  if (!sm.empty()) co.sm = sm;
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
  std::ofstream f(out, std::ios::binary);
  if (!f) throw InputError(fmt::format("cannot write '{}'", out));
  f << text;
  f.close();
  if (!f) throw InputError(fmt::format("cannot write '{}'", out));
  return kExitOk;
}

} // namespace

const Command kCompileCommand = {"compile", "compile a program and write its PTX, LLVM IR or core IR",
                                 kHelp, run_compile};

} // namespace kerb::driver
