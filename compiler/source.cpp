// Source files, spans and the rendering of compile-time diagnostics.
#include "compiler/source.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace kerb {

SourceFile::SourceFile(std::string path_, std::string text_)
    : path(std::move(path_)), text(std::move(text_)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text.size(); i++)
    if (text[i] == '\n')
      line_starts_.push_back(i + 1);
}

int SourceFile::line_of(uint32_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return int(it - line_starts_.begin());
}

int SourceFile::col_of(uint32_t offset) const {
  int line = line_of(offset);
  return int(offset - line_starts_[line - 1]) + 1;
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > int(line_starts_.size()))
    return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < int(line_starts_.size()) ? line_starts_[line] : uint32_t(text.size());
  while (e > b && (text[e - 1] == '\n' || text[e - 1] == '\r'))
    e--;
  return std::string_view(text).substr(b, e - b);
}

std::shared_ptr<const SourceFile> load_source_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw CompileError(Span{}, fmt::format("cannot open '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    throw CompileError(Span{}, fmt::format("cannot read '{}'", path));
  return std::make_shared<SourceFile>(path, ss.str());
}

Span Span::to(const Span &other) const {
  if (!valid())
    return other;
  if (!other.valid())
    return *this;
  return Span{file, std::min(begin, other.begin), std::max(end, other.end)};
}

std::string_view Span::text() const {
  if (!valid())
    return {};
  return std::string_view(file->text).substr(begin, end - begin);
}

std::string Span::location() const {
  if (!valid())
    return "<unknown location>";
  return file->path + ":" + place();
}

std::string Span::place() const {
  if (!valid())
    return "<unknown location>";
  int l0 = file->line_of(begin), c0 = file->col_of(begin);
  uint32_t last = end > begin ? end - 1 : begin;
  int l1 = file->line_of(last), c1 = file->col_of(last);
  if (l0 == l1)
    return fmt::format("{}:{}-{}", l0, c0, c1);
  return fmt::format("{}:{}-{}:{}", l0, c0, l1, c1);
}

std::string CompileError::render() const {
  if (!span_.valid())
    return fmt::format("error: {}\n", what());
  const SourceFile &f = *span_.file;
  int line = f.line_of(span_.begin), col = f.col_of(span_.begin);
  std::string out = fmt::format("{}:{}:{}: error: {}\n", f.path, line, col, what());
  std::string_view src = f.line_text(line);
  std::string gutter = fmt::format("{:>5}", line);
  out += fmt::format("{} | {}\n", gutter, src);
  // Caret under the span's first line; tabs are kept so the caret lines up.
  std::string marks;
  for (int i = 1; i < col && i - 1 < int(src.size()); i++)
    marks += src[i - 1] == '\t' ? '\t' : ' ';
  uint32_t line_end = uint32_t(col - 1 + (src.size() - std::min<size_t>(src.size(), col - 1)));
  uint32_t len = std::max<uint32_t>(1, std::min<uint32_t>(span_.end - span_.begin, line_end - (col - 1)));
  marks += '^';
  marks += std::string(len - 1, '~');
  out += fmt::format("{} | {}\n", std::string(gutter.size(), ' '), marks);
  return out;
}

void error_at(Span span, std::string message) { throw CompileError(span, std::move(message)); }

void internal_error(const char *file, int line, const std::string &message) {
  throw std::logic_error(fmt::format("internal compiler error at {}:{}: {}", file, line, message));
}

} // namespace kerb
