// Unit tests for driver/test_spec: reading Futhark-style `-- ==` test blocks.
#include "driver/test_spec.h"

#include "runtime/value_text.h"

#include <catch2/catch.hpp>

using namespace kerb;
using namespace kerb::driver;

namespace {

// The line number of the TestSpecError thrown for `source`, or 0 when none is.
int error_line(const std::string &source, std::string *message = nullptr) {
  try {
    parse_test_spec(source, "t.fut");
  } catch (const TestSpecError &e) {
    if (message) *message = e.what();
    return e.line();
  }
  return 0;
}

} // namespace

TEST_CASE("a file without a test block has no blocks", "[test_spec]") {
  TestSpec s = parse_test_spec("-- just a comment\ndef main (x: i32) = x\n", "t.fut");
  CHECK(s.blocks.empty());
}

TEST_CASE("input and output on one line, default entry main", "[test_spec]") {
  TestSpec s = parse_test_spec("-- Adds one.\n-- ==\n-- input { 1 2 } output { 3 }\n"
                               "def main (x: i32) (y: i32) = x + y\n",
                               "t.fut");
  REQUIRE(s.blocks.size() == 1);
  const TestBlock &b = s.blocks[0];
  CHECK(b.line == 2);
  CHECK(b.description == "Adds one.");
  CHECK(b.entries == std::vector<std::string>{"main"});
  REQUIRE(b.cases.size() == 1);
  const TestCase &c = b.cases[0];
  CHECK(c.line == 3);
  CHECK(c.input.kind == SpecValues::Inline);
  CHECK(c.expect == TestCase::Output);
  // The value texts keep the file's lines and columns for error messages.
  ValueReader in(c.input.text, "t.fut");
  CHECK(format_value(in.read(nullptr)) == "1i32");
  CHECK(format_value(in.read(nullptr)) == "2i32");
  CHECK(in.at_end());
  ValueReader out(c.output.text, "t.fut");
  CHECK(format_value(out.read(nullptr)) == "3i32");
  try {
    ValueReader bad(
        parse_test_spec("-- ==\n-- input { 1 ]] }\n", "t.fut").blocks[0].cases[0].input.text,
        "t.fut");
    bad.read(nullptr);
    bad.read(nullptr);
    FAIL("expected a ValueError");
  } catch (const ValueError &e) {
    CHECK(std::string(e.what()).rfind("t.fut:2:14:", 0) == 0);
  }
}

TEST_CASE("entries, tags, error cases and several blocks", "[test_spec]") {
  TestSpec s = parse_test_spec(R"(-- ==
-- entry: f g
-- tags { slow disable }
-- input { [1, 2] } output { 3 }
-- input { [1, 2] 7 }
-- error: Index \[7\] out of bounds
-- structure gpu { Assert 0 }
entry f (xs: []i32) = 0
-- Second block.
-- ==
-- compiled input { 1 }
-- nobench input { 2 } output { 2 }
entry main (x: i32) = x
)",
                               "t.fut");
  REQUIRE(s.blocks.size() == 2);
  const TestBlock &a = s.blocks[0];
  CHECK(a.entries == std::vector<std::string>{"f", "g"});
  CHECK(a.tags == std::vector<std::string>{"slow", "disable"});
  CHECK(a.disabled());
  REQUIRE(a.cases.size() == 2);
  CHECK(a.cases[1].expect == TestCase::Error);
  CHECK(a.cases[1].error_regex == "Index \\[7\\] out of bounds");
  const TestBlock &b = s.blocks[1];
  CHECK(b.line == 10);
  CHECK(b.description == "Second block.");
  CHECK_FALSE(b.disabled());
  REQUIRE(b.cases.size() == 2);
  CHECK(b.cases[0].compiled);
  CHECK(b.cases[0].expect == TestCase::Succeed);
  CHECK(b.cases[1].nobench);
  CHECK(b.cases[1].expect == TestCase::Output);
}

TEST_CASE("values spanning several comment lines", "[test_spec]") {
  TestSpec s = parse_test_spec("-- ==\n-- input {\n--   [1, 2,\n--    3]\n-- }\n"
                               "-- output {\n--   6\n-- }\n",
                               "t.fut");
  REQUIRE(s.blocks.size() == 1);
  REQUIRE(s.blocks[0].cases.size() == 1);
  ValueReader in(s.blocks[0].cases[0].input.text, "t.fut");
  CHECK(format_value(in.read(nullptr)) == "[1i32, 2i32, 3i32]");
  CHECK(in.at_end());
  ValueReader out(s.blocks[0].cases[0].output.text, "t.fut");
  CHECK(format_value(out.read(nullptr)) == "6i32");
}

TEST_CASE("file inputs and random inputs", "[test_spec]") {
  TestSpec s = parse_test_spec("-- ==\n-- input @ data/a.in output @ data/a.out\n"
                               "-- input @ x.npy\n-- random input { [10][2]f32 i64 }\n",
                               "t.fut");
  REQUIRE(s.blocks[0].cases.size() == 3);
  const TestCase &f = s.blocks[0].cases[0];
  CHECK(f.input.kind == SpecValues::File);
  CHECK(f.input.path == "data/a.in");
  CHECK(f.output.kind == SpecValues::File);
  CHECK(f.output.path == "data/a.out");
  CHECK(s.blocks[0].cases[1].input.path == "x.npy");
  const TestCase &r = s.blocks[0].cases[2];
  CHECK(r.input.kind == SpecValues::Random);
  REQUIRE(r.input.random.size() == 2);
  CHECK(r.input.random[0].str() == "[10][2]f32");
  CHECK(r.input.random[1].str() == "i64");
  CHECK(r.expect == TestCase::Succeed);
  TestSpec a = parse_test_spec("-- ==\n-- random input { [3]i32 } auto output\n", "t.fut");
  CHECK(a.blocks[0].cases[0].expect == TestCase::Auto);
}

TEST_CASE("a lone error: expects a compile error", "[test_spec]") {
  TestSpec s = parse_test_spec("-- ==\n-- error: cannot apply '\\+'\n", "t.fut");
  REQUIRE(s.blocks.size() == 1);
  REQUIRE(s.blocks[0].compile_error);
  CHECK(*s.blocks[0].compile_error == "cannot apply '\\+'");
  CHECK(s.blocks[0].cases.empty());
}

TEST_CASE("script input: FutharkScript read as text, a script file noted", "[test_spec]") {
  TestSpec spec = parse_test_spec("-- ==\n-- script input { mk 3i64 } output { 6i64 }\n"
                                  "-- compiled script input @ x.fs\n", "t.fut");
  REQUIRE(spec.blocks.size() == 1);
  REQUIRE(spec.blocks[0].cases.size() == 2);
  const TestCase &a = spec.blocks[0].cases[0];
  CHECK(a.input.kind == SpecValues::Script);
  CHECK(a.input.text.find("mk 3i64") != std::string::npos);
  CHECK(a.expect == TestCase::Output);
  const TestCase &b = spec.blocks[0].cases[1];
  CHECK(b.input.kind == SpecValues::Script);
  CHECK(b.input.path == "x.fs");
  CHECK(b.compiled);
}

TEST_CASE("malformed blocks are errors with line numbers", "[test_spec]") {
  std::string msg;
  CHECK(error_line("-- ==\n-- input { 1 } output { 2 }\n-- oops { 3 }\n", &msg) == 3);
  CHECK(msg.find("t.fut:3:") == 0);
  CHECK(error_line("\n-- ==\n-- input { 1 \n-- output { 2 }\n") == 3); // unterminated
  CHECK(error_line("-- ==\n-- output { 2 }\n") == 2);                  // no input
  CHECK(error_line("-- ==\n-- entry:\n") == 2);
  CHECK(error_line("-- ==\n-- output:\n") == 2);
  CHECK(error_line("-- ==\n--\n-- script input { f 1 }\n") == 0); // FutharkScript: read
  CHECK(error_line("-- ==\n--\n-- script input {\n") == 3);          // unterminated
  CHECK(error_line("-- ==\n-- input { 1 } auto frobnicate\n") == 2);
  CHECK(error_line("-- ==\n-- random input { [n]i32 }\n") == 2);
  CHECK(error_line("-- ==\n-- random input { [3]i33 }\n") == 2);
  CHECK(error_line("-- ==\n-- input @\n") == 2);
  CHECK(error_line("-- ==\n-- input { 1 }\n-- error: x\n-- input { 2 }\n") == 0);
  CHECK(error_line("-- ==\n-- error: x\n-- input { 2 }\n") == 3);
  CHECK(error_line("-- ==\n-- compiled output { 2 }\n") == 2);
}

TEST_CASE("Futhark's per-case tags, warnings, empty error patterns, fixed random values",
          "[test_spec]") {
  TestSpec s =
      parse_test_spec("-- ==\n-- warning: unused\n-- no_python no_wasm compiled input { 1 }\n"
                      "-- input { 0 } error:\n-- random input { 10i64 [3]f32 }\n",
                      "t.fut");
  REQUIRE(s.blocks[0].cases.size() == 3);
  const TestCase &a = s.blocks[0].cases[0];
  CHECK(a.tags == std::vector<std::string>{"no_python", "no_wasm"});
  CHECK(a.compiled);
  CHECK(s.blocks[0].cases[1].expect == TestCase::Error);
  CHECK(s.blocks[0].cases[1].error_regex.empty());
  const TestCase &r = s.blocks[0].cases[2];
  REQUIRE(r.input.random.size() == 2);
  CHECK(r.input.random[0].literal == "10i64");
  CHECK(r.input.random[1].str() == "[3]f32");
  TestSpec n = parse_test_spec("-- ==\n-- \"small one\" input { 1 } output { 1 }\n", "t.fut");
  REQUIRE(n.blocks[0].cases.size() == 1);
  CHECK(n.blocks[0].cases[0].name == "small one");
  CHECK(n.blocks[0].cases[0].expect == TestCase::Output);
  CHECK(error_line("-- ==\n-- \"oops input { 1 }\n") == 2);
  TestSpec e = parse_test_spec("-- ==\n-- error:\n", "t.fut");
  REQUIRE(e.blocks[0].compile_error);
  CHECK(e.blocks[0].compile_error->empty());
}

TEST_CASE("a block ends at the first line that is not a comment", "[test_spec]") {
  TestSpec s = parse_test_spec("-- ==\n-- input { 1 } output { 1 }\n\n-- not a test line\n"
                               "def main (x: i32) = x\n",
                               "t.fut");
  REQUIRE(s.blocks.size() == 1);
  CHECK(s.blocks[0].cases.size() == 1);
}
