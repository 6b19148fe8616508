// A small streaming JSON writer for reports (`kerb bench --json`): objects, arrays,
// strings (escaped), numbers and booleans, pretty-printed with two-space indentation.
// Misuse (a value where a key is due, unbalanced ends) is a programming error and
// asserts.
#pragma once

#include <string>
#include <vector>

namespace kerb::driver {

class JsonWriter {
public:
  JsonWriter &begin_object();
  JsonWriter &end_object();
  JsonWriter &begin_array();
  JsonWriter &end_array();
  JsonWriter &key(const std::string &k); // inside an object, before its value
  JsonWriter &value(const std::string &s);
  JsonWriter &value(const char *s) { return value(std::string(s)); }
  JsonWriter &value(double d); // non-finite numbers are written as null
  JsonWriter &value(long long i);
  JsonWriter &value(long i) { return value(static_cast<long long>(i)); }
  JsonWriter &value(int i) { return value(static_cast<long long>(i)); }
  JsonWriter &value(bool b);
  JsonWriter &null();
  // Shorthands for a key and its value.
  template <typename T> JsonWriter &field(const std::string &k, const T &v) {
    key(k);
    return value(v);
  }
  JsonWriter &field(const std::string &k, const std::vector<double> &numbers);

  // The document; complete once every object and array is closed.
  const std::string &str() const { return out_; }
  bool complete() const { return stack_.empty() && !out_.empty(); }

private:
  void before_value();
  void newline();

  std::string out_;
  struct Level {
    bool is_object;
    bool empty = true;
    bool key_pending = false;
  };
  std::vector<Level> stack_;
};

// `s` as a JSON string literal, quotes included.
std::string json_quote(const std::string &s);

} // namespace kerb::driver
