// Runs lexer, parser and type checker on one file for the driver (see frontend.h).
#include "driver/frontend.h"

#include "compiler/elim/eliminate.h"
#include "compiler/modules/elaborate_modules.h"
#include "compiler/prelude.h"
#include "compiler/source.h"
#include "compiler/syntax/parser.h"
#include "compiler/types/check_consumption.h"
#include "compiler/types/check_first_order.h"
#include "compiler/types/check_type_declarations.h"
#include "compiler/types/infer.h"
#include "driver/cli.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

namespace kerb::driver {

FrontendResult run_frontend(const std::string &path, bool check, FrontendStage stop) {
  FrontendResult r;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    r.unreadable = true;
    r.diagnostic = fmt::format("'{}' is a directory, not a .fut file", path);
    return r;
  }
  // Declared outside the try: a CompileError's span points into the file's text (or an
  // imported file's, which the program keeps), so both must outlive the handler that
  // renders it.
  std::shared_ptr<const SourceFile> file;
  Program program;
  try {
    file = load_source_file(path);
    program = parse_program(file);
    if (check) elaborate_modules(program); // imports and modules (compiler/modules)
    // The stages of type_check() (compiler/types/type_check.cpp), one at a time.
    if (check) add_prelude(program);
    if (check && stop >= FrontendStage::Inferred) {
      WrittenEntryTypes written = written_entry_types(program);
      check_type_declarations(program);
      infer_types(program);
      describe_entry_types(program, written); // before the elimination (entry_types.h)
      check_consumption(program);
    }
    if (check && stop >= FrontendStage::FirstOrder) eliminate(program);
    if (check && stop >= FrontendStage::Checked) check_first_order(program);
    r.program = std::move(program);
  } catch (const CompileError &e) {
    r.unreadable = !e.span().valid();
    r.diagnostic = r.unreadable ? std::string(e.what()) : e.render();
  } catch (const std::exception &e) {
    // A bug in the front end; shown like a diagnostic so that it is never lost.
    r.diagnostic = fmt::format("{}: internal error: {}\n", path, e.what());
  }
  return r;
}

int report_frontend_failure(const FrontendResult &r) {
  if (r.unreadable) {
    print_error(r.diagnostic);
    return kExitUsage;
  }
  std::fputs(r.diagnostic.c_str(), stderr);
  if (!r.diagnostic.empty() && r.diagnostic.back() != '\n') std::fputc('\n', stderr);
  return kExitFailure;
}

const FunDef *find_entry(const Program &program, const std::string &name) {
  bool any_entry = false;
  for (const auto &def : program.defs)
    any_entry = any_entry || def->is_entry;
  for (const auto &def : program.defs) {
    if (def->name != name) continue;
    if (def->is_entry || (!any_entry && name == "main")) return def.get();
  }
  return nullptr;
}

} // namespace kerb::driver
