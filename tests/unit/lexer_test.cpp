// Unit tests for compiler/lexer: token kinds, literals and suffixes, qualified names,
// tuple projections, the `glued` flag, comments, and every lexing error with its span.
#include "compiler/syntax/lexer.h"

#include <catch2/catch.hpp>

using namespace kerb;

namespace {

std::vector<Token> lex_text(const SourceFile &f) { return lex(f); }

// "kind:text" for every token but Eof, for compact comparisons.
std::vector<std::string> kinds_and_texts(const std::string &src) {
  SourceFile f("t.fut", src);
  std::vector<std::string> out;
  for (const Token &t : lex_text(f)) {
    if (t.kind == TokenKind::Eof)
      break;
    const char *k = t.kind == TokenKind::Ident       ? "id"
                    : t.kind == TokenKind::QualIdent ? "qid"
                    : t.kind == TokenKind::IntLit    ? "int"
                    : t.kind == TokenKind::FloatLit  ? "float"
                    : t.kind == TokenKind::Keyword   ? "kw"
                    : t.kind == TokenKind::StringLit ? "str"
                    : t.kind == TokenKind::CharLit   ? "char"
                                                     : "sym";
    out.push_back(std::string(k) + ":" + t.text);
  }
  return out;
}

// The message and 1-based column of the error lexing `src` throws.
std::pair<std::string, int> lex_error(const std::string &src) {
  SourceFile f("t.fut", src);
  try {
    lex(f);
  } catch (const CompileError &e) {
    return {e.what(), f.col_of(e.span().begin)};
  }
  return {"no error", 0};
}

} // namespace

TEST_CASE("identifiers, keywords and symbols", "[lexer]") {
  using V = std::vector<std::string>;
  CHECK(kinds_and_texts("def f' x_1 = x_1 + 1 -- comment\nin") ==
        V{"kw:def", "id:f'", "id:x_1", "sym:=", "id:x_1", "sym:+", "int:1", "kw:in"});
  CHECK(kinds_and_texts("a//b %% c ** d >>> e |> f <| g ++ h :> i") ==
        V{"id:a", "sym://", "id:b", "sym:%%", "id:c", "sym:**", "id:d", "sym:>>>", "id:e",
          "sym:|>", "id:f", "sym:<|", "id:g", "sym:++", "id:h", "sym::>", "id:i"});
  CHECK(kinds_and_texts("\\x -> #[unsafe] a..b...c ..< ..>") ==
        V{"sym:\\", "id:x", "sym:->", "sym:#[", "id:unsafe", "sym:]", "id:a", "sym:..", "id:b",
          "sym:...", "id:c", "sym:..<", "sym:..>"});
  CHECK(kinds_and_texts("module type match case") == V{"kw:module", "kw:type", "kw:match", "kw:case"});
}

TEST_CASE("qualified names of the numeric modules", "[lexer]") {
  using V = std::vector<std::string>;
  CHECK(kinds_and_texts("f32.sqrt i32.highest bool.i32 u8.f64") ==
        V{"qid:f32.sqrt", "qid:i32.highest", "qid:bool.i32", "qid:u8.f64"});
  // Not a module name: identifier, dot, identifier (the parser rejects field access).
  CHECK(kinds_and_texts("r.x") == V{"id:r", "sym:.", "id:x"});
}

TEST_CASE("tuple projections never lex as floats", "[lexer]") {
  using V = std::vector<std::string>;
  CHECK(kinds_and_texts("t.0.1") == V{"id:t", "sym:.", "int:0", "sym:.", "int:1"});
  CHECK(kinds_and_texts("(a).1 xs[0].2") ==
        V{"sym:(", "id:a", "sym:)", "sym:.", "int:1", "id:xs", "sym:[", "int:0", "sym:]", "sym:.", "int:2"});
  CHECK(kinds_and_texts("0.1") == V{"float:0.1"});
  CHECK(kinds_and_texts("1..10") == V{"int:1", "sym:..", "int:10"});
}

TEST_CASE("integer and float literals with suffixes", "[lexer]") {
  SourceFile f("t.fut", "42 0xff 0b101 1_000 3i64 0xffu8 2.5 1e-3 1.5E+3f32 2f32 0x1.8p1 7u16");
  std::vector<Token> ts = lex(f);
  REQUIRE(ts.size() == 13);
  CHECK(ts[0].int_value == 42);
  CHECK(!ts[0].suffix);
  CHECK(ts[1].int_value == 255);
  CHECK(ts[2].int_value == 5);
  CHECK(ts[3].int_value == 1000);
  CHECK(ts[4].int_value == 3);
  CHECK(ts[4].suffix == PrimType::I64);
  CHECK(ts[5].int_value == 255);
  CHECK(ts[5].suffix == PrimType::U8);
  CHECK(ts[6].kind == TokenKind::FloatLit);
  CHECK(ts[6].float_value == 2.5);
  CHECK(ts[7].float_value == Approx(0.001));
  CHECK(ts[8].float_value == 1500.0);
  CHECK(ts[8].suffix == PrimType::F32);
  CHECK(ts[9].kind == TokenKind::FloatLit); // an integer literal with a float suffix
  CHECK(ts[9].float_value == 2.0);
  CHECK(ts[9].suffix == PrimType::F32);
  CHECK(ts[10].kind == TokenKind::FloatLit);
  CHECK(ts[10].float_value == 3.0);
  CHECK(ts[11].suffix == PrimType::U16);
  CHECK(ts[12].kind == TokenKind::Eof);
}

TEST_CASE("the glued flag tells a[i] from f [i]", "[lexer]") {
  SourceFile f("t.fut", "a[i] f [i]\n(x)");
  std::vector<Token> ts = lex(f);
  CHECK_FALSE(ts[0].glued); // a
  CHECK(ts[1].glued);       // [ after a
  CHECK_FALSE(ts[4].glued); // f
  CHECK_FALSE(ts[5].glued); // [ after f and a space
  CHECK_FALSE(ts[8].glued); // ( after a newline
}

TEST_CASE("token spans", "[lexer]") {
  SourceFile f("t.fut", "def  main = 10i32");
  std::vector<Token> ts = lex(f);
  CHECK(ts[1].span.text() == "main");
  CHECK(f.col_of(ts[1].span.begin) == 6);
  CHECK(ts[3].span.text() == "10i32");
  CHECK(ts[4].kind == TokenKind::Eof);
}

TEST_CASE("lexing errors carry their location", "[lexer]") {
  CHECK(lex_error("x = 1 $ 2") == std::pair<std::string, int>{"unexpected character '$'", 7});
  CHECK(lex_error("x = \"abc") == std::pair<std::string, int>{"unterminated string literal", 5});
  CHECK(lex_error("x = 12abc") == std::pair<std::string, int>{"invalid suffix 'abc' on numeric literal", 5});
  CHECK(lex_error("x = 1.5i32").first == "float literal cannot have the integer suffix 'i32'");
  CHECK(lex_error("x = 0x").first == "malformed hexadecimal literal: no digits");
  CHECK(lex_error("x = 0b102").first == "invalid digit '2' in binary literal");
  CHECK(lex_error("x = 99999999999999999999999").first == "integer literal is too large");
  CHECK(lex_error("1boolx").first == "invalid suffix 'boolx' on numeric literal");
  CHECK(lex_error("# x").first == "unexpected character '#'");
}

TEST_CASE("string and character literals", "[lexer]") {
  using V = std::vector<std::string>;
  // Escapes as Haskell reads them (Note [String and character literals]); the text is
  // the string's UTF-8 bytes.
  CHECK(kinds_and_texts(R"(import "lib/x" "a\tb\"\\\'")") == V{"kw:import", "str:lib/x", "str:a\tb\"\\'"});
  CHECK(kinds_and_texts(R"("\65\x42\o103\&4\SOH\SO\^A\DEL\   \z")") == V{"str:ABC4\x01\x0e\x01\x7fz"});
  CHECK(kinds_and_texts("\"h\xc3\xa9\\955\\1114111\\xd800\"") ==
        V{"str:h\xc3\xa9\xce\xbb\xf4\x8f\xbf\xbf\xef\xbf\xbd"});
  SourceFile f("t.fut", "'a' '\\n' '\\'' '\"' '\\955' '\xce\xbb' x' f'' 'a '^b '~c");
  std::vector<Token> ts = lex(f);
  REQUIRE(ts.size() == 17); // 'a '^ b '~ c: the symbol ' of type parameters
  std::vector<uint64_t> codes{'a', '\n', '\'', '"', 955, 955};
  for (size_t i = 0; i < codes.size(); i++) {
    CHECK(ts[i].kind == TokenKind::CharLit);
    CHECK(ts[i].int_value == codes[i]);
  }
  CHECK(ts[5].span.text() == "'\xce\xbb'");
  CHECK(ts[6].text == "x'");
  CHECK(ts[7].text == "f''");
  for (size_t i : {8, 10, 13}) {
    CHECK(ts[i].kind == TokenKind::Symbol);
    CHECK(ts[i].text == "'");
  }
  // Maximal munch, as in Futhark: ' ' is a character literal, 'ab' is no literal.
  CHECK(kinds_and_texts("'''") == V{"sym:'", "sym:'", "sym:'"});
  CHECK(kinds_and_texts("'ab'") == V{"sym:'", "id:ab'"});
  CHECK(kinds_and_texts("'' ' '") == V{"sym:'", "char:' '", "sym:'"});
}

TEST_CASE("errors in string and character literals", "[lexer]") {
  using P = std::pair<std::string, int>;
  CHECK(lex_error("x = \"a\\qb\"") == P{"invalid escape '\\q' in a string literal", 7});
  CHECK(lex_error("x = \"\\x\"") == P{"invalid escape '\\x' in a string literal", 6});
  CHECK(lex_error("x = \"\\1114112\"") ==
        P{"escape '\\1114112' in a string literal is beyond the largest code point, \\1114111", 6});
  CHECK(lex_error("x = \"a\tb\"").first ==
        "a string literal cannot contain the control character 0x09: write it as an escape, "
        "such as \\n or \\t");
  CHECK(lex_error("x = \"a\nb\"") == P{"unterminated string literal", 5});
  CHECK(lex_error("x = \"\xff\"") == P{"invalid UTF-8 in a string literal (byte 0xff)", 6});
  CHECK(lex_error("x = \"\xc0\x80\"").first == "invalid UTF-8 in a string literal (byte 0xc0)");
  CHECK(lex_error("x = '\\x41'") == P{"invalid escape '\\x' in a character literal", 6});
  CHECK(lex_error("x = '\\&'") == P{"invalid escape '\\&' in a character literal", 6});
  CHECK(lex_error("x = '\\65") ==
        P{"unterminated character literal (a character literal holds one character)", 5});
}

TEST_CASE("user-defined operators and constructors", "[lexer]") {
  CHECK(kinds_and_texts("x +^ y >-> z <-< w") ==
        std::vector<std::string>{"id:x", "sym:+^", "id:y", "sym:>->", "id:z", "sym:<-<", "id:w"});
  SourceFile f("t.fut", "#some 'a '^b '~c");
  std::vector<Token> ts = lex(f);
  CHECK(ts[0].kind == TokenKind::Constructor);
  CHECK(ts[0].text == "some");
  CHECK(ts[0].span.text() == "#some");
  CHECK(ts[4].text == "^");
  CHECK(ts[7].text == "~");
}

TEST_CASE("dump_tokens prints one token per line", "[lexer]") {
  SourceFile f("t.fut", "x 1i8");
  std::string d = dump_tokens(lex(f));
  CHECK(d == "1:1 ident x\n1:3 int 1 suffix=i8\n1:6 eof\n");
}
