// Unit tests of the JSON writer behind `kerb bench --json` (driver/json_writer.h).
#include "driver/json_writer.h"

#include <catch2/catch.hpp>

#include <cmath>

using kerb::driver::json_quote;
using kerb::driver::JsonWriter;

TEST_CASE("json_quote escapes quotes, backslashes and control characters", "[json]") {
  CHECK(json_quote("plain") == "\"plain\"");
  CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_quote("l1\nl2\tx\r") == "\"l1\\nl2\\tx\\r\"");
  CHECK(json_quote(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(json_quote("caf\xc3\xa9") == "\"caf\xc3\xa9\""); // UTF-8 passes through
}

TEST_CASE("JsonWriter nests objects and arrays with commas and indentation", "[json]") {
  JsonWriter j;
  j.begin_object();
  j.field("name", "x");
  j.field("n", 3);
  j.field("big", 1LL << 40);
  j.field("ok", true);
  j.field("ratio", 1.5);
  j.field("nan", std::nan(""));
  j.field("runs_ms", std::vector<double>{1, 2.5});
  j.key("empty").begin_array().end_array();
  j.key("list").begin_array();
  j.value("a").begin_object().end_object().null();
  j.end_array();
  j.end_object();
  CHECK(j.complete());
  CHECK(j.str() == R"({
  "name": "x",
  "n": 3,
  "big": 1099511627776,
  "ok": true,
  "ratio": 1.5,
  "nan": null,
  "runs_ms": [1, 2.5],
  "empty": [],
  "list": [
    "a",
    {},
    null
  ]
}
)");
}
