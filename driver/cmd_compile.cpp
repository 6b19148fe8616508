// `kerb compile PROG --emit=ptx|llvm|kernels|ir [-o FILE]`: writes a stage of the compiled
// program to a file (or stdout); `kerb compile --library PROG -o DIR/NAME`: writes
// DIR/NAME.h and DIR/libNAME.a, the program as a static library with a C API
// (codegen/library.h, driver/c_header.h); with --shared also DIR/libNAME.so, linked by the
// C compiler, with the library's manifest (driver/manifest.h) for bindings.
#include "codegen/compiled_program.h"
#include "codegen/library.h"
#include "driver/c_header.h"
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"
#include "driver/manifest.h"
#include "driver/runtime_layout.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb compile PROG --emit=STAGE [-o FILE] [options]
       kerb compile --library PROG -o DIR/NAME [--shared] [options]

Compiles PROG and writes one stage of the result to FILE (default: stdout):
  --emit=ptx       the PTX of its CUDA kernels (load it with cuModuleLoadData)
  --emit=llvm      the LLVM IR: host code and CPU kernels, then the CUDA kernels
  --emit=ir        the core IR, with its check sites
  --emit=kernels   the kernel IR: the kernels of each entry point and how they run
or, with --library, the program as a static library with a C API:
  DIR/NAME.h       its C API (and C++ functions under __cplusplus; <kerb/kerb.hpp>)
  DIR/libNAME.a    the host code for both devices, the CPU kernels, the PTX and the
                   failure table; the device is chosen at run time, with no LLVM there
  Build against it with `kerb config --cflags --libs` (docs/C-API.md).
  With --shared, also
  DIR/libNAME.so     the same with Kerb's runtime, as a shared library exporting only
                     the C API and kerb_program_manifest() (a JSON description of the
                     entries), for the Python package (docs/PYTHON.md); linked by the
                     C compiler ($CC, or cc)
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

// `s` quoted for the shell.
std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `s` as a C string literal.
std::string c_string(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '\\' || c == '"' || c == '?')
      out += std::string("\\") + char(c);
    else if (c == '\n')
      out += "\\n\"\n\"";
    else if (c < 0x20)
      out += fmt::format("\\{:03o}", c);
    else
      out += char(c);
  }
  return out + "\"";
}

// `--shared`: DIR/libNAME.so from DIR/libNAME.a and the runtime, linked by the C
// compiler; it exports the C API (kerb_*) only, so that the runtime's C++ symbols never
// meet those of other libraries in the process (two programs, PyTorch's fmt).
void link_shared(const std::filesystem::path &dir, const std::string &name, const std::string &manifest) {
  RuntimeLayout l = find_runtime_layout();
  std::string tmpl = (std::filesystem::temp_directory_path() / "kerb-link-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw InputError("cannot make a temporary directory to link in");
  std::filesystem::path tmp(tmpl);
  struct Cleanup {
    std::filesystem::path p;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(p, ec);
    }
  } cleanup{tmp};
  write_file((tmp / "manifest.c").string(),
             "/* Written by kerb compile --shared. */\nconst char *kerb_program_manifest(void) {\n  return " +
                 c_string(manifest) + ";\n}\n");
  write_file((tmp / "exports.map").string(), "{ global: kerb_*; local: *; };\n");
  const char *env_cc = std::getenv("CC");
  std::string cc = env_cc && *env_cc ? env_cc : "cc";
  std::filesystem::path so = dir / ("lib" + name + ".so"), archive = dir / ("lib" + name + ".a");
  // Where the C++ library has no linker name (libstdc++.so comes with a -dev package),
  // its soname.
  int status = 1;
  for (const char *stdcxx : {"-lstdc++", "-l:libstdc++.so.6"}) {
    std::string cmd = fmt::format(
        "{} -shared -fPIC -O1 -o {} {} -Wl,--whole-archive {} -Wl,--no-whole-archive {} {} -lm -ldl "
        "-lpthread -Wl,--version-script={} -Wl,-Bsymbolic -Wl,-z,defs >{} 2>&1",
        cc, shell_quote(so.string()), shell_quote((tmp / "manifest.c").string()), shell_quote(archive.string()),
        shell_quote((l.lib / "libkerb_runtime.a").string()), stdcxx, shell_quote((tmp / "exports.map").string()),
        shell_quote((tmp / "log").string()));
    status = std::system(cmd.c_str());
    if (status == 0) break;
  }
  if (status != 0) {
    std::ifstream log(tmp / "log");
    std::stringstream text;
    text << log.rdbuf();
    throw InputError(fmt::format("linking {} failed ({} is the C compiler; set CC to use another):\n{}",
                                 so.string(), cc, text.str()));
  }
}

// `--library -o DIR/NAME`.
int write_library(const Program &program, const std::string &out, const codegen::LibraryOptions &opts,
                  bool shared, const std::string &flags) {
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
  if (shared) link_shared(dir, name, library_manifest(name, program, lib, flags));
  return kExitOk;
}

int run_compile(const std::vector<std::string> &args) {
  std::string prog, emit, out, sm, cpu;
  bool library = false, shared = false;
  std::string flags; // the check flags, for the manifest
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
    size_t before = i;
    if (match_check_flag(args, i, checks, /*runs_code=*/false)) {
      for (size_t k = before; k <= i; k++) flags += (flags.empty() ? "" : " ") + args[k];
      continue;
    }
    if (match_option(args, i, {"--cpu"}, value)) {
      cpu = value;
      continue;
    }
    if (args[i] == "--library") {
      library = true;
      continue;
    }
    if (args[i] == "--shared") {
      shared = true;
      continue;
    }
    if (looks_like_option(args[i])) throw UsageError(unknown_option("compile", args[i]));
    if (!prog.empty()) throw UsageError("'kerb compile' takes one program");
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb compile' needs a program (kerb compile PROG)");
  if (library && !emit.empty()) throw UsageError("--library and --emit do not go together");
  if (!library && !cpu.empty()) throw UsageError("--cpu goes with --library");
  if (!library && shared) throw UsageError("--shared goes with --library");
  if (library && out.empty())
    throw UsageError("'kerb compile --library' needs -o DIR/NAME (it writes DIR/NAME.h and "
                     "DIR/libNAME.a)");
  if (!library && emit.empty())
    throw UsageError("'kerb compile' needs --emit=ptx, llvm, kernels or ir, or --library");
  if (!library && emit != "ptx" && emit != "llvm" && emit != "kernels" && emit != "ir")
    throw UsageError(fmt::format("unknown stage '{}' for --emit (expected ptx, llvm, kernels or ir)", emit));

  FrontendResult fr = run_frontend(prog);
  if (!fr.program) return report_frontend_failure(fr);
  if (checks.report) print_check_report(*fr.program, checks, stderr);
  codegen::CompileOptions co = checks.compile_options();
  if (!sm.empty()) co.sm = sm;
  if (library) {
    codegen::LibraryOptions lo;
    lo.compile = co;
    if (!cpu.empty()) lo.cpu = cpu;
    return write_library(*fr.program, out, lo, shared, flags);
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
