// Unit tests for runtime/npy: write/read round trips for every dtype and shape, headers
// as NumPy writes them (and in the other forms NumPy accepts), byte order, Fortran
// order, and malformed or lying files (each must give an NpyError, never a crash).
#include "runtime/npy.h"
#include "runtime/value_text.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <random>

using namespace kerb;

// A .npy file with the given version, header dict text and raw data; the header is
// padded with spaces and a newline to a multiple of 64 bytes, as NumPy does.
static std::string npy_bytes(int major, std::string header, const std::string &data) {
  size_t preamble = major == 1 ? 10 : 12;
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  for (int k = 0; k < (major == 1 ? 2 : 4); k++)
    out += char((header.size() >> (8 * k)) & 0xff);
  return out + header + data;
}

static std::string le32(std::initializer_list<uint32_t> xs) {
  std::string s;
  for (uint32_t x : xs)
    for (int k = 0; k < 4; k++)
      s += char((x >> (8 * k)) & 0xff);
  return s;
}

static std::string be32(std::initializer_list<uint32_t> xs) {
  std::string s;
  for (uint32_t x : xs)
    for (int k = 3; k >= 0; k--)
      s += char((x >> (8 * k)) & 0xff);
  return s;
}

static Value text(const std::string &t, const ValueType &type) {
  ValueReader r(t, "test");
  return r.read(&type);
}

static std::string npy_error(const std::string &bytes) {
  try {
    read_npy(bytes, "f.npy");
    return "no error";
  } catch (const NpyError &e) {
    return e.what();
  }
}

TEST_CASE("write_npy writes NumPy's header", "[npy]") {
  Value v = text("[1, 2, 3]", ValueType::of_prim(PrimType::I32, 1));
  std::string bytes = write_npy(v);
  CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  size_t header_len = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
  CHECK((10 + header_len) % 64 == 0);
  std::string header = bytes.substr(10, header_len);
  CHECK(header.rfind("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 0) == 0);
  CHECK(header.back() == '\n');
  CHECK(bytes.substr(10 + header_len) == le32({1, 2, 3}));
  std::string m = write_npy(text("[[1, 2], [3, 4]]", ValueType::of_prim(PrimType::U8, 2)));
  CHECK(m.find("'descr': '|u1'") != std::string::npos);
  CHECK(m.find("'shape': (2, 2)") != std::string::npos);
  std::string s = write_npy(Value(PrimValue::boolean(true)));
  CHECK(s.find("'descr': '|b1'") != std::string::npos);
  CHECK(s.find("'shape': ()") != std::string::npos);
  CHECK(s.back() == '\x01');
}

TEST_CASE("write then read gives the same value", "[npy]") {
  std::mt19937_64 rng(7);
  std::vector<std::vector<int64_t>> shapes = {{}, {0}, {5}, {2, 3}, {2, 0, 3}, {2, 3, 4}};
  for (int ti = 0; ti <= int(PrimType::F64); ti++) {
    PrimType t = PrimType(ti);
    for (const auto &shape : shapes) {
      INFO(prim_name(t) << " rank " << shape.size());
      int64_t n = 1;
      for (int64_t d : shape)
        n *= d;
      std::vector<Bits> data;
      for (int64_t k = 0; k < n; k++) {
        uint64_t r = rng();
        PrimValue p = t == PrimType::F64 ? PrimValue::floating(t, double(int64_t(r)) / 1e9)
                      : is_float(t)      ? PrimValue::floating(t, double(int32_t(r)) / 1e5)
                                         : PrimValue::unsigned_int(t, r);
        data.push_back(p.bits);
      }
      Value v = shape.empty() ? Value(PrimValue{t, data[0]}) : make_prim_array(t, shape, data);
      Value back = read_npy(write_npy(v), "rt.npy");
      CHECK(values_equal(back, v));
    }
  }
}

TEST_CASE("files round trip and missing files are reported", "[npy]") {
  std::string path =
      std::string(P_tmpdir) + "/kerb_npy_test_" + std::to_string(::getpid()) + ".npy";
  Value v = text("[[1.5, 2.5], [3.5, 4.5]]", ValueType::of_prim(PrimType::F32, 2));
  write_npy_file(v, path);
  CHECK(values_equal(read_npy_file(path), v));
  std::remove(path.c_str());
  try {
    read_npy_file(path);
    FAIL("expected an error");
  } catch (const NpyError &e) {
    CHECK(std::string(e.what()).find(path) == 0);
  }
  CHECK_THROWS_AS(write_npy_file(v, "/nonexistent-dir/x.npy"), NpyError);
  CHECK_THROWS_AS(write_npy(Value::tuple({PrimValue::boolean(true)})), NpyError);
}

TEST_CASE("headers in every form NumPy accepts", "[npy]") {
  ValueType i32v = ValueType::of_prim(PrimType::I32, 1),
            i32m = ValueType::of_prim(PrimType::I32, 2);
  // Big-endian data.
  Value be = read_npy(npy_bytes(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                                be32({1, 0xfffffffe})),
                      "be.npy");
  CHECK(values_equal(be, text("[1, -2]", i32v)));
  // Keys in another order, double quotes, no trailing comma, Python 2 longs, version 2.
  Value v2 =
      read_npy(npy_bytes(2, "{\"shape\": (2L,3L), \"fortran_order\": False, \"descr\": \"<i4\"}",
                         le32({1, 2, 3, 4, 5, 6})),
               "v2.npy");
  CHECK(values_equal(v2, text("[[1, 2, 3], [4, 5, 6]]", i32m)));
  // Version 3 and Fortran order: the data is column-major.
  Value f = read_npy(npy_bytes(3, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
                               le32({1, 4, 2, 5, 3, 6})),
                     "f.npy");
  CHECK(values_equal(f, text("[[1, 2, 3], [4, 5, 6]]", i32m)));
  Value f3 = read_npy(npy_bytes(1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2, 2), }",
                                le32({0, 4, 2, 6, 1, 5, 3, 7})),
                      "f3.npy");
  CHECK(values_equal(
      f3, text("[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]", ValueType::of_prim(PrimType::I32, 3))));
  // Bool, f16 and big-endian f64.
  Value b = read_npy(npy_bytes(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                               std::string("\x01\x00\x01", 3)),
                     "b.npy");
  CHECK(format_value(b) == "[true, false, true]");
  Value h = read_npy(npy_bytes(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                               std::string("\x00\x3c\x00\xc0", 4)),
                     "h.npy");
  CHECK(format_value(h) == "[1.0f16, -2.0f16]");
  std::string d("\x3f\xf8\x00\x00\x00\x00\x00\x00", 8);
  Value be64 =
      read_npy(npy_bytes(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (), }", d), "s.npy");
  CHECK(format_value(be64) == "1.5f64");
  // Empty arrays need no data.
  Value e = read_npy(
      npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 0), }", ""), "e.npy");
  CHECK(format_value(e) == "empty([4][0]f32)");
}

TEST_CASE("malformed and lying files give clear errors", "[npy]") {
  const std::string ok_header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
  const std::string two = le32({1, 2});
  CHECK(npy_error("") == "f.npy: not a .npy file (missing the \\x93NUMPY magic)");
  CHECK(npy_error("PK\x03\x04 zip file") ==
        "f.npy: not a .npy file (missing the \\x93NUMPY magic)");
  CHECK(npy_error(std::string("\x93NUMPY\x04\x00", 8)) ==
        "f.npy: unsupported .npy format version 4.0");
  CHECK(npy_error(std::string("\x93NUMPY\x01\x00\x10", 9)) == "f.npy: truncated header length");
  CHECK(npy_error(std::string("\x93NUMPY\x01\x00\xff\xff{}", 12)).find("truncated header") !=
        std::string::npos);
  CHECK(npy_error(npy_bytes(1, "[1, 2]", "")) == "f.npy: the header is not a dictionary");
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'shape': (2,)}", two)) ==
        "f.npy: the header lacks the key 'fortran_order'");
  CHECK(npy_error(npy_bytes(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}", two))
            .find("unsupported dtype '<c8'") != std::string::npos);
  CHECK(npy_error(
            npy_bytes(1, "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,)}", two))
            .find("structured dtypes") != std::string::npos);
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'fortran_order': 0, 'shape': (2,)}", two)) ==
        "f.npy: 'fortran_order' is not True or False");
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}", two)) ==
        "f.npy: 'shape' must hold non-negative integers");
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': 2}", two)) ==
        "f.npy: 'shape' is not a tuple");
  CHECK(npy_error(npy_bytes(1,
                            "{'descr': '<i4', 'fortran_order': False, "
                            "'shape': (1099511627776, 1099511627776)}",
                            two))
            .find("is too large") != std::string::npos);
  CHECK(npy_error(npy_bytes(1,
                            "{'descr': '<i4', 'fortran_order': False, "
                            "'shape': (99999999999999999999,)}",
                            two))
            .find("integer too large") != std::string::npos);
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,)}", two)) ==
        "f.npy: the shape (3) and dtype '<i4' need 12 bytes of data, the file has 8");
  CHECK(
      npy_error(npy_bytes(1, ok_header, two + "x")).find("need 8 bytes of data, the file has 9") !=
      std::string::npos);
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4", two)).find("unterminated string") !=
        std::string::npos);
  CHECK(npy_error(npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} x", two))
            .find("unexpected text after the dictionary") != std::string::npos);
  CHECK(npy_error(npy_bytes(1, std::string(1000, '('), two)).find("nested too deeply") !=
        std::string::npos);
}

TEST_CASE("truncated and corrupted files never crash", "[npy]") {
  std::string good =
      write_npy(text("[[1, 2, 3], [4, 5, 6]]", ValueType::of_prim(PrimType::I64, 2)));
  for (size_t len = 0; len < good.size(); len++)
    CHECK_THROWS_AS(read_npy(good.substr(0, len), "t"), NpyError);
  std::mt19937 rng(99);
  for (int i = 0; i < 20000; i++) {
    std::string bad = good;
    int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; k++)
      bad[rng() % bad.size()] = char(rng());
    try {
      read_npy(bad, "fuzz");
    } catch (const NpyError &) {
    }
  }
}
