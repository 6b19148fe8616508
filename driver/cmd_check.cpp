// `kerb check PROG [--emit=STAGE | --entries]`: runs the front end on a program and
// optionally prints one of its stages (tokens, ast, inferred, first-order, typed-ast;
// ir, kernels, llvm, ptx through codegen/), or (--entries) its entry points' types.
// Silent on success (like `futhark check`).
#include "codegen/compiled_program.h"
#include "driver/check_flags.h"
#include "driver/cli.h"
#include "driver/commands.h"
#include "driver/frontend.h"

#include "compiler/syntax/ast_printer.h"
#include "compiler/syntax/lexer.h"
#include "compiler/source.h"

#include <fmt/format.h>

#include <cstdio>

namespace kerb::driver {

namespace {

const char kHelp[] = R"(Usage: kerb check PROG [--emit=STAGE | --entries]

Parses and type-checks PROG. On success it prints nothing and exits with status 0;
on a compile error it prints the diagnostic (file:line:col, the source line and a
caret) on stderr and exits with status 1.

Options:
  --emit=tokens      print the tokens, one per line, and stop after lexing
  --emit=ast         print the parsed AST and stop before type checking
  --emit=inferred    print the AST with the types the source checker inferred
  --emit=first-order print the program the elimination passes make (first-order,
                     monomorphic: no polymorphism, function values, records or sums)
  --emit=typed-ast   type-check, then print the AST with every expression's type
  --entries          print the entry points, one a line, with their types after
                     type checking (records and opaque types as the tuples of their
                     components): `main: [n][m]f32 -> i64 -> []f32` (a main
                     defined with `def` counts when no entry is declared)
  -h, --help         show this help

  --emit=ir          lower to the core IR and print it
  --emit=kernels     print the kernel IR: which statements become kernels, how each
                     runs (strategy, versions, fused maps) and what it launches
  --emit=llvm        print the LLVM IR: host code and CPU kernels, then CUDA kernels
  --emit=ptx         print the PTX of the CUDA kernels
  --sm=SM            the PTX target: sm_80 (default; the driver JIT-compiles it for
                     newer GPUs) or sm_86, sm_89, sm_90

)" KERB_CHECK_FLAGS_HELP R"(
The check report goes to stdout (after any --emit output).
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

// --entries: "NAME: PARAM -> ... -> RESULT" for each entry point.
void print_entries(const Program &program) {
  for (const auto &def : program.defs) {
    if (find_entry(program, def->name) != def.get()) continue;
    std::string line = def->name + ":";
    for (const Pattern &p : def->params) line += " " + p.type.str() + " ->";
    line += " " + def->ret_type.str() + "\n";
    std::fputs(line.c_str(), stdout);
  }
}

int run_check(const std::vector<std::string> &args) {
  std::string emit, prog, sm;
  bool entries = false;
  CheckFlags checks;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (match_option(args, i, {"--emit"}, value)) {
      emit = value;
      continue;
    }
    if (args[i] == "--entries") {
      entries = true;
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
    if (looks_like_option(args[i])) throw UsageError(unknown_option("check", args[i]));
    if (!prog.empty()) throw UsageError("'kerb check' takes one program");
    prog = args[i];
  }
  if (prog.empty()) throw UsageError("'kerb check' needs a program (kerb check PROG)");
  bool codegen_stage = emit == "ir" || emit == "kernels" || emit == "llvm" || emit == "ptx";
  bool front_stage = emit == "inferred" || emit == "first-order";
  if (!emit.empty() && emit != "tokens" && emit != "ast" && emit != "typed-ast" &&
      !codegen_stage && !front_stage)
    throw UsageError(fmt::format("unknown stage '{}' for --emit (expected tokens, ast, inferred, "
                                 "first-order, typed-ast, ir, kernels, llvm or ptx)",
                                 emit));

  if ((emit == "tokens" || emit == "ast" || front_stage) &&
      (checks.report || !checks.dump_after.empty()))
    throw UsageError(fmt::format("--report-checks and --dump-after need a type-checked program: "
                                 "not with --emit={}",
                                 emit));
  if (entries && !emit.empty()) throw UsageError("--entries and --emit cannot be used together");
  if (emit == "tokens") return emit_tokens(prog);
  FrontendStage stop = emit == "inferred"      ? FrontendStage::Inferred
                       : emit == "first-order" ? FrontendStage::FirstOrder
                                               : FrontendStage::Checked;
  FrontendResult r = run_frontend(prog, /*check=*/emit != "ast", stop);
  if (!r.program) return report_frontend_failure(r);
  if (codegen_stage || !checks.dump_after.empty()) {
    codegen::CompileOptions co = checks.compile_options();
    if (!sm.empty()) co.sm = sm;
    std::string text;
    try {
      text = codegen::emit_stage(*r.program, codegen_stage ? emit : "ir", co);
    } catch (const CompileError &e) {
      std::fputs(e.render().c_str(), stderr);
      return kExitFailure;
    }
    if (codegen_stage) std::fputs(text.c_str(), stdout);
    if (checks.report) print_check_report(*r.program, checks, stdout);
    return kExitOk;
  }
  if (checks.report) print_check_report(*r.program, checks, stdout);
  if (entries) print_entries(*r.program);
  if (!emit.empty()) {
    std::string dump = print_ast(*r.program, /*with_types=*/emit == "typed-ast" || emit == "inferred");
    std::fputs(dump.c_str(), stdout);
    if (!dump.empty() && dump.back() != '\n') std::fputc('\n', stdout);
  }
  return kExitOk;
}

} // namespace

const Command kCheckCommand = {"check", "parse and type-check a program; --emit=STAGE dumps it",
                               kHelp, run_check};

} // namespace kerb::driver
