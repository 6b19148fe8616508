// `kerb check PROG [--emit=tokens|ast|typed-ast]`: runs the front end on a program
// and optionally prints one of its stages. Silent on success (like `futhark check`).
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"

#include "compiler/ast_printer.h"
#include "compiler/lexer.h"
#include "compiler/source.h"

#include <fmt/format.h>

#include <cstdio>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb check PROG [--emit=STAGE]

Parses and type-checks PROG. On success it prints nothing and exits with status 0;
on a compile error it prints the diagnostic (file:line:col, the source line and a
caret) on stderr and exits with status 1.

Options:
  --emit=tokens      print the tokens, one per line, and stop after lexing
  --emit=ast         print the parsed AST and stop before type checking
  --emit=typed-ast   type-check, then print the AST with every expression's type
  -h, --help         show this help

The later stages (--emit=ir, llvm, ptx) come with code generation.
)";

int emit_tokens(const std::string &path) {
  FrontendResult r;
  try {
    std::shared_ptr<const SourceFile> file = load_source_file(path);
    std::string dump = dump_tokens(lex(*file));
    std::fputs(dump.c_str(), stdout);
    return kExitOk;
  } catch (const CompileError &e) {
    r.unreadable = !e.span().valid();
    r.diagnostic = r.unreadable ? std::string(e.what()) : e.render();
  }
  return report_frontend_failure(r);
}

int run_check(const std::vector<std::string> &args) {
  std::string emit, prog;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"--emit"}, value)) {
      emit = value;
      continue;
    }
    if (looks_like_option(args[i])) throw UsageError(unknown_option("check", args[i]));
    if (!prog.empty()) throw UsageError("'kerb check' takes one program");
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb check' needs a program (kerb check PROG)");
  if (emit == "ir" || emit == "llvm" || emit == "ptx")
    throw UsageError(fmt::format("--emit={} is not available in this build (code generation "
                                 "comes later)",
                                 emit));
  if (!emit.empty() && emit != "tokens" && emit != "ast" && emit != "typed-ast")
    throw UsageError(
        fmt::format("unknown stage '{}' for --emit (expected tokens, ast or typed-ast)", emit));

  if (emit == "tokens") return emit_tokens(prog);
  FrontendResult r = run_frontend(prog, /*check=*/emit != "ast");
  if (!r.program) return report_frontend_failure(r);
  if (!emit.empty()) {
    std::string dump = print_ast(*r.program, /*with_types=*/emit == "typed-ast");
    std::fputs(dump.c_str(), stdout);
    if (!dump.empty() && dump.back() != '\n') std::fputc('\n', stdout);
  }
  return kExitOk;
}

} // namespace

const Command kCheckCommand = {"check", "parse and type-check a program; --emit=STAGE dumps it",
                               kHelp, run_check};

} // namespace kerb::driver
