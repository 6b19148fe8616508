// libFuzzer target: the lexer on arbitrary bytes, and the token dump of --emit=tokens.
#include "compiler/syntax/lexer.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto file = kerb::fuzz::source_from(data, size);
  kerb::fuzz::on_big_stack([&] {
    kerb::fuzz::expect_only_compile_errors([&] {
      std::vector<kerb::Token> tokens = kerb::lex(*file);
      (void)kerb::dump_tokens(tokens);
    });
  });
  return 0;
}
