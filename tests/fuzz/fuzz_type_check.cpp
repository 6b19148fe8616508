// libFuzzer target: the whole front end (lexer, parser, type checker) on arbitrary
// bytes, and the typed AST printer of --emit=typed-ast on what type-checks.
#include "compiler/syntax/ast_printer.h"
#include "compiler/syntax/parser.h"
#include "compiler/types/type_check.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto file = kerb::fuzz::source_from(data, size);
  kerb::fuzz::on_big_stack([&] {
    kerb::fuzz::expect_only_compile_errors([&] {
      kerb::Program program = kerb::parse_program(file);
      kerb::type_check(program);
      (void)kerb::print_ast(program, true);
    });
  });
  return 0;
}
