// Unit tests for compiler/source: line/column mapping, locations and diagnostics.
#include "compiler/source.h"

#include <catch2/catch.hpp>

using namespace kerb;

TEST_CASE("offsets map to lines and columns", "[source]") {
  SourceFile f("a.fut", "ab\ncd\n\nefg");
  CHECK(f.line_of(0) == 1);
  CHECK(f.col_of(1) == 2);
  CHECK(f.line_of(3) == 2);
  CHECK(f.col_of(3) == 1);
  CHECK(f.line_of(7) == 4);
  CHECK(f.line_text(2) == "cd");
  CHECK(f.line_text(3) == "");
  CHECK(f.line_text(4) == "efg");
  CHECK(f.line_text(9) == "");
}

TEST_CASE("spans print Futhark-style locations", "[source]") {
  SourceFile f("p.fut", "let x =\n  xs[7]\n");
  Span s{&f, 10, 15};
  CHECK(s.text() == "xs[7]");
  CHECK(s.location() == "p.fut:2:3-7");
  Span multi{&f, 0, 15};
  CHECK(multi.location() == "p.fut:1:1-2:7");
  CHECK(Span{}.location() == "<unknown location>");
}

TEST_CASE("diagnostics quote the line with a caret", "[source]") {
  SourceFile f("p.fut", "def f (x: i32) = x + y\n");
  CompileError e(Span{&f, 21, 22}, "unknown variable 'y'");
  CHECK(e.render() == "p.fut:1:22: error: unknown variable 'y'\n"
                      "    1 | def f (x: i32) = x + y\n"
                      "      |                      ^\n");
  CompileError wide(Span{&f, 17, 22}, "bad");
  CHECK(wide.render().find("^~~~~\n") != std::string::npos);
  CompileError nowhere(Span{}, "cannot open 'x.fut'");
  CHECK(nowhere.render() == "error: cannot open 'x.fut'\n");
}

TEST_CASE("load_source_file reports unreadable files", "[source]") {
  CHECK_THROWS_AS(load_source_file("/nonexistent/dir/x.fut"), CompileError);
  auto f = load_source_file(std::string(KERB_SOURCE_DIR) + "/CMakeLists.txt");
  CHECK(f->text.find("project(kerb") != std::string::npos);
}
