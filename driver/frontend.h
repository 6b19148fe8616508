// The front end as the driver runs it: load a .fut file, parse it, type-check it.
// Used by `kerb check`, `kerb run` and `kerb test`; the first two print the
// diagnostic, the test runner matches it against a test's `error:` pattern.
#pragma once

#include "compiler/ast.h"

#include <optional>
#include <string>

namespace kerb::driver {

struct FrontendResult {
  std::optional<Program> program; // set on success
  // On failure: the rendered diagnostic (CompileError::render(), with its source line
  // and caret), or for a file that cannot be read, "cannot open 'PATH'".
  std::string diagnostic;
  bool unreadable = false; // the file could not be read (no diagnostic to render)
};

// How far run_frontend goes: the parsed program, the source checker's annotated
// program (--emit=inferred), the eliminated first-order program before its checker
// (--emit=first-order), or the checked program the interpreter and lowering take.
enum class FrontendStage : uint8_t { Parsed, Inferred, FirstOrder, Checked };

// Loads and parses `path`; type-checks it too when `check` is set (up to `stop`).
FrontendResult run_frontend(const std::string &path, bool check = true,
                            FrontendStage stop = FrontendStage::Checked);

// Prints a failed FrontendResult to stderr and returns the exit status for it:
// kExitUsage for an unreadable file ("kerb: error: ..."), kExitFailure for a compile
// error (the rendered diagnostic).
int report_frontend_failure(const FrontendResult &r);

// The entry point `name` of `program`: an `entry` definition, or (as Futhark allows)
// a plain `def main` when the program declares no entry points. Null if none.
const FunDef *find_entry(const Program &program, const std::string &name);

} // namespace kerb::driver
