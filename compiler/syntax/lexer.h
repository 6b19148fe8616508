// The lexer: source text -> tokens. Comments (`-- ...` to end of line) are skipped,
// except that the parser never needs them (test blocks are read by driver/test_spec).
#pragma once

#include "compiler/source.h"
#include "runtime/value.h"

#include <optional>
#include <string>
#include <vector>

namespace kerb {

enum class TokenKind : uint8_t {
  Eof,
  Ident,        // x, map, f32 (also the module part of a qualified name)
  QualIdent,    // f32.sqrt, i32.highest (text holds the whole "f32.sqrt")
  IntLit,       // 42, 0xff, 0b101, 1_000, 3i64 (suffix in `suffix`)
  FloatLit,     // 2.5, 1e-3, 2f32, 0x1.8p3
  Keyword,      // def let entry in if then else loop for while do with assert true
                // false unsafe-free keywords: see lexer.cpp
  Symbol,       // operators (also user-defined ones: +^, >->) and punctuation:
                // ( ) [ ] { } , : :> \ -> #[ ' ` ...
  Constructor,  // #some, #red: a sum type's constructor (text holds "some")
  StringLit,    // "abc": text holds the string's UTF-8 bytes, escapes decoded
  CharLit,      // 'a', '\n': int_value holds the character's code point
  Error,        // not produced: lexing errors throw CompileError
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  Span span;
  std::string text;               // as written (Ident, QualIdent, Keyword, Symbol)
  uint64_t int_value = 0;         // IntLit, CharLit
  double float_value = 0;         // FloatLit
  std::optional<PrimType> suffix; // IntLit/FloatLit
  // True when no whitespace separates this token from the previous one. The parser
  // needs it for `a[i]` (indexing) vs `f [1,2]` (application to an array literal), and
  // for `t.0` (projection).
  bool glued = false;
};

// Throws CompileError at the first malformed token.
std::vector<Token> lex(const SourceFile &file);

// One token per line, for --emit=tokens.
std::string dump_tokens(const std::vector<Token> &tokens);

} // namespace kerb
