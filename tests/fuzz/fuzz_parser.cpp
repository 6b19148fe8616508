// libFuzzer target: lexer and parser on arbitrary bytes, and the AST printer of
// --emit=ast on what parses.
#include "compiler/syntax/ast_printer.h"
#include "compiler/syntax/parser.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto file = kerb::fuzz::source_from(data, size);
  kerb::fuzz::on_big_stack([&] {
    kerb::fuzz::expect_only_compile_errors([&] {
      kerb::Program program = kerb::parse_program(file);
      (void)kerb::print_ast(program, false);
    });
  });
  return 0;
}
