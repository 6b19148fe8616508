// Unit tests for runtime/value_text: reading Futhark's value syntax (with and without an
// expected type), its error messages and locations, printing as `futhark run` does,
// format/read round trips, and the tolerant comparison used by `kerb test`.
#include "runtime/value_text.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

using namespace kerb;

static ValueType prim_t(PrimType p, int rank = 0) {
  return ValueType::of_prim(p, rank);
}

static Value read1(const std::string &text, const ValueType *t = nullptr) {
  ValueReader r(text, "test");
  Value v = r.read(t);
  REQUIRE(r.at_end());
  return v;
}

static std::string roundtrip_text(const std::string &text, const ValueType &t) {
  return format_value(read1(text, &t));
}

static std::string read_error(const std::string &text, const ValueType *t = nullptr) {
  try {
    ValueReader r(text, "in.txt");
    r.read(t);
    return "no error";
  } catch (const ValueError &e) {
    return e.what();
  }
}

TEST_CASE("integers in every notation", "[value_text]") {
  ValueType i32 = prim_t(PrimType::I32), u8 = prim_t(PrimType::U8), i64 = prim_t(PrimType::I64);
  CHECK(read1("42").prim == PrimValue::from_int(PrimType::I32, 42));
  CHECK(read1("-3i64").prim == PrimValue::from_int(PrimType::I64, -3));
  CHECK(read1("0xffu8").prim == PrimValue::from_int(PrimType::U8, 255));
  CHECK(read1("0b101", &i32).prim.as_i64() == 5);
  CHECK(read1("1_000_000", &i64).prim.as_i64() == 1000000);
  CHECK(read1("255", &u8).prim.as_i64() == 255);
  CHECK(read1("-0x10", &i32).prim.as_i64() == -16);
  CHECK(read1("0xffi8").prim.as_i64() == -1); // hex spells a bit pattern
  CHECK(read1("-128i8").prim.as_i64() == -128);
  CHECK(read1("-9223372036854775808i64").prim.as_i64() == INT64_MIN);
  CHECK(read1("18446744073709551615u64").prim.bits.u == UINT64_MAX);
  CHECK(read1("7", &i64).prim.type == PrimType::I64);
  // A suffixed value wraps to its type's width, as Futhark reads it.
  CHECK(read1("255i8").prim.as_i64() == -1);
  CHECK(read1("128i8").prim.as_i64() == -128);
  CHECK(read1("-129i8").prim.as_i64() == 127);
  CHECK(read1("300u8").prim.as_i64() == 44);
  CHECK(read1("-1u8").prim.as_i64() == 255);
  CHECK(read1("0x1ffu8").prim.as_i64() == 255);
  CHECK(read1("4294967295i32").prim.as_i64() == -1);
}

TEST_CASE("floats, nan and inf", "[value_text]") {
  ValueType f32 = prim_t(PrimType::F32), f64 = prim_t(PrimType::F64), f16 = prim_t(PrimType::F16);
  CHECK(read1("2.5").prim == PrimValue::floating(PrimType::F64, 2.5));
  CHECK(read1("1e3", &f32).prim == PrimValue::floating(PrimType::F32, 1000));
  CHECK(read1("-0.5f32").prim == PrimValue::floating(PrimType::F32, -0.5));
  CHECK(read1("1E-3f64").prim.bits.f64 == 1e-3);
  CHECK(read1("3", &f32).prim == PrimValue::floating(PrimType::F32, 3));
  CHECK(read1("1f32").prim == PrimValue::floating(PrimType::F32, 1));
  CHECK(read1("0.1", &f32).prim.bits.f32 == 0.1f);
  CHECK(read1("0.1", &f16).prim.bits.f32 == round_to_f16(0.1));
  CHECK(read1("1e+20", &f64).prim.bits.f64 == 1e20);
  CHECK(read1("0x1.8p1f64").prim.bits.f64 == 3.0);
  CHECK(read1("1e-60", &f32).prim.bits.f32 == 0.0f); // underflow rounds to zero
  CHECK(std::isnan(read1("f32.nan").prim.bits.f32));
  CHECK(read1("f32.nan").prim.type == PrimType::F32);
  CHECK(read1("-f64.inf").prim.bits.f64 == -INFINITY);
  CHECK(read1("f16.inf", &f16).prim.bits.f32 == INFINITY);
  CHECK(read1("true").prim == PrimValue::boolean(true));
  CHECK(read1("false").prim == PrimValue::boolean(false));
}

TEST_CASE("arrays, empty arrays and tuples", "[value_text]") {
  ValueType m = prim_t(PrimType::I32, 2);
  Value v = read1("[[1, 2], [3, 4]]", &m);
  CHECK(v.shape() == std::vector<int64_t>{2, 2});
  CHECK(prim_at(v, 3).as_i64() == 4);
  CHECK(format_value(read1("[[1,2],[3,4]]")) == "[[1i32, 2i32], [3i32, 4i32]]");
  CHECK(format_value(read1("[1, 2.5]")) == "[1.0f64, 2.5f64]");
  CHECK(format_value(read1("[1, 2i64]")) == "[1i64, 2i64]");
  CHECK(format_value(read1("[[1], [2f32]]")) == "[[1.0f32], [2.0f32]]");
  CHECK(format_value(read1("empty([0]i32)")) == "empty([0]i32)");
  Value e = read1("empty([2][0]f32)");
  CHECK(e.shape() == std::vector<int64_t>{2, 0});
  CHECK(e.type() == prim_t(PrimType::F32, 2));
  CHECK(format_value(e) == "empty([2][0]f32)");
  CHECK(format_value(read1("[empty([0]i32), empty([0]i32)]")) == "empty([2][0]i32)");
  CHECK(format_value(read1("(1, [2.5f32, 3])")) == "(1i32, [2.5f32, 3.0f32])");
  ValueType pair = ValueType::tuple({prim_t(PrimType::I64), prim_t(PrimType::Bool, 1)});
  CHECK(format_value(read1("(7, [true, false])", &pair)) == "(7i64, [true, false])");
  ValueType arr_of_pairs = ValueType::tuple({prim_t(PrimType::I32), prim_t(PrimType::F32)}, 1);
  Value ap = read1("[(1, 2), (3, 4)]", &arr_of_pairs);
  CHECK(ap.type() == arr_of_pairs);
  CHECK(format_value(ap) == "[(1i32, 2.0f32), (3i32, 4.0f32)]");
  CHECK(format_value(read1("empty([0](i32, f32))")) == "empty([0](i32, f32))");
  CHECK(read1("()").elems.empty());
  CHECK(format_value(read1("((1))")) == "1i32");
}

TEST_CASE("Futhark's lenient forms: trailing commas, plus signs, strings", "[value_text]") {
  CHECK(format_value(read1("[1, 2,]")) == "[1i32, 2i32]");
  CHECK(format_value(read1("[[1,], [2,],]")) == "[[1i32], [2i32]]");
  CHECK(format_value(read1("+3")) == "3i32");
  CHECK(format_value(read1("+2.5f32")) == "2.5f32");
  CHECK(format_value(read1("-1u8")) == "255u8"); // negative unsigned values wrap
  CHECK(format_value(read1("-271733879u32")) == "4023233417u32");
  CHECK(format_value(read1("\"ab\\n\"")) == "[97u8, 98u8, 10u8]");
  CHECK(format_value(read1("\"\"")) == "empty([0]u8)");
  ValueType u8v = prim_t(PrimType::U8, 1), i32v = prim_t(PrimType::I32, 1);
  CHECK(read1("\"x\"", &u8v).type() == u8v);
  CHECK(read_error("\"x\"", &i32v) ==
        "in.txt:1:1: expected a value of type []i32, found a string of type []u8");
}

// Futhark's binary value format: 'b', 2, rank, type in 4 chars, i64 dims, data.
static std::string binary_value(const char *type4, std::vector<int64_t> dims,
                                const std::string &data) {
  std::string s = "b";
  s += char(2);
  s += char(dims.size());
  s += type4;
  for (int64_t d : dims)
    for (int k = 0; k < 8; k++)
      s += char((uint64_t(d) >> (8 * k)) & 0xff);
  return s + data;
}

TEST_CASE("binary values, alone and mixed with text", "[value_text]") {
  std::string data("\x01\x00\x00\x00\xfe\xff\xff\xff", 8);
  std::string bin = binary_value(" i32", {2}, data);
  CHECK(format_value(read1(bin)) == "[1i32, -2i32]");
  ValueReader r("1 " + bin + "\n" + binary_value("bool", {}, std::string("\x01", 1)) + " [2]",
                "mixed");
  CHECK(format_value(r.read(nullptr)) == "1i32");
  CHECK(format_value(r.read(nullptr)) == "[1i32, -2i32]");
  CHECK(format_value(r.read(nullptr)) == "true");
  CHECK(format_value(r.read(nullptr)) == "[2i32]");
  CHECK(r.at_end());
  CHECK(format_value(read1(binary_value(" f64", {0, 3}, ""))) == "empty([0][3]f64)");
  ValueType i64v = prim_t(PrimType::I64, 1);
  CHECK(read_error(bin, &i64v) ==
        "in.txt:1:1: expected a value of type []i64, found a binary value of type []i32");
  // Truncated or lying headers.
  for (size_t len = 2; len < bin.size(); len++)
    CHECK_THROWS_AS(read1(bin.substr(0, len)), ValueError);
  CHECK_THROWS_AS(read1(binary_value(" i32", {int64_t(1) << 40, int64_t(1) << 40}, data)),
                  ValueError);
  CHECK_THROWS_AS(read1(binary_value(" i32", {-1}, data)), ValueError);
  CHECK_THROWS_AS(read1(binary_value(" i99", {2}, data)), ValueError);
  std::mt19937 rng(5);
  for (int i = 0; i < 5000; i++) {
    std::string bad = bin;
    bad[2 + rng() % (bad.size() - 2)] = char(rng());
    try {
      ValueReader br(bad, "fuzz");
      while (!br.at_end())
        br.read(nullptr);
    } catch (const ValueError &) {
    }
  }
}

TEST_CASE("several values with comments", "[value_text]") {
  ValueReader r("-- inputs\n 1 [2, 3] -- trailing\n true\n", "stdin");
  CHECK_FALSE(r.at_end());
  CHECK(format_value(r.read(nullptr)) == "1i32");
  CHECK(format_value(r.read(nullptr)) == "[2i32, 3i32]");
  CHECK(format_value(r.read(nullptr)) == "true");
  CHECK(r.at_end());
  CHECK_THROWS_AS(r.read(nullptr), ValueError);
}

TEST_CASE("type errors name the value and its location", "[value_text]") {
  ValueType u8 = prim_t(PrimType::U8), i64 = prim_t(PrimType::I64), i32 = prim_t(PrimType::I32);
  ValueType v32 = prim_t(PrimType::I32, 1), f32 = prim_t(PrimType::F32);
  CHECK(read_error("300", &u8) == "in.txt:1:1: value 300 does not fit in u8");
  CHECK(read_error("-256", &u8) == "in.txt:1:1: value -256 does not fit in u8");
  CHECK(read_error("300", &u8) == "in.txt:1:1: value 300 does not fit in u8");
  ValueType i8 = prim_t(PrimType::I8);
  CHECK(read_error("128", &i8) == "in.txt:1:1: value 128 does not fit in i8");
  CHECK(read_error("0x1ff", &u8) == "in.txt:1:1: value 0x1ff does not fit in u8");
  CHECK(read_error("99999999999999999999u8") ==
        "in.txt:1:1: value 99999999999999999999 does not fit in u8");
  CHECK(read_error("99999999999999999999", &i64) ==
        "in.txt:1:1: value 99999999999999999999 does not fit in i64");
  CHECK(read_error("1e40", &f32) == "in.txt:1:1: value 1e40 does not fit in f32");
  CHECK(read_error("3i32", &i64) == "in.txt:1:1: expected a value of type i64, found 3i32");
  CHECK(read_error("2.5", &i32) == "in.txt:1:1: expected a value of type i32, found 2.5");
  CHECK(read_error("f32.nan", &i32) == "in.txt:1:1: expected a value of type i32, found f32.nan");
  CHECK(read_error("true", &i32) == "in.txt:1:1: expected a value of type i32, found true");
  CHECK(read_error("  [1, 2]", &i32) == "in.txt:1:3: expected a value of type i32, found an array");
  CHECK(read_error("\n 3", &v32) == "in.txt:2:2: expected a value of type []i32, found 3");
  CHECK(read_error("[1, 2u8]", &v32) == "in.txt:1:5: expected a value of type i32, found 2u8");
  CHECK(read_error("empty([0]f32)", &v32) ==
        "in.txt:1:1: expected a value of type []i32, found empty([0]f32)");
  CHECK(read_error("[[1], [2, 3]]") ==
        "in.txt:1:7: irregular array: this element has shape [2], the first has [1]");
  CHECK(read_error("[1, 2i64, 3i32]") == "in.txt:1:11: expected a value of type i64, found 3i32");
  CHECK(read_error("[1, [2]]") == "in.txt:1:5: expected a value of type i32, found an array");
}

TEST_CASE("malformed text is an error, never a crash", "[value_text]") {
  const char *bad[] = {
      "",
      "[",
      "[1,",
      "[1 2]",
      "[]",
      "(1,",
      "(1 2)",
      "0x",
      "0b",
      "1.5i32",
      "12abc",
      "1.",
      "1e",
      "1i7",
      "-",
      "- 3",
      "@",
      "\x01",
      "f32.nan_",
      "f99.nan",
      "nan",
      "empty",
      "empty(",
      "empty()",
      "empty([0]",
      "empty([0]i33)",
      "empty([3]i32)",
      "empty([-1]i32)",
      "empty([99999999999999999999]i32)",
      "empty([0]i32",
      "tru",
      "[1, 2,,]",
      "[,]",
      "--only a comment",
      "\"abc",
      "\"\\q\"",
      "+",
      "0x1.8",
      "0x1p",
      "1.5.5",
      "[1]]",
  };
  for (const char *text : bad) {
    INFO("input: " << text);
    ValueReader r(text, "bad");
    bool threw = false;
    try {
      r.read(nullptr);
      threw = !r.at_end(); // the rest must then be unreadable too
      if (threw) r.read(nullptr);
    } catch (const ValueError &e) {
      threw = true;
      CHECK(std::string(e.what()).rfind("bad:", 0) == 0);
    }
    CHECK(threw);
  }
  // Deep nesting is refused, not a stack overflow.
  std::string deep(100000, '[');
  CHECK_THROWS_AS(read1(deep), ValueError);
  std::string deep_tuple(100000, '(');
  CHECK_THROWS_AS(read1(deep_tuple), ValueError);
}

TEST_CASE("random bytes never crash the reader", "[value_text]") {
  std::mt19937 rng(1234);
  const std::string alphabet = "[](),-_.0123456789abefipuxntrl empty f32 i8 u64 \n";
  for (int i = 0; i < 20000; i++) {
    std::string text;
    int len = int(rng() % 20);
    for (int k = 0; k < len; k++)
      text += alphabet[rng() % alphabet.size()];
    try {
      ValueReader r(text, "fuzz");
      while (!r.at_end())
        r.read(nullptr);
    } catch (const ValueError &) {
    }
  }
}

TEST_CASE("format_value prints like futhark run", "[value_text]") {
  CHECK(format_value(PrimValue::from_int(PrimType::I32, 1)) == "1i32");
  CHECK(format_value(PrimValue::from_int(PrimType::I64, -3)) == "-3i64");
  CHECK(format_value(PrimValue::from_int(PrimType::U8, 255)) == "255u8");
  CHECK(format_value(PrimValue::from_int(PrimType::U64, -1)) == "18446744073709551615u64");
  CHECK(format_value(PrimValue::boolean(true)) == "true");
  CHECK(format_value(PrimValue::floating(PrimType::F32, 2.5)) == "2.5f32");
  CHECK(format_value(PrimValue::floating(PrimType::F64, 1.0)) == "1.0f64");
  CHECK(format_value(PrimValue::floating(PrimType::F32, 0.1)) == "0.1f32");
  CHECK(format_value(PrimValue::floating(PrimType::F16, 0.1)) == "0.1f16");
  CHECK(format_value(PrimValue::floating(PrimType::F64, -0.0)) == "-0.0f64");
  CHECK(format_value(PrimValue::floating(PrimType::F32, NAN)) == "f32.nan");
  CHECK(format_value(PrimValue::floating(PrimType::F32, INFINITY)) == "f32.inf");
  CHECK(format_value(PrimValue::floating(PrimType::F64, -INFINITY)) == "-f64.inf");
  CHECK(format_value(Value::tuple({PrimValue::from_int(PrimType::I32, 1),
                                   PrimValue::floating(PrimType::F32, 2)})) == "(1i32, 2.0f32)");
  CHECK(format_value(make_empty_array(prim_t(PrimType::F32), {3, 0})) == "empty([3][0]f32)");
  std::string big = format_value(PrimValue::floating(PrimType::F64, 1e300));
  CHECK(big.find('e') != std::string::npos);
  CHECK(roundtrip_text("[[1, 2], [3, 4]]", prim_t(PrimType::I32, 2)) ==
        "[[1i32, 2i32], [3i32, 4i32]]");
}

// Random primitive of type t (floats from random bits, NaN excluded).
static PrimValue random_prim(PrimType t, std::mt19937_64 &rng) {
  uint64_t r = rng();
  switch (t) {
  case PrimType::Bool:
    return PrimValue::boolean(r & 1);
  case PrimType::F16: {
    float f = f16_bits_to_float(uint16_t(r));
    return PrimValue::floating(t, std::isnan(f) ? 1.5 : f);
  }
  case PrimType::F32: {
    float f = std::bit_cast<float>(uint32_t(r));
    return PrimValue::floating(t, std::isnan(f) ? 1.5 : f);
  }
  case PrimType::F64: {
    double d = std::bit_cast<double>(r);
    return PrimValue::floating(t, std::isnan(d) ? 1.5 : d);
  }
  default:
    return PrimValue::unsigned_int(t, r >> (rng() % 64));
  }
}

TEST_CASE("format then read gives the same value", "[value_text]") {
  std::mt19937_64 rng(42);
  for (int ti = 0; ti <= int(PrimType::F64); ti++) {
    PrimType t = PrimType(ti);
    ValueType st = prim_t(t);
    for (int i = 0; i < 2000; i++) {
      PrimValue p = random_prim(t, rng);
      std::string text = format_value(p);
      INFO(text);
      REQUIRE(read1(text, &st).prim == p);
      REQUIRE(read1(text).prim == p); // the suffix alone gives the type
    }
    // Arrays of rank 1..3.
    std::vector<Bits> data;
    for (int i = 0; i < 24; i++)
      data.push_back(random_prim(t, rng).bits);
    Value a = make_prim_array(t, {2, 3, 4}, data);
    ValueType at = prim_t(t, 3);
    REQUIRE(values_equal(read1(format_value(a), &at), a));
  }
  ValueType pair = ValueType::tuple({prim_t(PrimType::I32), prim_t(PrimType::F32, 1)});
  Value tv = read1("(1, [2.5, 3])", &pair);
  CHECK(values_equal(read1(format_value(tv), &pair), tv));
  ValueType aop = ValueType::tuple({prim_t(PrimType::U16), prim_t(PrimType::Bool)}, 1);
  Value av = read1("[(1, true), (2, false)]", &aop);
  CHECK(values_equal(read1(format_value(av), &aop), av));
}

TEST_CASE("values_match tolerates float noise and explains differences", "[value_text]") {
  ValueType f32v = prim_t(PrimType::F32, 1), i32v = prim_t(PrimType::I32, 1);
  Tolerance tol;
  std::string why;
  CHECK(values_match(read1("[1.0, 2.0]", &f32v), read1("[1.0000001, 2.0]", &f32v), tol, &why));
  CHECK_FALSE(
      values_match(read1("[1, 1, 1, 1.5]", &f32v), read1("[1, 1, 1, 1.7]", &f32v), tol, &why));
  CHECK(why == "at index [3]: expected 1.5f32, got 1.7f32");
  CHECK_FALSE(values_match(read1("[1, 2, 3]", &i32v), read1("[1, 2, 3, 4]", &i32v), tol, &why));
  CHECK(why == "shape [3] vs [4]");
  ValueType m = prim_t(PrimType::I32, 2);
  CHECK_FALSE(
      values_match(read1("[[1, 2], [3, 4]]", &m), read1("[[1, 2], [3, 5]]", &m), tol, &why));
  CHECK(why == "at index [1, 1]: expected 4i32, got 5i32");
  CHECK_FALSE(values_match(read1("[1, 2]", &i32v), read1("[1.0f32, 2.0f32]"), tol, &why));
  CHECK(why == "expected a value of type []i32, got one of type []f32");
  CHECK(values_match(read1("f32.nan"), read1("f32.nan"), tol, &why));
  CHECK_FALSE(values_match(read1("f32.nan"), read1("1f32"), tol, &why));
  CHECK(values_match(read1("f64.inf"), read1("f64.inf"), tol, &why));
  CHECK_FALSE(values_match(read1("f64.inf"), read1("-f64.inf"), tol, &why));
  CHECK_FALSE(values_match(read1("(1, 2.0)"), read1("(1, 2.5)"), tol, &why));
  CHECK(why == "in tuple component 1: expected 2.0f64, got 2.5f64");
  CHECK(values_match(read1("(1, 2.0)"), read1("(1, 2.0)"), tol, nullptr));
  // Futhark's rule: 0.2% of the largest expected element, for every element.
  Tolerance fut = Tolerance::futhark();
  CHECK(values_match(read1("[1000.0, 0.0]", &f32v), read1("[1000.0, 1.9]", &f32v), fut, &why));
  CHECK_FALSE(
      values_match(read1("[1000.0, 0.0]", &f32v), read1("[1000.0, 2.1]", &f32v), fut, &why));
  CHECK(values_match(read1("0.0"), read1("0.0019"), fut, &why));
  CHECK_FALSE(values_match(read1("0.0"), read1("0.0021"), fut, &why));
  CHECK_FALSE(values_match(read1("[1, 2]", &i32v), read1("[1, 3]", &i32v), fut, &why));
}
