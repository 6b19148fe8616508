// Unit tests for failure_table/: message formatting and serialisation.
#include "failure_table/failure_table.h"

#include <catch2/catch.hpp>

using namespace kerb;

TEST_CASE("index templates follow Futhark's wording", "[failure_table]") {
  CHECK(index_template(1) == "Index [{}] out of bounds for array of shape [{}].");
  CHECK(index_template(2) == "Index [{}, {}] out of bounds for array of shape [{}][{}].");
}

TEST_CASE("messages are formatted from argument slots", "[failure_table]") {
  FailureRecord r{FailureKind::Bounds, "prog.fut:5:46-50", index_template(2),
                  {ArgType::I64, ArgType::I64, ArgType::I64, ArgType::I64}};
  CHECK(format_failure_message(r, {7, -1, 3, 4}) ==
        "Index [7, -1] out of bounds for array of shape [3][4].");
  CHECK(format_failure(r, {7, -1, 3, 4}) ==
        "Index [7, -1] out of bounds for array of shape [3][4].\nat prog.fut:5:46-50");
  // Too few arguments never crash.
  CHECK(format_failure_message(r, {7}) == "Index [7, ?] out of bounds for array of shape [?][?].");
}

TEST_CASE("unsigned slots print as unsigned", "[failure_table]") {
  FailureRecord r{FailureKind::Range, "a.fut:1:1-5", "Range {}..{} is invalid.",
                  {ArgType::U64, ArgType::I64}};
  CHECK(format_failure_message(r, {-1, -1}) == "Range 18446744073709551615..-1 is invalid.");
}

TEST_CASE("braces in literal text are escaped", "[failure_table]") {
  FailureRecord r{FailureKind::Assert, "a.fut:1:1-5",
                  "Assertion is false: " + escape_template_text("f {x} == 1"), {}};
  CHECK(format_failure_message(r, {}) == "Assertion is false: f {x} == 1");
}

TEST_CASE("tables round-trip through serialisation", "[failure_table]") {
  FailureTable t;
  t.add({FailureKind::Bounds, "p.fut:1:2-3", index_template(1), {ArgType::I64, ArgType::I64}});
  t.add({FailureKind::Assert, "p\tq.fut:2:1-9", "Assertion is false: a\\b\nc", {}});
  t.add({FailureKind::Division, "p.fut:3:1-2", "division by zero", {}});
  FailureTable u;
  REQUIRE(u.deserialize(t.serialize()));
  REQUIRE(u.records.size() == 3);
  for (size_t i = 0; i < 3; i++) {
    CHECK(u.records[i].kind == t.records[i].kind);
    CHECK(u.records[i].location == t.records[i].location);
    CHECK(u.records[i].message_template == t.records[i].message_template);
    CHECK(u.records[i].arg_types == t.records[i].arg_types);
  }
}

TEST_CASE("malformed tables are rejected", "[failure_table]") {
  FailureTable t;
  t.add({FailureKind::Bounds, "x", "y", {}});
  CHECK_FALSE(t.deserialize("nonsense"));
  CHECK_FALSE(t.deserialize("kerb-failure-table 1\nbogus\tx\ty\t\n"));
  CHECK_FALSE(t.deserialize("kerb-failure-table 1\nbounds\tx\ty\n"));
  CHECK_FALSE(t.deserialize("kerb-failure-table 1\nbounds\tx\\q\ty\t\n"));
  CHECK_FALSE(t.deserialize("kerb-failure-table 1\nbounds\tx\ty\tz\n"));
  CHECK(t.records.size() == 1); // unchanged
}

TEST_CASE("kind names round-trip", "[failure_table]") {
  for (FailureKind k : {FailureKind::Bounds, FailureKind::Division, FailureKind::Assert,
                        FailureKind::Range, FailureKind::Size, FailureKind::NaN}) {
    FailureKind back;
    REQUIRE(failure_kind_from_name(failure_kind_name(k), back));
    CHECK(back == k);
  }
  FailureKind out;
  CHECK_FALSE(failure_kind_from_name("index", out));
}
