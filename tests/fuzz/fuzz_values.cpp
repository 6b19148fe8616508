// libFuzzer target: the readers of input values (runtime/): Futhark's value syntax,
// with and without an expected type, and .npy files. The first byte picks the reader
// and the expected type; the rest is the input. A value that reads must print
// (format_value) and read back to an equal value; a .npy value must write and read back.
#include "runtime/npy.h"
#include "runtime/value_text.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

[[noreturn]] void bug(const std::string &what) {
  std::fprintf(stderr, "fuzz: %s\n", what.c_str());
  std::abort();
}

// NaN payloads are not kept by the text form, so compare with NaNs equal.
bool same(const kerb::Value &a, const kerb::Value &b) {
  kerb::Tolerance exact{0, 0, 0};
  return kerb::values_match(a, b, exact, nullptr);
}

void round_trip_text(const kerb::Value &v) {
  std::string text = kerb::format_value(v);
  kerb::ValueType t = v.type();
  kerb::ValueReader back(text, "printed");
  kerb::Value w;
  try {
    w = back.read(&t);
  } catch (const kerb::ValueError &e) {
    bug("a printed value does not read back: " + text + ": " + e.what());
  }
  if (!same(v, w)) bug("a printed value reads back different: " + text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  uint8_t mode = data[0];
  std::string input(reinterpret_cast<const char *>(data + 1), size - 1);
  try {
    if (mode % 4 == 3) {
      kerb::Value v = kerb::read_npy(input, "fuzz.npy");
      std::string bytes = kerb::write_npy(v);
      kerb::Value w = kerb::read_npy(bytes, "written.npy");
      if (!same(v, w)) bug("a .npy value written and read back differs");
      return 0;
    }
    kerb::ValueReader reader(input, "fuzz");
    // Expected types: none, or a primitive of rank 0..2 picked by the byte.
    kerb::ValueType expected;
    const kerb::ValueType *want = nullptr;
    if (mode % 4 != 0) {
      auto prim = static_cast<kerb::PrimType>((mode / 4) % 12);
      expected = kerb::ValueType::of_prim(prim, (mode / 48) % 3);
      want = &expected;
    }
    for (int k = 0; k < 8 && !reader.at_end(); ++k) {
      kerb::Value v = reader.read(want);
      if (want && v.type() != *want) bug("a value read with an expected type has another type");
      round_trip_text(v);
    }
  } catch (const kerb::ValueError &) {
  } catch (const kerb::NpyError &) {
  } catch (const std::exception &e) {
    bug(std::string("unexpected exception: ") + e.what());
  }
  return 0;
}
