// Source files, source spans and compile-time diagnostics.
//
// Every AST node carries a Span. A diagnostic is rendered chibicc-style:
//
//   prog.fut:3:9: error: cannot apply '+' to 'i32' and 'f32'
//       3 | def f (x: i32) (y: f32) = x + y
//         |                           ^~~~~
//
// User mistakes are reported by throwing CompileError (see error_at); the driver
// catches it and prints render(). Compiler bugs use KERB_ASSERT (internal error).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kerb {

// A loaded source file. Owns its text; spans point into it by offset.
struct SourceFile {
  std::string path;  // as given by the user; used in diagnostics
  std::string text;

  SourceFile(std::string path, std::string text);

  // 1-based line and column of a byte offset (columns count bytes).
  int line_of(uint32_t offset) const;
  int col_of(uint32_t offset) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view line_text(int line) const;

private:
  std::vector<uint32_t> line_starts_;
};

// Loads a file; throws CompileError with a clear message if it cannot be read.
std::shared_ptr<const SourceFile> load_source_file(const std::string &path);

// A half-open byte range [begin, end) in one source file.
struct Span {
  const SourceFile *file = nullptr;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != nullptr; }
  // Smallest span covering both (same file).
  Span to(const Span &other) const;
  // The source text covered.
  std::string_view text() const;
  // "file.fut:LINE:COL-COL" (Futhark's location form; COL-COL is the first line's
  // column range, or "LINE:COL-LINE:COL" when the span covers several lines).
  std::string location() const;
  // location() without the file: "LINE:COL-COL" (for a place within a reported line).
  std::string place() const;
};

// A user-facing compile error, with its span. what() is the bare message.
class CompileError : public std::runtime_error {
public:
  CompileError(Span span, std::string message)
      : std::runtime_error(message), span_(span) {}
  const Span &span() const { return span_; }
  // "file:line:col: error: message\n  line | source\n       | ^~~~\n"
  std::string render() const;

private:
  Span span_;
};

[[noreturn]] void error_at(Span span, std::string message);

// Internal compiler errors: a bug in Kerb, never the user's fault.
[[noreturn]] void internal_error(const char *file, int line, const std::string &message);

#define KERB_ASSERT(cond, msg)                                                 \
  do {                                                                         \
    if (!(cond)) ::kerb::internal_error(__FILE__, __LINE__, (msg));            \
  } while (0)

} // namespace kerb
