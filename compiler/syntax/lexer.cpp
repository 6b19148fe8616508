// The lexer: turns a source file into tokens (lexer.h). It follows Futhark's lexical
// rules: `--` comments, identifiers with primes, qualified names of the numeric modules
// (`f32.sqrt`), tuple projections (`t.0.1` is t . 0 . 1), integer and float literals
// with `_` separators and type suffixes, constructors (`#some`), and operators lexed by
// maximal munch over operator characters (so a user-defined operator such as `+^` is
// one token; the parser gives it the precedence of its first characters). Every token
// records whether whitespace precedes it (`glued`), which the parser needs for `a[i]`
// versus `f [i]`. String and character literals are decoded here (Note [String and
// character literals]).
#include "compiler/syntax/lexer.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <string_view>

namespace kerb {
namespace {

const char *const kKeywords[] = {
    "def",    "let",    "entry",  "in",      "if",    "then",   "else",  "loop",
    "for",    "while",  "do",     "with",    "assert", "true",  "false",
    "type",   "match",  "case",
    // Modules are left out; recognised so that the parser can reject them clearly.
    "module", "open",   "import", "val",     "local", "include",
};

// The module names that may qualify a name: `f32.sqrt`, `bool.i32`.
const char *const kModules[] = {"i8",  "i16", "i32", "i64", "u8",  "u16", "u32",
                                "u64", "f16", "f32", "f64", "bool"};

bool is_keyword(std::string_view s) {
  for (const char *k : kKeywords)
    if (s == k)
      return true;
  return false;
}

bool is_module(std::string_view s) {
  for (const char *m : kModules)
    if (s == m)
      return true;
  return false;
}

bool is_ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '\''; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return std::isxdigit((unsigned char)c) != 0; }
bool is_operator_char(char c) {
  return std::string_view("+-*/%=!<>&|^").find(c) != std::string_view::npos;
}

class Lexer {
public:
  explicit Lexer(const SourceFile &file) : file_(file), src_(file.text) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      bool glued = skip_space_and_comments() == 0 && pos_ > 0;
      if (pos_ >= src_.size()) {
        Token eof;
        eof.kind = TokenKind::Eof;
        // End of file is reported just after the last token, on its line.
        uint32_t at = out.empty() ? pos_ : out.back().span.end;
        eof.span = span(at, at);
        out.push_back(eof);
        return out;
      }
      Token t = next_token(out, glued);
      t.glued = glued;
      out.push_back(std::move(t));
    }
  }

private:
  const SourceFile &file_;
  std::string_view src_;
  uint32_t pos_ = 0;

  Span span(uint32_t b, uint32_t e) const { return Span{&file_, b, e}; }
  char peek(uint32_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }

  // Skips whitespace and `--` comments; returns how many characters were skipped.
  uint32_t skip_space_and_comments() {
    uint32_t start = pos_;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos_++;
        continue;
      }
      if (c == '-' && peek(1) == '-') {
        while (pos_ < src_.size() && src_[pos_] != '\n')
          pos_++;
        continue;
      }
      break;
    }
    return pos_ - start;
  }

  static Token make(TokenKind k, Span s, std::string text) {
    Token t;
    t.kind = k;
    t.span = s;
    t.text = std::move(text);
    return t;
  }

  // True when a glued `.` here starts a tuple projection: the previous token is an
  // identifier, a closing bracket, or the field of an earlier projection.
  static bool after_projectable(const std::vector<Token> &prev) {
    if (prev.empty())
      return false;
    const Token &p = prev.back();
    if (p.kind == TokenKind::Ident || p.kind == TokenKind::QualIdent)
      return true;
    if (p.kind == TokenKind::Symbol && (p.text == ")" || p.text == "]"))
      return true;
    return p.kind == TokenKind::IntLit && prev.size() >= 2 &&
           prev[prev.size() - 2].kind == TokenKind::Symbol && prev[prev.size() - 2].text == "." &&
           p.glued;
  }

  Token next_token(const std::vector<Token> &prev, bool glued) {
    uint32_t start = pos_;
    char c = peek();

    // A projection field after `t.`: digits only, never a float.
    if (glued && !prev.empty() && prev.back().kind == TokenKind::Symbol &&
        prev.back().text == "." && is_digit(c)) {
      while (is_digit(peek()))
        pos_++;
      Token t = make(TokenKind::IntLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
      t.int_value = parse_decimal(start, pos_, 0);
      return t;
    }

    if (is_ident_start(c))
      return lex_word(start);
    if (is_digit(c))
      return lex_number(start);

    if (c == '.') {
      if (glued && after_projectable(prev) && is_digit(peek(1))) {
        pos_++;
        return make(TokenKind::Symbol, span(start, pos_), ".");
      }
      for (const char *sym : {"...", "..<", "..>", ".."}) {
        if (src_.substr(pos_).starts_with(sym)) {
          pos_ += uint32_t(std::string_view(sym).size());
          return make(TokenKind::Symbol, span(start, pos_), sym);
        }
      }
      pos_++;
      return make(TokenKind::Symbol, span(start, pos_), ".");
    }

    if (c == '"')
      return lex_string(start);
    if (c == '\'') {
      if (std::optional<Token> t = lex_char(start))
        return std::move(*t);
    }

    if (c == ':') {
      pos_++;
      if (peek() == '>') {
        pos_++;
        return make(TokenKind::Symbol, span(start, pos_), ":>");
      }
      return make(TokenKind::Symbol, span(start, pos_), ":");
    }
    if (c == '#') {
      if (peek(1) == '[') {
        pos_ += 2;
        return make(TokenKind::Symbol, span(start, pos_), "#[");
      }
      if (is_ident_start(peek(1))) {
        pos_++;
        while (is_ident_char(peek()))
          pos_++;
        return make(TokenKind::Constructor, span(start, pos_),
                    std::string(src_.substr(start + 1, pos_ - start - 1)));
      }
      error_at(span(start, start + 1), "unexpected character '#'");
    }

    if (is_operator_char(c)) {
      while (is_operator_char(peek()))
        pos_++;
      return make(TokenKind::Symbol, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
    }

    if (std::string_view("()[]{},\\`'?@~").find(c) != std::string_view::npos) {
      pos_++;
      return make(TokenKind::Symbol, span(start, pos_), std::string(1, c));
    }

    if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
      error_at(span(start, start + 1), fmt::format("unexpected character (byte 0x{:02x})", (unsigned char)c));
    error_at(span(start, start + 1), fmt::format("unexpected character '{}'", c));
  }

  // Note [String and character literals]
  // As in Futhark, whose lexer reads them with Haskell's `read`:
  //   - a string literal "..." is a value of type []u8, the UTF-8 bytes of its
  //     characters (the parser makes it an array literal of u8s); a character literal
  //     'a' is an integer literal whose value is the character's code point (the parser
  //     makes it an unsuffixed IntLit, so its type is inferred like 97's);
  //   - escapes are Haskell's: \a \b \f \n \r \t \v \\ \" \', a code point in decimal
  //     (\955), octal (\o1673) or hexadecimal (\x3bb), control characters (\^A, \NUL,
  //     \SOH .. \DEL, the longest name that matches), and in strings only \& (nothing)
  //     and a gap (a backslash, spaces, a backslash: nothing). A code point beyond
  //     0x10FFFF is an error, and in a string a surrogate (0xD800..0xDFFF) becomes
  //     U+FFFD, as Haskell's Text does;
  //   - a character literal is one character (UTF-8 encoded in the source) or an escape
  //     of one character or of decimal digits, between quotes: '\x41' is not one in
  //     Futhark's lexer, and is an error here. A quote that does not start such a
  //     literal is the symbol ' of type parameters ('t, '^t, '~t); a quote inside a
  //     name (x', f'') belongs to the name, which lex_word reads first.
  // Neither may contain a line break, a tab or another control character (Futhark's
  // lexer allows printable characters only): these must be written as escapes.

  // The code point of the UTF-8 encoded character at pos_, which it skips. `what`
  // names the literal, for errors.
  uint32_t lex_utf8(const char *what) {
    uint32_t start = pos_;
    auto byte = [&](uint32_t i) { return i < src_.size() ? (unsigned char)src_[i] : 0u; };
    unsigned b0 = byte(pos_);
    int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
    uint32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
    bool ok = len > 0;
    for (int k = 1; ok && k < len; k++) {
      unsigned b = byte(pos_ + uint32_t(k));
      ok = (b >> 6) == 0x2;
      cp = (cp << 6) | (b & 0x3f);
    }
    // Overlong encodings, surrogates and code points beyond U+10FFFF are not UTF-8.
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (!ok || cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
      error_at(span(start, start + 1),
               fmt::format("invalid UTF-8 in {} (byte 0x{:02x})", what, b0));
    if (cp < 0x20 || cp == 0x7f)
      error_at(span(start, start + 1),
               fmt::format("{} cannot contain the control character 0x{:02x}: write it as an "
                           "escape, such as \\n or \\t",
                           what, cp));
    pos_ += uint32_t(len);
    return cp;
  }

  static void append_utf8(std::string &out, uint32_t cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      cp = 0xFFFD;
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3f));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }

  // The escape at pos_ (a backslash), which it skips: its code point, or none for \&
  // and a gap (`in_string` only). `what` names the literal, for errors.
  std::optional<uint32_t> lex_escape(bool in_string, const char *what) {
    uint32_t start = pos_;
    pos_++;
    char c = peek();
    auto bad = [&](uint32_t end) -> std::optional<uint32_t> {
      std::string_view esc = src_.substr(start, std::max(end, start + 1) - start);
      error_at(span(start, end), fmt::format("invalid escape '{}' in {}", esc, what));
    };
    // A numeric escape: digits of `base` (at least one), at most U+10FFFF.
    auto numeric = [&](unsigned base, uint32_t digits_start) -> std::optional<uint32_t> {
      auto digit = [&](char d) -> int {
        if (d >= '0' && d <= '9' && unsigned(d - '0') < base) return d - '0';
        if (base == 16 && is_hex_digit(d)) return std::tolower((unsigned char)d) - 'a' + 10;
        return -1;
      };
      pos_ = digits_start;
      uint64_t v = 0;
      while (digit(peek()) >= 0) {
        v = std::min<uint64_t>(v * base + uint64_t(digit(peek())), uint64_t(1) << 40);
        pos_++;
      }
      if (pos_ == digits_start)
        return bad(pos_);
      if (v > 0x10FFFF)
        error_at(span(start, pos_),
                 fmt::format("escape '{}' in {} is beyond the largest code point, \\1114111",
                             src_.substr(start, pos_ - start), what));
      return uint32_t(v);
    };
    switch (c) {
    case 'a': pos_++; return 0x07;
    case 'b': pos_++; return 0x08;
    case 'f': pos_++; return 0x0c;
    case 'n': pos_++; return 0x0a;
    case 'r': pos_++; return 0x0d;
    case 't': pos_++; return 0x09;
    case 'v': pos_++; return 0x0b;
    case '\\': case '"': case '\'': pos_++; return uint32_t(c);
    default: break;
    }
    if (is_digit(c))
      return numeric(10, pos_);
    if (!in_string)
      return bad(pos_ + 1);
    if (c == 'o' || c == 'x')
      return numeric(c == 'o' ? 8 : 16, pos_ + 1);
    if (c == '&') {
      pos_++;
      return std::nullopt;
    }
    if (c == ' ') {
      while (peek() == ' ')
        pos_++;
      if (peek() != '\\')
        return bad(pos_);
      pos_++;
      return std::nullopt;
    }
    if (c == '^' && peek(1) >= '@' && peek(1) <= '_') {
      uint32_t code = uint32_t(peek(1) - '@');
      pos_ += 2;
      return code;
    }
    static const char *const kAscii[] = {
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT",  "LF",
        "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
        "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};
    std::optional<uint32_t> best;
    size_t best_len = 0;
    auto try_name = [&](std::string_view name, uint32_t code) {
      if (name.size() > best_len && src_.substr(pos_).starts_with(name)) {
        best = code;
        best_len = name.size();
      }
    };
    for (uint32_t k = 0; k < 32; k++)
      try_name(kAscii[k], k);
    try_name("SP", 0x20);
    try_name("DEL", 0x7f);
    if (!best)
      return bad(pos_ + (pos_ < src_.size() ? 1 : 0));
    pos_ += uint32_t(best_len);
    return best;
  }

  Token lex_string(uint32_t start) {
    pos_++;
    std::string bytes;
    for (;;) {
      if (pos_ >= src_.size() || peek() == '\n' || peek() == '\r')
        error_at(span(start, start + 1), "unterminated string literal");
      if (peek() == '"')
        break;
      if (peek() == '\\') {
        if (std::optional<uint32_t> cp = lex_escape(/*in_string=*/true, "a string literal"))
          append_utf8(bytes, *cp);
      } else {
        append_utf8(bytes, lex_utf8("a string literal"));
      }
    }
    pos_++;
    return make(TokenKind::StringLit, span(start, pos_), std::move(bytes));
  }

  // A character literal at pos_ (a quote), or none (and pos_ unchanged) when the quote
  // is the symbol ' instead (Note [String and character literals]).
  std::optional<Token> lex_char(uint32_t start) {
    char c = peek(1);
    if (c == '\\') {
      pos_++;
      uint32_t cp = *lex_escape(/*in_string=*/false, "a character literal");
      if (peek() != '\'')
        error_at(span(start, pos_), "unterminated character literal (a character literal "
                                    "holds one character)");
      pos_++;
      Token t = make(TokenKind::CharLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
      t.int_value = cp;
      return t;
    }
    if (c == '\'' || (unsigned char)c < 0x20 || c == 0x7f)
      return std::nullopt;
    // One character, then a quote; the character may take several bytes.
    unsigned b0 = (unsigned char)c;
    uint32_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 1;
    if (peek(1 + len) != '\'')
      return std::nullopt;
    pos_++;
    uint32_t cp = lex_utf8("a character literal");
    pos_++;
    Token t = make(TokenKind::CharLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
    t.int_value = cp;
    return t;
  }

  // ident = letter (letter | digit | "_" | "'")*, optionally `module.member`.
  Token lex_word(uint32_t start) {
    while (is_ident_char(peek()))
      pos_++;
    std::string word(src_.substr(start, pos_ - start));
    if (is_keyword(word))
      return make(TokenKind::Keyword, span(start, pos_), word);
    if (is_module(word) && peek() == '.' && is_ident_start(peek(1))) {
      pos_++;
      while (is_ident_char(peek()))
        pos_++;
      return make(TokenKind::QualIdent, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
    }
    return make(TokenKind::Ident, span(start, pos_), word);
  }

  uint64_t parse_decimal(uint32_t b, uint32_t e, int base_prefix_len) {
    return parse_digits(b + base_prefix_len, e, 10, b);
  }

  // Value of the digits in [b, e) (underscores skipped) in `base`; `lit_start` is the
  // start of the whole literal, for the error span.
  uint64_t parse_digits(uint32_t b, uint32_t e, unsigned base, uint32_t lit_start) {
    uint64_t v = 0;
    bool overflow = false;
    for (uint32_t i = b; i < e; i++) {
      char c = src_[i];
      if (c == '_')
        continue;
      unsigned d = is_digit(c) ? unsigned(c - '0') : unsigned(std::tolower(c) - 'a' + 10);
      if (v > (UINT64_MAX - d) / base)
        overflow = true;
      v = v * base + d;
    }
    if (overflow)
      error_at(span(lit_start, e), "integer literal is too large");
    return v;
  }

  // Reads an optional type suffix (i8 .. u64, f16 .. f64) at pos_.
  std::optional<PrimType> lex_suffix(uint32_t lit_start) {
    if (!is_ident_start(peek()))
      return std::nullopt;
    uint32_t b = pos_;
    while (is_ident_char(peek()))
      pos_++;
    std::string s(src_.substr(b, pos_ - b));
    PrimType p;
    if (s == "bool" || !prim_from_name(s, p))
      error_at(span(lit_start, pos_), fmt::format("invalid suffix '{}' on numeric literal", s));
    return p;
  }

  // number = decimal | "0x" hex | "0b" binary | float, then an optional suffix.
  Token lex_number(uint32_t start) {
    char c1 = peek(1);
    if (peek() == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B'))
      return lex_prefixed_number(start);

    while (is_digit(peek()) || peek() == '_')
      pos_++;
    bool is_float = false;
    if (peek() == '.' && is_digit(peek(1))) {
      is_float = true;
      pos_++;
      while (is_digit(peek()) || peek() == '_')
        pos_++;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      is_float = true;
      pos_ += 2;
      while (is_digit(peek()))
        pos_++;
    }
    uint32_t digits_end = pos_;
    std::optional<PrimType> suffix = lex_suffix(start);
    if (is_float || (suffix && kerb::is_float(*suffix))) {
      if (suffix && !kerb::is_float(*suffix))
        error_at(span(start, pos_),
                 fmt::format("float literal cannot have the integer suffix '{}'", prim_name(*suffix)));
      std::string cleaned;
      for (uint32_t i = start; i < digits_end; i++)
        if (src_[i] != '_')
          cleaned += src_[i];
      Token t = make(TokenKind::FloatLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
      t.float_value = std::strtod(cleaned.c_str(), nullptr);
      t.suffix = suffix;
      return t;
    }
    Token t = make(TokenKind::IntLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
    t.int_value = wrap_to_suffix(parse_digits(start, digits_end, 10, start), suffix);
    t.suffix = suffix;
    return t;
  }

  // An integer literal with a type suffix is read modulo the type's width, as Futhark's
  // lexer reads it: 255i8 is the bit pattern of -1, 256u8 is 0. (Only an unsuffixed
  // literal must fit the type inference gives it: infer.cpp.)
  static uint64_t wrap_to_suffix(uint64_t v, std::optional<PrimType> suffix) {
    if (!suffix || !is_int(*suffix) || prim_bits(*suffix) >= 64)
      return v;
    return v & ((uint64_t(1) << prim_bits(*suffix)) - 1);
  }

  // 0x1f, 0b101, 0xffu8, and hexadecimal floats 0x1.8p3.
  Token lex_prefixed_number(uint32_t start) {
    bool hex = peek(1) == 'x' || peek(1) == 'X';
    pos_ += 2;
    uint32_t digits_start = pos_;
    auto is_base_digit = [&](char c) { return hex ? is_hex_digit(c) : (c == '0' || c == '1'); };
    while (is_base_digit(peek()) || peek() == '_')
      pos_++;
    if (pos_ == digits_start)
      error_at(span(start, pos_), fmt::format("malformed {} literal: no digits", hex ? "hexadecimal" : "binary"));
    bool is_float = false;
    if (hex && peek() == '.' && is_hex_digit(peek(1))) {
      is_float = true;
      pos_++;
      while (is_hex_digit(peek()) || (peek() == '_' && is_hex_digit(peek(1))))
        pos_++;
    }
    if (hex && (peek() == 'p' || peek() == 'P')) {
      uint32_t p = pos_ + 1;
      if (p < src_.size() && (src_[p] == '+' || src_[p] == '-'))
        p++;
      if (p >= src_.size() || !is_digit(src_[p]))
        error_at(span(start, p), "malformed hexadecimal float: missing exponent digits");
      is_float = true;
      pos_ = p;
      while (is_digit(peek()) || (peek() == '_' && is_digit(peek(1))))
        pos_++;
    } else if (is_float) {
      error_at(span(start, pos_), "malformed hexadecimal float: missing 'p' exponent");
    }
    uint32_t digits_end = pos_;
    if (!hex && is_digit(peek()))
      error_at(span(start, pos_ + 1), fmt::format("invalid digit '{}' in binary literal", peek()));
    std::optional<PrimType> suffix = lex_suffix(start);
    if (is_float) {
      if (suffix && !kerb::is_float(*suffix))
        error_at(span(start, pos_),
                 fmt::format("float literal cannot have the integer suffix '{}'", prim_name(*suffix)));
      std::string cleaned;
      for (uint32_t i = start; i < digits_end; i++)
        if (src_[i] != '_')
          cleaned += src_[i];
      Token t = make(TokenKind::FloatLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
      t.float_value = std::strtod(cleaned.c_str(), nullptr);
      t.suffix = suffix;
      return t;
    }
    Token t = make(TokenKind::IntLit, span(start, pos_), std::string(src_.substr(start, pos_ - start)));
    t.int_value = parse_digits(digits_start, digits_end, hex ? 16 : 2, start);
    t.suffix = suffix;
    if (suffix && !kerb::is_float(*suffix))
      t.int_value = wrap_to_suffix(t.int_value, suffix);
    if (suffix && kerb::is_float(*suffix)) {
      // 0x10f32: a float suffix on an integer literal makes it a float.
      t.kind = TokenKind::FloatLit;
      t.float_value = double(t.int_value);
      t.int_value = 0;
    }
    return t;
  }
};

const char *kind_name(TokenKind k) {
  switch (k) {
  case TokenKind::Eof: return "eof";
  case TokenKind::Ident: return "ident";
  case TokenKind::QualIdent: return "qualident";
  case TokenKind::IntLit: return "int";
  case TokenKind::FloatLit: return "float";
  case TokenKind::Keyword: return "keyword";
  case TokenKind::Symbol: return "symbol";
  case TokenKind::Constructor: return "constructor";
  case TokenKind::StringLit: return "string";
  case TokenKind::CharLit: return "char";
  case TokenKind::Error: return "error";
  }
  return "?";
}

} // namespace

std::vector<Token> lex(const SourceFile &file) { return Lexer(file).run(); }

std::string dump_tokens(const std::vector<Token> &tokens) {
  std::string out;
  for (const Token &t : tokens) {
    std::string loc = t.span.valid()
                          ? fmt::format("{}:{}", t.span.file->line_of(t.span.begin), t.span.file->col_of(t.span.begin))
                          : "?";
    out += fmt::format("{} {}", loc, kind_name(t.kind));
    if (t.kind == TokenKind::IntLit || t.kind == TokenKind::CharLit)
      out += fmt::format(" {}", t.int_value);
    else if (t.kind == TokenKind::FloatLit)
      out += fmt::format(" {}", t.float_value);
    else if (t.kind != TokenKind::Eof)
      out += fmt::format(" {}", t.text);
    if (t.suffix)
      out += fmt::format(" suffix={}", prim_name(*t.suffix));
    if (t.glued)
      out += " glued";
    out += '\n';
  }
  return out;
}

} // namespace kerb
