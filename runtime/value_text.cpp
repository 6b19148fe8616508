// Futhark's textual value syntax: the reader (text -> Value, guided by an expected
// type), the printer (Value -> text, as `futhark run` prints), and the tolerant
// comparison used by `kerb test`.
//
// Reading happens in two steps. The parser turns the text into a small syntax tree
// (literals keep their written text, suffix and position) without deciding any types.
// Then the tree is converted against a type: the expected one when the caller knows it,
// or one inferred from the literals (suffixes win, unsuffixed integers default to i32
// and unsuffixed floats to f64). Doing it in two steps lets `[1, 2.5]` read as f64 and
// lets every type error point at the literal that caused it.
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace kerb {

namespace {

// Deeper nesting than this is refused rather than risking the stack.
constexpr int kMaxDepth = 512;

// The parts of a node that few nodes need, kept out of line so that the nodes of a big
// array of numbers stay small.
struct NodeExtra {
  ValueType empty_elem;            // Empty: the element type (may have rank)
  std::vector<int64_t> empty_dims; // Empty: the sized outer dims
  Value ready;                     // Ready: the value
  std::string what;                // Ready: how to describe it ("a string")
};

struct Node {
  // Ready: a value that was complete when read (a string or a binary-format value).
  enum Kind : uint8_t { Int, Float, Bool, Nan, Inf, Array, Empty, Tuple, Ready } kind = Int;
  bool has_suffix = false;
  PrimType suffix = PrimType::I32;
  bool negative = false;
  bool too_big = false;             // Int: magnitude >= 2^64
  bool radix = false;               // Int: written in hex or binary
  bool boolean = false;             // Bool
  size_t pos = 0, end = 0;          // the text of the node is [pos, end)
  uint64_t magnitude = 0;           // Int
  std::vector<Node> children;       // Array, Tuple
  std::shared_ptr<NodeExtra> extra; // Empty, Ready
};

// How a node reads in a message: the literal itself, or "an array", "a tuple", ...
std::string describe(const Node &n, const std::string &src) {
  switch (n.kind) {
  case Node::Array:
    return "an array";
  case Node::Tuple:
    return n.children.empty() ? "()" : "a tuple";
  case Node::Empty: {
    std::string s = "empty(";
    for (int64_t d : n.extra->empty_dims)
      s += fmt::format("[{}]", d);
    return s + n.extra->empty_elem.str() + ")";
  }
  case Node::Ready:
    return n.extra->what;
  default:
    return src.substr(n.pos, n.end - n.pos);
  }
}

// The inferred type of a literal tree: like ValueType, but each primitive remembers
// how sure it is (a suffix is sure; an unsuffixed number only suggests i32 or f64).
struct Guess {
  enum Strength { WeakInt, WeakFloat, Strong };
  bool is_tuple = false;
  PrimType prim = PrimType::I32;
  Strength strength = WeakInt;
  std::vector<Guess> elems;
  int rank = 0;

  static Guess of(const ValueType &t) {
    Guess g;
    g.is_tuple = t.kind == ValueType::Tuple;
    g.prim = t.prim;
    g.strength = Strong;
    g.rank = t.rank;
    for (const ValueType &e : t.elems)
      g.elems.push_back(of(e));
    return g;
  }

  ValueType type() const {
    if (!is_tuple) return ValueType::of_prim(prim, rank);
    std::vector<ValueType> ts;
    for (const Guess &e : elems)
      ts.push_back(e.type());
    return ValueType::tuple(std::move(ts), rank);
  }
};

// Combines the guesses for two elements of one array. A structural disagreement keeps
// the first guess: converting the second element against it reports the error there.
Guess join(Guess a, const Guess &b) {
  if (a.is_tuple != b.is_tuple || a.rank != b.rank) return a;
  if (a.is_tuple) {
    if (a.elems.size() != b.elems.size()) return a;
    for (size_t i = 0; i < a.elems.size(); i++)
      a.elems[i] = join(a.elems[i], b.elems[i]);
    return a;
  }
  if (a.strength == Guess::Strong) return a;
  if (b.strength == Guess::Strong || b.strength > a.strength) {
    a.prim = b.prim;
    a.strength = b.strength;
  }
  return a;
}

Guess guess(const Node &n) {
  Guess g;
  switch (n.kind) {
  case Node::Int:
    g.prim = n.has_suffix ? n.suffix : PrimType::I32;
    g.strength = n.has_suffix ? Guess::Strong : Guess::WeakInt;
    return g;
  case Node::Float:
    g.prim = n.has_suffix ? n.suffix : PrimType::F64;
    g.strength = n.has_suffix ? Guess::Strong : Guess::WeakFloat;
    return g;
  case Node::Nan:
  case Node::Inf:
    g.prim = n.suffix;
    g.strength = Guess::Strong;
    return g;
  case Node::Bool:
    g.prim = PrimType::Bool;
    g.strength = Guess::Strong;
    return g;
  case Node::Empty: {
    ValueType t = n.extra->empty_elem;
    t.rank += int(n.extra->empty_dims.size());
    return Guess::of(t);
  }
  case Node::Tuple:
    g.is_tuple = true;
    for (const Node &c : n.children)
      g.elems.push_back(guess(c));
    return g;
  case Node::Ready:
    return Guess::of(n.extra->ready.type());
  case Node::Array:
    g = guess(n.children.at(0));
    for (size_t i = 1; i < n.children.size(); i++)
      g = join(std::move(g), guess(n.children[i]));
    g.rank++;
    return g;
  }
  return g;
}

std::string shape_str(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += fmt::format("[{}]", d);
  return s;
}

} // namespace

// The parser and converter; a friend of ValueReader (it reads text_, name_, pos_).
struct ValueParser {
  ValueReader &r;

  [[noreturn]] void fail(size_t pos, const std::string &message) const {
    int line = 1, col = 1;
    for (size_t i = 0; i < pos && i < r.text_.size(); i++) {
      if (r.text_[i] == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    throw ValueError(fmt::format("{}:{}:{}: {}", r.name_, line, col, message));
  }

  bool at_end() const { return r.pos_ >= r.text_.size(); }
  char peek(size_t ahead = 0) const {
    size_t p = r.pos_ + ahead;
    return p < r.text_.size() ? r.text_[p] : '\0';
  }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
  static bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

  static std::string show_char(char c) {
    if (c >= 0x21 && c < 0x7f) return fmt::format("'{}'", c);
    return fmt::format("byte 0x{:02x}", uint8_t(c));
  }

  void skip_space() {
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        r.pos_++;
      } else if (c == '-' && peek(1) == '-') {
        while (!at_end() && peek() != '\n')
          r.pos_++;
      } else {
        return;
      }
    }
  }

  void expect(char c, const char *what) {
    skip_space();
    if (peek() != c) {
      if (at_end()) fail(r.pos_, fmt::format("expected {}, found end of input", what));
      fail(r.pos_, fmt::format("expected {}, found {}", what, show_char(peek())));
    }
    r.pos_++;
  }

  std::string read_word() {
    size_t start = r.pos_;
    while (is_word(peek()) || peek() == '.')
      r.pos_++;
    return r.text_.substr(start, r.pos_ - start);
  }

  // value = number | "true" | "false" | fNN.nan | ["-"] fNN.inf | array | tuple | empty
  //       | string | binary
  Node parse_value(int depth) {
    if (depth > kMaxDepth) fail(r.pos_, "value is nested too deeply");
    skip_space();
    if (at_end()) fail(r.pos_, "expected a value, found end of input");
    char c = peek();
    if (c == 'b' && peek(1) == '\x02') return parse_binary();
    if (c == '"') return parse_string();
    if (c == '[') return parse_array(depth);
    if (c == '(') return parse_tuple(depth);
    bool sign = c == '-' || c == '+';
    if (is_digit(c) || (sign && is_digit(peek(1)))) return parse_number();
    if (is_alpha(c) || (c == '-' && is_alpha(peek(1)))) return parse_word(depth);
    fail(r.pos_, fmt::format("expected a value, found {}", show_char(c)));
  }

  // array = "[" value ("," value)* "]"
  Node parse_array(int depth) {
    Node n;
    n.kind = Node::Array;
    n.pos = r.pos_++;
    skip_space();
    if (peek() == ']') fail(n.pos, "an empty array is written empty([0]t), e.g. empty([0]i32)");
    for (;;) {
      n.children.push_back(parse_value(depth + 1));
      skip_space();
      if (peek() == ',') {
        r.pos_++;
        skip_space();
        if (peek() != ']') continue; // a trailing comma is allowed, as in Futhark
      }
      if (peek() == ']') {
        r.pos_++;
        return n;
      }
      if (at_end()) fail(n.pos, "unterminated array: expected ',' or ']' before end of input");
      fail(r.pos_, fmt::format("expected ',' or ']', found {}", show_char(peek())));
    }
  }

  // tuple = "(" ")" | "(" value ("," value)* ")"; one value in parentheses is that value.
  Node parse_tuple(int depth) {
    Node n;
    n.kind = Node::Tuple;
    n.pos = r.pos_++;
    skip_space();
    if (peek() == ')') {
      r.pos_++;
      return n;
    }
    for (;;) {
      n.children.push_back(parse_value(depth + 1));
      skip_space();
      if (peek() == ',') {
        r.pos_++;
        skip_space();
        if (peek() != ')') continue;
      }
      if (peek() == ')') {
        r.pos_++;
        if (n.children.size() == 1) return std::move(n.children[0]);
        return n;
      }
      if (at_end()) fail(n.pos, "unterminated tuple: expected ',' or ')' before end of input");
      fail(r.pos_, fmt::format("expected ',' or ')', found {}", show_char(peek())));
    }
  }

  Node parse_word(int depth) {
    Node n;
    n.pos = r.pos_;
    bool negative = peek() == '-';
    if (negative) r.pos_++;
    std::string word = read_word();
    n.end = r.pos_;
    if (!negative && (word == "true" || word == "false")) {
      n.kind = Node::Bool;
      n.boolean = word == "true";
      return n;
    }
    if (!negative && word == "empty") return parse_empty(n.pos, depth);
    size_t dot = word.find('.');
    PrimType t;
    if (dot != std::string::npos && prim_from_name(word.substr(0, dot), t) && is_float(t)) {
      std::string what = word.substr(dot + 1);
      if (what == "nan" || what == "inf") {
        n.kind = what == "nan" ? Node::Nan : Node::Inf;
        n.negative = negative;
        n.has_suffix = true;
        n.suffix = t;
        return n;
      }
    }
    fail(n.pos, fmt::format("expected a value, found '{}'", describe(n, r.text_)));
  }

  // empty = "empty" "(" ("[" int "]")+ elemtype ")"
  Node parse_empty(size_t pos, int depth) {
    Node n;
    n.kind = Node::Empty;
    n.pos = pos;
    n.extra = std::make_shared<NodeExtra>();
    std::vector<int64_t> &dims = n.extra->empty_dims;
    expect('(', "'(' after 'empty'");
    for (;;) {
      skip_space();
      if (peek() != '[' || peek(1) == ']') break;
      r.pos_++;
      skip_space();
      size_t dim_pos = r.pos_;
      if (!is_digit(peek())) fail(dim_pos, "expected a dimension size in empty(...)");
      int64_t d = 0;
      while (is_digit(peek()) || peek() == '_') {
        char c = peek();
        r.pos_++;
        if (c == '_') continue;
        if (d > (std::numeric_limits<int64_t>::max() - (c - '0')) / 10)
          fail(dim_pos, "dimension size is too large");
        d = d * 10 + (c - '0');
      }
      if (peek() == 'i' || peek() == 'u') read_word(); // tolerate a suffix like [0i64]
      dims.push_back(d);
      expect(']', "']'");
    }
    if (dims.empty()) fail(r.pos_, "expected a dimension like [0] in empty(...)");
    n.extra->empty_elem = parse_type(depth + 1);
    expect(')', "')' to close empty(...)");
    bool has_zero = false;
    for (int64_t d : dims)
      has_zero |= d == 0;
    if (!has_zero) fail(pos, fmt::format("{} has no zero dimension", describe(n, r.text_)));
    return n;
  }

  // elemtype = ("[" "]")* (primtype | "(" elemtype ("," elemtype)* ")")
  ValueType parse_type(int depth) {
    if (depth > kMaxDepth) fail(r.pos_, "type is nested too deeply");
    int rank = 0;
    for (;;) {
      skip_space();
      if (peek() != '[') break;
      r.pos_++;
      expect(']', "']' (inner dimensions of an element type have no size)");
      rank++;
    }
    skip_space();
    size_t pos = r.pos_;
    if (peek() == '(') {
      r.pos_++;
      std::vector<ValueType> elems;
      for (;;) {
        elems.push_back(parse_type(depth + 1));
        skip_space();
        if (peek() == ',') {
          r.pos_++;
          continue;
        }
        expect(')', "',' or ')' in a tuple type");
        return ValueType::tuple(std::move(elems), rank);
      }
    }
    std::string word = read_word();
    PrimType t;
    if (!prim_from_name(word, t))
      fail(pos, word.empty() ? "expected a type" : fmt::format("unknown type '{}'", word));
    return ValueType::of_prim(t, rank);
  }

  // string = '"' char* '"': Futhark reads it as its UTF-8 bytes, a []u8.
  Node parse_string() {
    Node n;
    n.kind = Node::Ready;
    n.pos = r.pos_++;
    std::vector<Bits> bytes;
    auto add = [&](uint64_t b) {
      Bits slot;
      slot.u = b;
      bytes.push_back(slot);
    };
    for (;;) {
      if (at_end()) fail(n.pos, "unterminated string");
      char c = r.text_[r.pos_++];
      if (c == '"') break;
      if (c != '\\') {
        add(uint8_t(c));
        continue;
      }
      if (at_end()) fail(n.pos, "unterminated string");
      char e = r.text_[r.pos_++];
      switch (e) {
      case 'n':
        add('\n');
        break;
      case 't':
        add('\t');
        break;
      case 'r':
        add('\r');
        break;
      case '0':
        add(0);
        break;
      case '\\':
      case '"':
      case '\'':
        add(uint8_t(e));
        break;
      default:
        fail(r.pos_ - 2, fmt::format("unknown escape '\\{}' in a string", e));
      }
    }
    n.extra = std::make_shared<NodeExtra>();
    n.extra->what = "a string";
    int64_t length = int64_t(bytes.size());
    n.extra->ready = make_prim_array(PrimType::U8, {length}, std::move(bytes));
    return n;
  }

  // Futhark's binary value format: 'b', version 2, rank (1 byte), the element type in 4
  // characters (" i32", "bool", ...), rank dims (i64, little-endian), then the elements
  // (little-endian, bool as one byte). It may be mixed with text values.
  Node parse_binary() {
    Node n;
    n.kind = Node::Ready;
    n.pos = r.pos_;
    n.extra = std::make_shared<NodeExtra>();
    n.extra->what = "a binary value";
    size_t left = r.text_.size() - r.pos_;
    if (left < 7) fail(n.pos, "truncated binary value header");
    const auto *p = reinterpret_cast<const unsigned char *>(r.text_.data()) + r.pos_;
    int rank = int8_t(p[2]);
    if (rank < 0) fail(n.pos, fmt::format("binary value with negative rank {}", rank));
    std::string tname(reinterpret_cast<const char *>(p + 3), 4);
    size_t first = tname.find_first_not_of(' ');
    PrimType t;
    if (first == std::string::npos || !prim_from_name(tname.substr(first), t))
      fail(n.pos, fmt::format("binary value of unknown type '{}'", tname));
    size_t at = 7;
    if (left < at + 8 * size_t(rank)) fail(n.pos, "truncated binary value shape");
    std::vector<int64_t> shape;
    int64_t count = 1;
    bool any_zero = false;
    for (int d = 0; d < rank; d++, at += 8) {
      uint64_t raw = 0;
      for (int k = 0; k < 8; k++)
        raw |= uint64_t(p[at + size_t(k)]) << (8 * k);
      int64_t dim = int64_t(raw);
      if (dim < 0) fail(n.pos, fmt::format("binary value with negative dimension {}", dim));
      shape.push_back(dim);
      any_zero |= dim == 0;
    }
    int size = t == PrimType::Bool ? 1 : prim_bits(t) / 8;
    for (int64_t dim : shape) {
      if (any_zero) break;
      if (count > std::numeric_limits<int64_t>::max() / dim / size)
        fail(n.pos, fmt::format("binary value shape {} is too large", shape_str(shape)));
      count *= dim;
    }
    if (any_zero) count = 0;
    if (uint64_t(count) * uint64_t(size) > left - at)
      fail(n.pos, fmt::format("truncated binary value: shape {} needs {} bytes of data, {} left",
                              shape_str(shape), count * size, left - at));
    std::vector<Bits> slots(static_cast<size_t>(count));
    for (int64_t k = 0; k < count; k++, at += size_t(size)) {
      uint64_t raw = 0;
      for (int b = 0; b < size; b++)
        raw |= uint64_t(p[at + size_t(b)]) << (8 * b);
      PrimValue v;
      switch (t) {
      case PrimType::F16:
        v = PrimValue::floating(t, f16_bits_to_float(uint16_t(raw)));
        break;
      case PrimType::F32:
        v = PrimValue::floating(t, std::bit_cast<float>(uint32_t(raw)));
        break;
      case PrimType::F64:
        v = PrimValue::floating(t, std::bit_cast<double>(raw));
        break;
      default:
        v = PrimValue::unsigned_int(t, raw);
        break; // bool: nonzero is true
      }
      slots[size_t(k)] = v.bits;
    }
    r.pos_ += at;
    n.extra->ready = rank == 0 ? Value(PrimValue{t, slots.at(0)})
                               : make_prim_array(t, std::move(shape), std::move(slots));
    return n;
  }

  // number = ["-" | "+"] (decimal | hex | binary | float) [suffix]
  Node parse_number() {
    Node n;
    n.pos = r.pos_;
    n.negative = peek() == '-';
    if (peek() == '-' || peek() == '+') r.pos_++;
    bool hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
    bool bin = peek() == '0' && (peek(1) == 'b' || peek(1) == 'B');
    if (hex || bin) {
      n.radix = true;
      r.pos_ += 2;
      int base = hex ? 16 : 2;
      size_t digits = 0;
      for (;; r.pos_++) {
        char c = peek();
        int v = is_digit(c)              ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                : c == '_'               ? -2
                                         : -1;
        if (v == -2) continue;
        if (v < 0 || v >= base) break;
        digits++;
        if (n.magnitude > (std::numeric_limits<uint64_t>::max() - uint64_t(v)) / uint64_t(base))
          n.too_big = true;
        n.magnitude = n.magnitude * uint64_t(base) + uint64_t(v);
      }
      if (digits == 0) fail(n.pos, fmt::format("missing digits after 0{}", hex ? 'x' : 'b'));
      n.kind = Node::Int;
      if (hex && (peek() == '.' || peek() == 'p' || peek() == 'P')) parse_hex_float_tail(n);
    } else {
      n.kind = Node::Int;
      while (is_digit(peek()) || peek() == '_') {
        char c = peek();
        r.pos_++;
        if (c == '_') continue;
        uint64_t v = uint64_t(c - '0');
        if (n.magnitude > (std::numeric_limits<uint64_t>::max() - v) / 10) n.too_big = true;
        n.magnitude = n.magnitude * 10 + v;
      }
      if (peek() == '.' && is_digit(peek(1))) {
        n.kind = Node::Float;
        r.pos_++;
        while (is_digit(peek()) || peek() == '_')
          r.pos_++;
      }
      if ((peek() == 'e' || peek() == 'E') &&
          (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
        n.kind = Node::Float;
        r.pos_++;
        if (peek() == '+' || peek() == '-') r.pos_++;
        while (is_digit(peek()) || peek() == '_')
          r.pos_++;
      }
    }
    size_t suffix_pos = r.pos_;
    if (peek() == 'i' || peek() == 'u' || peek() == 'f') {
      std::string s = read_word();
      PrimType t;
      if (!prim_from_name(s, t) || t == PrimType::Bool)
        fail(suffix_pos, fmt::format("unknown suffix '{}' on a number", s));
      if (n.kind == Node::Float && !is_float(t))
        fail(n.pos, fmt::format("'{}' has a fractional part but an integer suffix",
                                r.text_.substr(n.pos, r.pos_ - n.pos)));
      n.has_suffix = true;
      n.suffix = t;
    }
    n.end = r.pos_;
    if (is_word(peek()) || peek() == '.')
      fail(r.pos_, fmt::format("unexpected {} after the number {}", show_char(peek()),
                               describe(n, r.text_)));
    return n;
  }

  // A hex float such as 0x1.8p3: the fraction and binary exponent after the hex digits.
  void parse_hex_float_tail(Node &n) {
    n.kind = Node::Float;
    if (peek() == '.') {
      r.pos_++;
      while (std::isxdigit(uint8_t(peek())) || peek() == '_')
        r.pos_++;
    }
    if (peek() != 'p' && peek() != 'P') fail(r.pos_, "a hexadecimal float needs an exponent 'p'");
    r.pos_++;
    if (peek() == '+' || peek() == '-') r.pos_++;
    if (!is_digit(peek())) fail(r.pos_, "expected exponent digits after 'p'");
    while (is_digit(peek()))
      r.pos_++;
  }

  // ---------------------------------------------------------------------------------
  // Conversion against a type

  Value convert(const Node &n, const ValueType &t) {
    if (n.kind == Node::Ready) {
      const Value &v = n.extra->ready;
      if (v.type() != t)
        fail(n.pos, fmt::format("expected a value of type {}, found {} of type {}", t.str(),
                                describe(n, r.text_), v.type().str()));
      return v;
    }
    if (t.rank > 0) return convert_array(n, t);
    if (t.kind == ValueType::Tuple) {
      if (n.kind != Node::Tuple || n.children.size() != t.elems.size())
        fail(n.pos,
             fmt::format("expected a value of type {}, found {}", t.str(), describe(n, r.text_)));
      std::vector<Value> elems;
      for (size_t i = 0; i < n.children.size(); i++)
        elems.push_back(convert(n.children[i], t.elems[i]));
      return Value::tuple(std::move(elems));
    }
    return Value(convert_prim(n, t.prim));
  }

  Value convert_array(const Node &n, const ValueType &t) {
    if (n.kind == Node::Empty) {
      ValueType nt = n.extra->empty_elem;
      nt.rank += int(n.extra->empty_dims.size());
      if (nt != t)
        fail(n.pos,
             fmt::format("expected a value of type {}, found {}", t.str(), describe(n, r.text_)));
      try {
        return make_empty_array(n.extra->empty_elem, n.extra->empty_dims);
      } catch (const std::invalid_argument &e) {
        fail(n.pos, e.what());
      }
    }
    if (n.kind != Node::Array)
      fail(n.pos,
           fmt::format("expected a value of type {}, found {}", t.str(), describe(n, r.text_)));
    ValueType row = t.row();
    if (row.kind == ValueType::Prim && row.rank == 0) {
      // The common case, a row of numbers: straight into the array's buffer.
      std::vector<Bits> data;
      data.reserve(n.children.size());
      for (const Node &c : n.children)
        data.push_back(convert_prim(c, row.prim).bits);
      int64_t length = int64_t(data.size());
      return make_prim_array(row.prim, {length}, std::move(data));
    }
    std::vector<Value> rows;
    rows.reserve(n.children.size());
    for (const Node &c : n.children) {
      rows.push_back(convert(c, row));
      if (rows.size() > 1) check_regular(rows[0], rows.back(), n.children[0], c);
    }
    try {
      return stack_rows(row, rows);
    } catch (const std::invalid_argument &e) {
      fail(n.pos, fmt::format("irregular array ({})", e.what()));
    }
  }

  // Rows of one array must have equal shapes, all the way down.
  void check_regular(const Value &first, const Value &v, const Node &first_node, const Node &node) {
    if (v.kind == Value::Tuple) {
      for (size_t i = 0; i < v.elems.size(); i++)
        check_regular(first.elems[i], v.elems[i], first_node.children.at(i), node.children.at(i));
      return;
    }
    if (v.kind != Value::Array) return;
    if (first.shape() != v.shape())
      fail(node.pos, fmt::format("irregular array: this element has shape {}, the first has {}",
                                 shape_str(v.shape()), shape_str(first.shape())));
    for (size_t i = 0; i < v.array->components.size(); i++) {
      const Value &a = first.array->components[i], &b = v.array->components[i];
      if (a.shape() != b.shape())
        fail(node.pos,
             fmt::format("irregular array: tuple component {} has shape {} here, {} in the "
                         "first element",
                         i, shape_str(b.shape()), shape_str(a.shape())));
    }
  }

  [[noreturn]] void mismatch(const Node &n, PrimType t) {
    fail(n.pos,
         fmt::format("expected a value of type {}, found {}", prim_name(t), describe(n, r.text_)));
  }

  [[noreturn]] void does_not_fit(const Node &n, PrimType t) {
    std::string written = describe(n, r.text_);
    if (n.has_suffix) written.resize(written.size() - std::string(prim_name(n.suffix)).size());
    fail(n.pos, fmt::format("value {} does not fit in {}", written, prim_name(t)));
  }

  PrimValue convert_prim(const Node &n, PrimType t) {
    switch (n.kind) {
    case Node::Bool:
      if (t != PrimType::Bool) mismatch(n, t);
      return PrimValue::boolean(n.boolean);
    case Node::Nan:
    case Node::Inf: {
      if (n.suffix != t) mismatch(n, t);
      double v = n.kind == Node::Nan ? std::numeric_limits<double>::quiet_NaN()
                                     : std::numeric_limits<double>::infinity();
      return PrimValue::floating(t, n.negative ? -v : v);
    }
    case Node::Int:
    case Node::Float:
      break;
    default:
      mismatch(n, t);
    }
    if (n.has_suffix && n.suffix != t) mismatch(n, t);
    if (t == PrimType::Bool) mismatch(n, t);
    if (is_float(t)) return convert_float(n, t);
    if (n.kind == Node::Float) mismatch(n, t);
    return convert_int(n, t);
  }

  PrimValue convert_int(const Node &n, PrimType t) {
    int w = prim_bits(t);
    if (n.too_big) does_not_fit(n, t);
    uint64_t m = n.magnitude;
    uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
    // A value with a type suffix is read modulo the type's width, as Futhark reads it
    // (255i8 is -1, 256u8 is 0; Futhark's primitive/ctz.fut gives 255i8); one without a
    // suffix must fit the type it is read as.
    if (n.has_suffix) return PrimValue::unsigned_int(t, (n.negative ? 0 - m : m) & mask);
    if (is_unsigned_int(t)) {
      uint64_t max = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
      if (m > max) does_not_fit(n, t);
      // A negative value wraps, as in Futhark's value reader (-1u8 is 255u8).
      return PrimValue::unsigned_int(t, n.negative ? (0 - m) & max : m);
    }
    uint64_t limit = uint64_t(1) << (w - 1); // |lowest|
    if (n.negative) {
      if (m > limit) does_not_fit(n, t);
      return PrimValue::signed_int(t, int64_t(0 - m));
    }
    // Hex and binary literals may spell any bit pattern of the type (0xffi8 is -1).
    uint64_t max = n.radix ? (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1) : limit - 1;
    if (m > max) does_not_fit(n, t);
    return PrimValue::unsigned_int(t, m);
  }

  PrimValue convert_float(const Node &n, PrimType t) {
    // The literal's text without underscores and suffix: strtod/strtof read the rest
    // (decimal, exponent, hexadecimal floats, a sign).
    std::string digits;
    size_t end = n.end - (n.has_suffix ? std::strlen(prim_name(n.suffix)) : 0);
    for (size_t i = n.pos; i < end; i++)
      if (r.text_[i] != '_') digits += r.text_[i];
    if (n.kind == Node::Int && n.radix) {
      // Hex and binary integers: convert the magnitude (exact below 2^53; beyond that
      // the decimal text gives a single correct rounding).
      if (n.too_big) does_not_fit(n, t);
      digits = (n.negative ? "-" : "") + std::to_string(n.magnitude);
    }
    errno = 0;
    PrimValue p;
    p.type = t;
    p.bits.u = 0;
    bool overflow = false;
    if (t == PrimType::F32) {
      p.bits.f32 = std::strtof(digits.c_str(), nullptr);
      overflow = std::isinf(p.bits.f32);
    } else {
      double d = std::strtod(digits.c_str(), nullptr);
      if (t == PrimType::F64) {
        p.bits.f64 = d;
        overflow = std::isinf(d);
      } else {
        p.bits.f32 = round_to_f16(d);
        overflow = std::isinf(p.bits.f32);
      }
    }
    if (overflow) does_not_fit(n, t);
    return p;
  }
};

ValueReader::ValueReader(std::string text, std::string source_name)
    : text_(std::move(text)), name_(std::move(source_name)) {}

bool ValueReader::at_end() {
  ValueParser p{*this};
  p.skip_space();
  return p.at_end();
}

Value ValueReader::read(const ValueType *expected) {
  ValueParser p{*this};
  Node n = p.parse_value(0);
  if (expected) return p.convert(n, *expected);
  return p.convert(n, guess(n).type());
}

// -------------------------------------------------------------------------------------
// Printing

namespace {

// Shortest text that reads back as the same f16 (f16 values are carried in a float).
std::string f16_digits(float f) {
  for (int precision = 1; precision < 9; precision++) {
    std::string s = fmt::format("{:.{}g}", double(f), precision);
    if (round_to_f16(std::strtod(s.c_str(), nullptr)) != f) continue;
    // %g writes 65504 as 6.55e+04; the float's own digits read better when they fit.
    std::string plain = fmt::format("{}", f);
    if (s.find('e') != std::string::npos && plain.find('e') == std::string::npos) return plain;
    return s;
  }
  return fmt::format("{}", f);
}

void format_prim(std::string &out, PrimValue p) {
  PrimType t = p.type;
  if (t == PrimType::Bool) {
    out += p.as_bool() ? "true" : "false";
    return;
  }
  if (is_signed_int(t)) {
    fmt::format_to(std::back_inserter(out), "{}{}", p.bits.i, prim_name(t));
    return;
  }
  if (is_unsigned_int(t)) {
    fmt::format_to(std::back_inserter(out), "{}{}", p.bits.u, prim_name(t));
    return;
  }
  double d = p.as_f64();
  if (std::isnan(d)) {
    fmt::format_to(std::back_inserter(out), "{}.nan", prim_name(t));
    return;
  }
  if (std::isinf(d)) {
    fmt::format_to(std::back_inserter(out), "{}{}.inf", d < 0 ? "-" : "", prim_name(t));
    return;
  }
  std::string s = t == PrimType::F64   ? fmt::format("{}", p.bits.f64)
                  : t == PrimType::F32 ? fmt::format("{}", p.bits.f32)
                                       : f16_digits(p.bits.f32);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  out += s;
  out += prim_name(t);
}

void format_into(std::string &out, const Value &v);

// Rows of a prim array from flat offset `at`, dimension `dim` onwards.
void format_prim_rows(std::string &out, const ArrayData &a, size_t dim, int64_t &at) {
  out += '[';
  for (int64_t i = 0; i < a.shape[dim]; i++) {
    if (i > 0) out += ", ";
    if (dim + 1 == a.shape.size()) {
      format_prim(out, PrimValue{a.elem.prim, a.data[size_t(at++)]});
    } else {
      format_prim_rows(out, a, dim + 1, at);
    }
  }
  out += ']';
}

void format_into(std::string &out, const Value &v) {
  switch (v.kind) {
  case Value::Prim:
    format_prim(out, v.prim);
    return;
  case Value::Tuple:
    out += '(';
    for (size_t i = 0; i < v.elems.size(); i++) {
      if (i > 0) out += ", ";
      format_into(out, v.elems[i]);
    }
    out += ')';
    return;
  case Value::Array:
    break;
  }
  const ArrayData &a = *v.array;
  if (a.num_elements() == 0) {
    out += "empty(" + shape_str(a.shape) + a.elem.str() + ")";
    return;
  }
  if (a.elem.kind == ValueType::Prim) {
    int64_t at = 0;
    format_prim_rows(out, a, 0, at);
    return;
  }
  // Arrays of tuples (Futhark has no syntax for them; the driver unzips results).
  out += '[';
  for (int64_t i = 0; i < a.shape[0]; i++) {
    if (i > 0) out += ", ";
    format_into(out, array_index(v, i));
  }
  out += ']';
}

std::string index_str(const std::vector<int64_t> &shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] == 0 ? 0 : flat % shape[d];
    flat = shape[d] == 0 ? 0 : flat / shape[d];
  }
  return fmt::format("[{}]", fmt::join(idx, ", "));
}

// `scaled_abs` is the absolute tolerance of Tolerance::scaled for this array (or 0).
bool prims_match(PrimValue e, PrimValue a, const Tolerance &tol, double scaled_abs) {
  if (!is_float(e.type)) return e == a;
  double x = e.as_f64(), y = a.as_f64();
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (x == y) return true;
  if (std::isinf(x) || std::isinf(y)) return false;
  double diff = std::fabs(x - y);
  return diff <= tol.abs + tol.rel * std::fabs(x) || diff <= scaled_abs;
}

// Futhark's absolute tolerance for expected elements: max(t, t * largest finite one).
double scaled_tolerance(const Tolerance &tol, PrimType t, const Bits *xs, size_t n) {
  if (tol.scaled <= 0 || !is_float(t)) return 0;
  double result = tol.scaled;
  for (size_t k = 0; k < n; k++) {
    double v = PrimValue{t, xs[k]}.as_f64();
    if (std::isfinite(v)) result = std::max(result, tol.scaled * v);
  }
  return result;
}

std::string show_prim(PrimValue p) {
  std::string s;
  format_prim(s, p);
  return s;
}

bool match_into(const Value &e, const Value &a, const Tolerance &tol, std::string &why,
                const std::string &where) {
  ValueType et = e.type(), at = a.type();
  if (et != at) {
    why =
        fmt::format("{}expected a value of type {}, got one of type {}", where, et.str(), at.str());
    return false;
  }
  switch (e.kind) {
  case Value::Prim:
    if (prims_match(e.prim, a.prim, tol, scaled_tolerance(tol, e.prim.type, &e.prim.bits, 1)))
      return true;
    why = fmt::format("{}expected {}, got {}", where, show_prim(e.prim), show_prim(a.prim));
    return false;
  case Value::Tuple:
    for (size_t i = 0; i < e.elems.size(); i++)
      if (!match_into(e.elems[i], a.elems[i], tol, why,
                      fmt::format("{}in tuple component {}: ", where, i)))
        return false;
    return true;
  case Value::Array:
    break;
  }
  const ArrayData &x = *e.array, &y = *a.array;
  if (x.shape != y.shape) {
    why = fmt::format("{}shape {} vs {}", where, shape_str(x.shape), shape_str(y.shape));
    return false;
  }
  if (x.elem.kind == ValueType::Tuple) {
    for (size_t i = 0; i < x.components.size(); i++)
      if (!match_into(x.components[i], y.components[i], tol, why,
                      fmt::format("{}in tuple component {}: ", where, i)))
        return false;
    return true;
  }
  double scaled_abs = scaled_tolerance(tol, x.elem.prim, x.data.data(), x.data.size());
  for (size_t k = 0; k < x.data.size(); k++) {
    PrimValue pe{x.elem.prim, x.data[k]}, pa{y.elem.prim, y.data[k]};
    if (prims_match(pe, pa, tol, scaled_abs)) continue;
    why = fmt::format("{}at index {}: expected {}, got {}", where, index_str(x.shape, int64_t(k)),
                      show_prim(pe), show_prim(pa));
    return false;
  }
  return true;
}

} // namespace

std::string format_value(const Value &v) {
  std::string out;
  format_into(out, v);
  return out;
}

bool values_match(const Value &expected, const Value &actual, const Tolerance &tol,
                  std::string *why) {
  std::string reason;
  bool ok = match_into(expected, actual, tol, reason, "");
  if (!ok && why) *why = reason;
  return ok;
}

} // namespace kerb
