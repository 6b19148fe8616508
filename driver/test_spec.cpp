// Parses Futhark-style `-- ==` test blocks out of a .fut file (see test_spec.h).
//
// Each block's comment lines are turned into one text in which every leading `--` is
// replaced by two spaces, so offsets in that text keep the file's columns; a small
// scanner then reads the block's words, braces and `@ path`s from it.
#include "driver/test_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kerb::driver {

TestSpecError::TestSpecError(const std::string &file, int line, const std::string &message)
    : std::runtime_error(fmt::format("{}:{}: {}", file, line, message)), line_(line) {}

std::string RandomType::str() const {
  if (!literal.empty()) return literal;
  std::string out;
  for (int64_t d : dims)
    out += fmt::format("[{}]", d);
  return out + prim_name(prim);
}

bool TestBlock::disabled() const {
  return std::find(tags.begin(), tags.end(), "disable") != tags.end();
}

namespace {

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  for (std::string &l : lines)
    if (!l.empty() && l.back() == '\r') l.pop_back();
  return lines;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// The offset of a line's `--` (after indentation), or npos when it is no comment.
size_t comment_start(const std::string &line) {
  size_t b = line.find_first_not_of(" \t");
  if (b == std::string::npos || line.compare(b, 2, "--") != 0) return std::string::npos;
  return b;
}

bool is_block_start(const std::string &line) {
  size_t c = comment_start(line);
  return c != std::string::npos && trim(line.substr(c + 2)) == "==";
}

std::vector<std::string> split_words(const std::string &s) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
    if (i > b) words.push_back(s.substr(b, i - b));
  }
  return words;
}

// Reads one block's text (comment markers blanked out).
class BlockParser {
public:
  BlockParser(std::string body, int first_line, const std::string &file)
      : body_(std::move(body)), first_line_(first_line), file_(file) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < body_.size(); ++i)
      if (body_[i] == '\n') line_starts_.push_back(i + 1);
  }

  void parse(TestBlock &block) {
    for (skip_space(); pos_ < body_.size(); skip_space()) {
      int line = line_at(pos_);
      if (body_[pos_] == '"') {
        // A named case: `"dataset name" input { ... }`.
        std::string name = read_string(line);
        skip_space();
        std::string word = read_word();
        if (!is_case_start(word))
          fail(line, fmt::format("expected an input after the case name \"{}\"", name));
        block.cases.push_back(parse_case(word, line));
        block.cases.back().name = name;
        continue;
      }
      std::string word = read_word();
      if (word.empty())
        fail(line, fmt::format("unexpected '{}' in a test block (expected entry:, tags, "
                               "input, output, error: or structure)",
                               body_[pos_]));
      if (word == "entry:") {
        block.entries = split_words(rest_of_line());
        if (block.entries.empty()) fail(line, "'entry:' needs at least one entry point name");
        continue;
      }
      if (word == "tags") {
        SpecValues inner = read_braces("tags", line);
        std::vector<std::string> tags = split_words(inner.text);
        block.tags.insert(block.tags.end(), tags.begin(), tags.end());
        continue;
      }
      if (word == "structure") {
        // `structure { ... }` or `structure gpu { ... }`: about optimised code; ignored.
        for (skip_space(); pos_ < body_.size() && body_[pos_] != '{'; skip_space())
          if (read_word().empty()) break;
        read_braces("structure", line);
        continue;
      }
      if (word == "error:") {
        if (!block.cases.empty())
          fail(line, "'error:' must follow an input, or come alone in a block "
                     "(a compile-time error)");
        if (block.compile_error) fail(line, "a block can expect only one compile-time error");
        // An empty pattern matches any diagnostic.
        block.compile_error = trim(rest_of_line());
        continue;
      }
      if (word == "warning:") {
        // Futhark's compile-time warnings; Kerb has none to compare, so it is ignored.
        rest_of_line();
        continue;
      }
      if (word == "output" || word == "auto")
        fail(line, fmt::format("'{}' without an input before it", word));
      if (is_case_start(word)) {
        if (block.compile_error)
          fail(line, "a block that expects a compile-time error cannot have inputs");
        block.cases.push_back(parse_case(word, line));
        continue;
      }
      fail(line, fmt::format("unexpected '{}' in a test block (expected entry:, tags, "
                             "input, output, error: or structure)",
                             word));
    }
    if (block.entries.empty()) block.entries = {"main"};
  }

private:
  std::string body_;
  int first_line_;
  const std::string &file_;
  std::vector<size_t> line_starts_;
  size_t pos_ = 0;

  [[noreturn]] void fail(int line, const std::string &message) const {
    throw TestSpecError(file_, line, message);
  }

  int line_index(size_t pos) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
    return int(it - line_starts_.begin()) - 1;
  }
  int line_at(size_t pos) const { return first_line_ + line_index(pos); }
  int col_at(size_t pos) const { return int(pos - line_starts_[line_index(pos)]) + 1; }

  void skip_space() {
    while (pos_ < body_.size() && std::isspace(static_cast<unsigned char>(body_[pos_])))
      ++pos_;
  }
  // Skips spaces and tabs only (not newlines).
  void skip_blanks() {
    while (pos_ < body_.size() && (body_[pos_] == ' ' || body_[pos_] == '\t'))
      ++pos_;
  }

  // A word: letters, digits, '_', '-', with an optional final ':' (entry:, error:).
  std::string read_word() {
    size_t b = pos_;
    while (pos_ < body_.size() && (std::isalnum(static_cast<unsigned char>(body_[pos_])) ||
                                   body_[pos_] == '_' || body_[pos_] == '-'))
      ++pos_;
    if (pos_ > b && pos_ < body_.size() && body_[pos_] == ':') ++pos_;
    return body_.substr(b, pos_ - b);
  }

  // A "quoted" name on one line.
  std::string read_string(int line) {
    size_t close = body_.find('"', pos_ + 1);
    size_t nl = body_.find('\n', pos_ + 1);
    if (close == std::string::npos || close > nl)
      fail(line, "unterminated case name (a '\"' with no closing '\"' on its line)");
    std::string name = body_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return name;
  }

  std::string rest_of_line() {
    size_t nl = body_.find('\n', pos_);
    if (nl == std::string::npos) nl = body_.size();
    std::string rest = body_.substr(pos_, nl - pos_);
    pos_ = nl;
    return rest;
  }

  // Reads `{ ... }` (nested braces and "strings" allowed) after optional space.
  SpecValues read_braces(const std::string &what, int line) {
    skip_space();
    if (pos_ >= body_.size() || body_[pos_] != '{')
      fail(pos_ < body_.size() ? line_at(pos_) : line,
           fmt::format("expected '{{' after '{}'", what));
    size_t open = pos_++;
    int depth = 1;
    while (pos_ < body_.size() && depth > 0) {
      char c = body_[pos_];
      if (c == '"') {
        for (++pos_; pos_ < body_.size() && body_[pos_] != '"'; ++pos_)
          if (body_[pos_] == '\\') ++pos_;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
      ++pos_;
    }
    if (depth > 0)
      fail(line_at(open), fmt::format("unterminated '{{' after '{}' (no matching '}}' "
                                      "before the end of the test block)",
                                      what));
    SpecValues v;
    v.kind = SpecValues::Inline;
    v.line = line_at(open);
    size_t content = open + 1;
    v.text = std::string(size_t(v.line - 1), '\n') + std::string(size_t(col_at(content) - 1), ' ') +
             body_.substr(content, pos_ - 1 - content);
    return v;
  }

  // `@ path` after optional blanks.
  SpecValues read_file_ref(int line) {
    ++pos_; // '@'
    skip_blanks();
    size_t b = pos_;
    while (pos_ < body_.size() && !std::isspace(static_cast<unsigned char>(body_[pos_])))
      ++pos_;
    if (pos_ == b) fail(line, "expected a file name after '@'");
    SpecValues v;
    v.kind = SpecValues::File;
    v.path = body_.substr(b, pos_ - b);
    v.line = line;
    return v;
  }

  // Whether `word` at the top of a block starts a case: `input`, a modifier
  // (compiled, nobench, random, script) or per-case tags (`no_python input`), which are
  // words followed, before any brace, by `input`.
  bool is_case_start(const std::string &word) {
    if (word == "input" || word == "compiled" || word == "nobench" || word == "random" ||
        word == "script")
      return true;
    if (word.empty() || word.back() == ':') return false;
    size_t save = pos_;
    bool found = false;
    for (;;) {
      skip_space();
      std::string next = read_word();
      if (next.empty() || next.back() == ':' || next == "output") break;
      if (next == "input") {
        found = true;
        break;
      }
    }
    pos_ = save;
    return found;
  }

  SpecValues read_values_or_file(const std::string &what, int line) {
    skip_space();
    if (pos_ < body_.size() && body_[pos_] == '@') return read_file_ref(line_at(pos_));
    return read_braces(what, line);
  }

  std::vector<RandomType> parse_random_types(const SpecValues &v) {
    std::vector<RandomType> types;
    for (const std::string &word : split_words(v.text)) {
      RandomType t;
      if (!word.empty() && word[0] != '[' && !std::isalpha(static_cast<unsigned char>(word[0]))) {
        t.literal = word; // a fixed value such as 10i64, read with the parameter's type
        types.push_back(t);
        continue;
      }
      size_t i = 0;
      while (i < word.size() && word[i] == '[') {
        size_t close = word.find(']', i);
        std::string digits = close == std::string::npos ? "" : word.substr(i + 1, close - i - 1);
        if (digits.empty() || digits.size() > 12 ||
            !std::all_of(digits.begin(), digits.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
          fail(v.line, fmt::format("bad random input type '{}' (expected a type like "
                                   "[10][20]f32, with every size given)",
                                   word));
        t.dims.push_back(std::stoll(digits));
        i = close + 1;
      }
      if (!prim_from_name(word.substr(i), t.prim))
        fail(v.line, fmt::format("bad random input type '{}' (expected a type like "
                                 "[10][20]f32, with every size given)",
                                 word));
      types.push_back(t);
    }
    return types;
  }

  TestCase parse_case(std::string word, int line) {
    TestCase c;
    c.line = line;
    bool random = false, script = false;
    std::string prev = word;
    for (;;) {
      if (word == "input") break;
      if (word == "script")
        script = true;
      else if (word == "compiled")
        c.compiled = true;
      else if (word == "nobench")
        c.nobench = true;
      else if (word == "random")
        random = true;
      else if (word.empty() || word.back() == ':' || word == "output" || word == "auto")
        fail(line, fmt::format("expected 'input' after '{}'", prev));
      else
        c.tags.push_back(word); // Futhark's per-case tags, e.g. no_python
      prev = word;
      skip_space();
      word = read_word();
    }
    if (script) {
      skip_space();
      c.input = read_values_or_file("script input", line); // a file: reported when run
      c.input.kind = SpecValues::Script;
    } else if (random) {
      c.input = read_braces("random input", line);
      c.input.kind = SpecValues::Random;
      c.input.random = parse_random_types(c.input);
      c.input.text.clear();
    } else {
      c.input = read_values_or_file("input", line);
    }
    // An optional expectation.
    skip_space();
    size_t save = pos_;
    int exp_line = pos_ < body_.size() ? line_at(pos_) : line;
    std::string next = read_word();
    if (next == "output") {
      c.expect = TestCase::Output;
      c.output = read_values_or_file("output", exp_line);
      return c;
    }
    if (next == "auto") {
      skip_space();
      if (read_word() != "output") fail(exp_line, "expected 'output' after 'auto'");
      c.expect = TestCase::Auto;
      return c;
    }
    if (next == "error:") {
      c.expect = TestCase::Error;
      c.error_regex = trim(rest_of_line()); // empty: any failure
      return c;
    }
    pos_ = save;
    c.expect = TestCase::Succeed;
    return c;
  }
};

} // namespace

TestSpec parse_test_spec(const std::string &source, const std::string &file) {
  TestSpec spec;
  std::vector<std::string> lines = split_lines(source);
  size_t prev_end = 0; // first line index not yet part of a block
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!is_block_start(lines[i])) continue;
    TestBlock block;
    block.line = int(i) + 1;
    // The description: the comment lines just above.
    size_t d = i;
    while (d > prev_end && comment_start(lines[d - 1]) != std::string::npos &&
           !is_block_start(lines[d - 1]))
      --d;
    for (size_t k = d; k < i; ++k) {
      std::string text = lines[k].substr(comment_start(lines[k]) + 2);
      block.description += trim(text);
      block.description += k + 1 < i ? "\n" : "";
    }
    // The body: following comment lines, up to a non-comment line or another `-- ==`.
    std::string body;
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      size_t c = comment_start(lines[j]);
      if (c == std::string::npos || is_block_start(lines[j])) break;
      std::string line = lines[j];
      line[c] = ' ';
      line[c + 1] = ' ';
      body += line;
      body += '\n';
    }
    BlockParser parser(std::move(body), int(i) + 2, file);
    parser.parse(block);
    spec.blocks.push_back(std::move(block));
    prev_end = j;
    i = j - 1;
  }
  return spec;
}

} // namespace kerb::driver
