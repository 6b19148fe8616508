// The JSON writer of benchmark reports (see json_writer.h).
#include "driver/json_writer.h"

#include <fmt/format.h>

#include <cassert>
#include <cmath>

namespace kerb::driver {

std::string json_quote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20)
        out += fmt::format("\\u{:04x}", c);
      else
        out += char(c);
    }
  }
  return out + "\"";
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::before_value() {
  if (stack_.empty()) {
    assert(out_.empty() && "JsonWriter: one top-level value only");
    return;
  }
  Level &l = stack_.back();
  if (l.is_object) {
    assert(l.key_pending && "JsonWriter: a value in an object needs a key first");
    l.key_pending = false;
    return;
  }
  if (!l.empty) out_ += ',';
  l.empty = false;
  newline();
}

JsonWriter &JsonWriter::key(const std::string &k) {
  assert(!stack_.empty() && stack_.back().is_object && !stack_.back().key_pending &&
         "JsonWriter: a key belongs in an object, before its value");
  Level &l = stack_.back();
  if (!l.empty) out_ += ',';
  l.empty = false;
  l.key_pending = true;
  newline();
  out_ += json_quote(k);
  out_ += ": ";
  return *this;
}

JsonWriter &JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back(Level{true});
  return *this;
}

JsonWriter &JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  stack_.push_back(Level{false});
  return *this;
}

JsonWriter &JsonWriter::end_object() {
  assert(!stack_.empty() && stack_.back().is_object && !stack_.back().key_pending &&
         "JsonWriter: unbalanced end_object");
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += '}';
  if (stack_.empty()) out_ += '\n';
  return *this;
}

JsonWriter &JsonWriter::end_array() {
  assert(!stack_.empty() && !stack_.back().is_object && "JsonWriter: unbalanced end_array");
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += ']';
  if (stack_.empty()) out_ += '\n';
  return *this;
}

JsonWriter &JsonWriter::value(const std::string &s) {
  before_value();
  out_ += json_quote(s);
  return *this;
}

JsonWriter &JsonWriter::value(double d) {
  before_value();
  out_ += std::isfinite(d) ? fmt::format("{}", d) : std::string("null");
  return *this;
}

JsonWriter &JsonWriter::value(long long i) {
  before_value();
  out_ += fmt::format("{}", i);
  return *this;
}

JsonWriter &JsonWriter::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter &JsonWriter::field(const std::string &k, const std::vector<double> &numbers) {
  key(k);
  // Numbers on one line: runs lists stay readable.
  before_value();
  out_ += '[';
  for (size_t i = 0; i < numbers.size(); i++) {
    if (i) out_ += ", ";
    out_ += std::isfinite(numbers[i]) ? fmt::format("{}", numbers[i]) : std::string("null");
  }
  out_ += ']';
  return *this;
}

} // namespace kerb::driver
