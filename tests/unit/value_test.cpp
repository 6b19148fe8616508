// Unit tests for runtime/value: primitive wrapping and rounding (f16 included), value
// types, and the array builders and accessors (arrays of primitives and of tuples).
#include "runtime/value.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace kerb;

static Bits slot_i(int64_t v) {
  Bits b;
  b.i = v;
  return b;
}

static Value iarr(std::vector<int64_t> shape, std::vector<int64_t> xs) {
  std::vector<Bits> data;
  for (int64_t x : xs)
    data.push_back(slot_i(x));
  return make_prim_array(PrimType::I32, std::move(shape), std::move(data));
}

static Value i32(int64_t v) {
  return Value(PrimValue::signed_int(PrimType::I32, v));
}
static Value f32(double v) {
  return Value(PrimValue::floating(PrimType::F32, v));
}

TEST_CASE("prim names round trip", "[value]") {
  for (int i = 0; i <= int(PrimType::F64); i++) {
    PrimType t = PrimType(i), back;
    REQUIRE(prim_from_name(prim_name(t), back));
    CHECK(back == t);
  }
  PrimType t;
  CHECK_FALSE(prim_from_name("i128", t));
  CHECK(prim_bits(PrimType::Bool) == 1);
  CHECK(prim_bits(PrimType::U16) == 16);
  CHECK(is_signed_int(PrimType::I8));
  CHECK_FALSE(is_signed_int(PrimType::U8));
  CHECK(is_unsigned_int(PrimType::U64));
  CHECK(is_float(PrimType::F16));
}

TEST_CASE("integers wrap to their width", "[value]") {
  CHECK(PrimValue::signed_int(PrimType::I8, 200).bits.i == -56);
  CHECK(PrimValue::signed_int(PrimType::I8, -129).bits.i == 127);
  CHECK(PrimValue::unsigned_int(PrimType::U8, 300).bits.u == 44);
  CHECK(PrimValue::from_int(PrimType::U8, -1).bits.u == 255);
  CHECK(PrimValue::from_int(PrimType::U32, -1).bits.u == 0xffffffffu);
  CHECK(PrimValue::from_int(PrimType::I32, int64_t(1) << 31).bits.i == -(int64_t(1) << 31));
  CHECK(PrimValue::from_int(PrimType::U64, -1).as_i64() == -1);
  CHECK(PrimValue::from_int(PrimType::I16, 70000).as_i64() == 4464);
  CHECK(PrimValue::from_int(PrimType::Bool, 5).as_bool());
  CHECK(PrimValue::from_int(PrimType::F64, 3).as_f64() == 3.0);
}

TEST_CASE("floats round to their precision", "[value]") {
  PrimValue a = PrimValue::floating(PrimType::F32, 0.1);
  CHECK(a.bits.f32 == 0.1f);
  CHECK(a.as_f64() == double(0.1f));
  CHECK(PrimValue::floating(PrimType::F64, 0.1).bits.f64 == 0.1);
  // Large integers go to f32 with a single rounding.
  CHECK(PrimValue::from_int(PrimType::F32, 16777217).bits.f32 == 16777216.0f);
  CHECK(PrimValue::floating(PrimType::I32, 2.9).as_i64() == 2);
  CHECK(PrimValue::floating(PrimType::I32, -2.9).as_i64() == -2);
  CHECK(PrimValue::floating(PrimType::I64, std::nan("")).as_i64() == 0);
  CHECK(PrimValue::floating(PrimType::F32, 1e300).as_i64() == std::numeric_limits<int64_t>::max());
}

TEST_CASE("f16 conversion rounds to nearest even", "[value]") {
  CHECK(f16_bits_from_double(1.0) == 0x3c00);
  CHECK(f16_bits_from_double(-2.0) == 0xc000);
  CHECK(f16_bits_from_double(65504.0) == 0x7bff);
  CHECK(f16_bits_from_double(65520.0) == 0x7c00); // rounds up to infinity
  CHECK(f16_bits_from_double(65519.0) == 0x7bff);
  CHECK(f16_bits_from_double(0.0) == 0);
  CHECK(f16_bits_from_double(-0.0) == 0x8000);
  CHECK(f16_bits_from_double(std::ldexp(1.0, -24)) == 1);            // smallest subnormal
  CHECK(f16_bits_from_double(std::ldexp(1.0, -25)) == 0);            // tie to even: 0
  CHECK(f16_bits_from_double(std::ldexp(1.5, -25)) == 1);            // above the tie
  CHECK(f16_bits_from_double(std::ldexp(3.0, -25)) == 2);            // 1.5 units: tie to 2
  CHECK(f16_bits_from_double(std::ldexp(1023.5, -24)) == 0x400);     // to the smallest normal
  CHECK(f16_bits_from_double(1.0 + std::ldexp(1.0, -11)) == 0x3c00); // tie to even
  CHECK(f16_bits_from_double(1.0 + std::ldexp(3.0, -11)) == 0x3c02); // tie to even (up)
  CHECK(f16_bits_from_double(INFINITY) == 0x7c00);
  CHECK(f16_bits_from_double(-INFINITY) == 0xfc00);
  CHECK(std::isnan(f16_bits_to_float(f16_bits_from_double(NAN))));
  // Every half value converts to float and back unchanged.
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = f16_bits_to_float(uint16_t(h));
    if (std::isnan(f)) continue;
    REQUIRE(f16_bits_from_double(f) == h);
  }
  CHECK(round_to_f16(0.1) == 0.0999755859375f);
  CHECK(PrimValue::floating(PrimType::F16, 0.1).bits.f32 == 0.0999755859375f);
}

TEST_CASE("prim equality is bitwise within a type", "[value]") {
  CHECK(PrimValue::from_int(PrimType::I32, 1) == PrimValue::from_int(PrimType::I32, 1));
  CHECK_FALSE(PrimValue::from_int(PrimType::I32, 1) == PrimValue::from_int(PrimType::I64, 1));
  PrimValue nan = PrimValue::floating(PrimType::F32, NAN);
  CHECK(nan == nan);
  CHECK_FALSE(PrimValue::floating(PrimType::F32, 0.0) == PrimValue::floating(PrimType::F32, -0.0));
}

TEST_CASE("value types print and compare", "[value]") {
  ValueType t = ValueType::tuple(
      {ValueType::of_prim(PrimType::I32), ValueType::of_prim(PrimType::F32, 1)}, 2);
  CHECK(t.str() == "[][](i32, []f32)");
  CHECK(t.row().str() == "[](i32, []f32)");
  CHECK(t.element().str() == "(i32, []f32)");
  CHECK(ValueType::of_prim(PrimType::Bool, 1) == ValueType::of_prim(PrimType::Bool, 1));
  CHECK(ValueType::of_prim(PrimType::Bool, 1) != ValueType::of_prim(PrimType::Bool, 2));
  CHECK_THROWS_AS(ValueType::of_prim(PrimType::I32).row(), std::logic_error);
}

TEST_CASE("prim arrays: build, index, type", "[value]") {
  Value m = iarr({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(m.type() == ValueType::of_prim(PrimType::I32, 2));
  CHECK(m.rank() == 2);
  CHECK(m.length() == 2);
  CHECK(m.array->num_elements() == 6);
  Value r = array_index(m, 1);
  CHECK(values_equal(r, iarr({3}, {4, 5, 6})));
  CHECK(values_equal(array_index(r, 2), i32(6)));
  CHECK(prim_at(m, 4).as_i64() == 5);
  CHECK_THROWS_AS(iarr({2, 2}, {1, 2, 3}), std::invalid_argument);
  CHECK_THROWS_AS(make_prim_array(PrimType::I32, {}, {}), std::invalid_argument);
  CHECK_THROWS_AS(make_prim_array(PrimType::I32, {int64_t(1) << 40, int64_t(1) << 40}, {}),
                  std::invalid_argument);
}

TEST_CASE("stack_rows on scalars, arrays, tuples and arrays of tuples", "[value]") {
  ValueType i32t = ValueType::of_prim(PrimType::I32);
  Value v = stack_rows(i32t, {i32(1), i32(2)});
  CHECK(values_equal(v, iarr({2}, {1, 2})));

  Value m =
      stack_rows(ValueType::of_prim(PrimType::I32, 1), {iarr({2}, {1, 2}), iarr({2}, {3, 4})});
  CHECK(values_equal(m, iarr({2, 2}, {1, 2, 3, 4})));
  CHECK_THROWS_AS(
      stack_rows(ValueType::of_prim(PrimType::I32, 1), {iarr({1}, {1}), iarr({2}, {2, 3})}),
      std::invalid_argument);
  CHECK_THROWS_AS(stack_rows(i32t, {i32(1), f32(2)}), std::invalid_argument);

  ValueType pair = ValueType::tuple({i32t, ValueType::of_prim(PrimType::F32)});
  Value ts = stack_rows(pair, {Value::tuple({i32(1), f32(1.5)}), Value::tuple({i32(2), f32(2.5)})});
  CHECK(ts.type() == ValueType::tuple(pair.elems, 1));
  REQUIRE(ts.array->components.size() == 2);
  CHECK(values_equal(ts.array->components[0], iarr({2}, {1, 2})));
  Value t1 = array_index(ts, 1);
  CHECK(values_equal(t1, Value::tuple({i32(2), f32(2.5)})));

  // An array of arrays of tuples: [2][2](i32, f32).
  Value tts = stack_rows(ts.type(), {ts, ts});
  CHECK(tts.shape() == std::vector<int64_t>{2, 2});
  CHECK(values_equal(tts.array->components[0], iarr({2, 2}, {1, 2, 1, 2})));
  Value row = array_index(tts, 1);
  CHECK(values_equal(row, ts));
  CHECK(values_equal(array_index(row, 0), Value::tuple({i32(1), f32(1.5)})));

  // Tuples whose components are arrays: rows must agree in those shapes too.
  ValueType with_arr = ValueType::tuple({ValueType::of_prim(PrimType::I32, 1)});
  CHECK_THROWS_AS(
      stack_rows(with_arr, {Value::tuple({iarr({1}, {1})}), Value::tuple({iarr({2}, {1, 2})})}),
      std::invalid_argument);
  Value ok =
      stack_rows(with_arr, {Value::tuple({iarr({2}, {1, 2})}), Value::tuple({iarr({2}, {3, 4})})});
  CHECK(ok.array->components[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(values_equal(array_index(ok, 1), Value::tuple({iarr({2}, {3, 4})})));
}

TEST_CASE("empty arrays of any element type", "[value]") {
  Value e = stack_rows(ValueType::of_prim(PrimType::F32, 1), {});
  CHECK(e.shape() == std::vector<int64_t>{0, 0});
  CHECK(e.type() == ValueType::of_prim(PrimType::F32, 2));
  Value e2 = make_empty_array(ValueType::of_prim(PrimType::I32), {3, 0});
  CHECK(e2.shape() == std::vector<int64_t>{3, 0});
  CHECK(array_index(e2, 2).shape() == std::vector<int64_t>{0});
  ValueType pair =
      ValueType::tuple({ValueType::of_prim(PrimType::I32), ValueType::of_prim(PrimType::Bool)});
  Value et = make_empty_array(pair, {0});
  CHECK(et.type() == ValueType::tuple(pair.elems, 1));
  CHECK(et.array->components.size() == 2);
  CHECK(values_equal(et, stack_rows(pair, {})));
}

TEST_CASE("values_equal compares type, shape and bits", "[value]") {
  CHECK(values_equal(iarr({2}, {1, 2}), iarr({2}, {1, 2})));
  CHECK_FALSE(values_equal(iarr({2}, {1, 2}), iarr({2}, {1, 3})));
  CHECK_FALSE(values_equal(iarr({2, 1}, {1, 2}), iarr({1, 2}, {1, 2})));
  CHECK_FALSE(values_equal(i32(1), iarr({1}, {1})));
  CHECK(values_equal(Value::tuple({i32(1), f32(2)}), Value::tuple({i32(1), f32(2)})));
  CHECK_FALSE(values_equal(Value::tuple({i32(1)}), Value::tuple({i32(1), f32(2)})));
}
