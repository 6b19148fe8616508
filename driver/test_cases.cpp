// Test-case values and outcome checks (see test_cases.h).
#include "driver/test_cases.h"

#include "driver/cli.h"
#include "driver/entry_io.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace kerb::driver {

std::string indent(const std::string &text, const std::string &prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

bool undefined_kinds_off(const CheckOptions &c) {
  for (FailureKind k : {FailureKind::Bounds, FailureKind::Division, FailureKind::Range, FailureKind::Size})
    if (!c.enabled(k)) return true;
  return false;
}

bool has_tag(const std::vector<std::string> &tags, const std::string &tag) {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::string read_text_file(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  ok = bool(in) && !in.bad();
  return ss.str();
}

std::vector<std::string> fut_files(const std::string &arg) {
  std::error_code ec;
  fs::file_status st = fs::status(arg, ec);
  if (ec || !fs::exists(st)) throw InputError(fmt::format("no such file or directory: '{}'", arg));
  if (!fs::is_directory(st)) return {arg};
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(arg, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError(fmt::format("cannot read directory '{}': {}", arg, ec.message()));
  for (fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) throw InputError(fmt::format("cannot read directory '{}': {}", arg, ec.message()));
    std::error_code fec;
    if (it->path().extension() == ".fut" && it->is_regular_file(fec))
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

// Random values for `random input`: integers over their whole range, floats in [0, 1),
// from a generator seeded by the case's line so that runs are reproducible.
Value random_value(const RandomType &t, std::mt19937_64 &rng) {
  auto one = [&]() -> PrimValue {
    if (t.prim == PrimType::Bool) return PrimValue::boolean(rng() & 1);
    if (is_signed_int(t.prim)) return PrimValue::signed_int(t.prim, int64_t(rng()));
    if (is_unsigned_int(t.prim)) return PrimValue::unsigned_int(t.prim, rng());
    return PrimValue::floating(t.prim, std::uniform_real_distribution<double>(0, 1)(rng));
  };
  if (t.dims.empty()) return Value(one());
  int64_t count = 1;
  for (int64_t d : t.dims) {
    if (d != 0 && count > (int64_t(1) << 27) / d)
      throw InputError(fmt::format("random input {} is too large", t.str()));
    count *= d;
  }
  std::vector<Bits> data(size_t(count), Bits{0});
  for (Bits &b : data)
    b = one().bits;
  return make_prim_array(t.prim, t.dims, std::move(data));
}

// The argument values of one case (flattened, one per input slot).
std::vector<Value> case_inputs(const TestCase &c, const FunDef &entry,
                               const std::vector<Slot> &slots, const fs::path &dir,
                               const std::string &fut_path) {
  if (c.input.kind == SpecValues::Random) {
    if (c.input.random.size() != slots.size())
      throw InputError(fmt::format("random input has {} values, but entry '{}' expects {}",
                                   c.input.random.size(), entry.name, slots.size()));
    std::mt19937_64 rng(uint64_t(c.line) * 0x9e3779b97f4a7c15ULL + 1);
    std::vector<Value> values;
    for (size_t k = 0; k < slots.size(); ++k) {
      const RandomType &t = c.input.random[k];
      if (!t.literal.empty()) {
        std::vector<ValueSource> literal{ValueSource{fut_path, t.literal, false, Value()}};
        std::vector<Slot> one{slots[k]};
        values.push_back(read_slot_values(literal, one, SlotRole::Argument, entry.name)[0]);
        continue;
      }
      ValueType vt = ValueType::of_prim(t.prim, int(t.dims.size()));
      if (vt != slots[k].type)
        throw InputError(fmt::format("random input {} does not fit argument {} of type {}", t.str(),
                                     k + 1, slots[k].type.str()));
      values.push_back(random_value(t, rng));
    }
    return values;
  }
  std::vector<ValueSource> sources;
  if (c.input.kind == SpecValues::Script && !c.input.path.empty())
    throw InputError("'script input @ FILE' (FutharkScript in a file) is not supported by Kerb");
  if (c.input.kind == SpecValues::File)
    sources.push_back(load_value_file((dir / c.input.path).string()));
  else
    sources.push_back(ValueSource{fut_path, c.input.text, false, Value()});
  return read_slot_values(sources, slots, SlotRole::Argument, entry.name);
}

} // namespace

std::vector<Value> case_arguments(const TestCase &c, const FunDef &entry, const fs::path &dir,
                                  const std::string &fut_path) {
  std::vector<Value> flat = case_inputs(c, entry, entry_input_slots(entry), dir, fut_path);
  return group_arguments(entry, flat);
}

ScriptCall script_call(const TestCase &c, const Program &program, const fs::path &dir,
                       const std::string &fut_path) {
  if (c.input.kind != SpecValues::Script || !c.input.path.empty()) return {};
  const std::string &text = c.input.text;
  size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  if (text[b] == '$' || text.compare(b, 4, "let ") == 0)
    throw InputError("this FutharkScript expression is not supported by Kerb (values, or an entry "
                     "point applied to values)");
  if (!std::isalpha(static_cast<unsigned char>(text[b]))) return {}; // values
  size_t e = b;
  while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_' || text[e] == '\''))
    ++e;
  std::string name = text.substr(b, e - b);
  if (name == "true" || name == "false" || name == "empty") return {}; // values
  const FunDef *f = program.find(name);
  if (!f || !f->is_entry)
    throw InputError(fmt::format("script input: '{}' is not an entry point of the program", name));
  // Its arguments: the rest, the name blanked so that positions stay the file's.
  TestCase call = c;
  call.input.kind = SpecValues::Inline;
  call.input.text.replace(b, e - b, std::string(e - b, ' '));
  return ScriptCall{f, case_arguments(call, *f, dir, fut_path)};
}

std::string check_case_outcome(const TestCase &c, const FunDef &entry, const RunResult &r,
                               const fs::path &dir, const std::string &fut_path) {
  if (c.expect == TestCase::Error) {
    if (r.ok)
      return fmt::format("expected an error matching: {}\nbut the program succeeded",
                         c.error_regex);
    try {
      std::regex re(c.error_regex, std::regex::ECMAScript);
      // Also with the "Error: " that `kerb run` prints first, as Futhark's tests expect.
      std::string text = r.failure.str();
      if (std::regex_search(text, re) || std::regex_search("Error: " + text, re)) return "";
    } catch (const std::regex_error &e) {
      return fmt::format("invalid regular expression '{}': {}", c.error_regex, e.what());
    }
    return fmt::format("expected an error matching: {}\nactual error:\n{}", c.error_regex,
                       indent(r.failure.str(), "  "));
  }
  if (!r.ok) return fmt::format("the program failed:\n{}", indent(r.failure.str(), "  "));
  if (c.expect == TestCase::Succeed || c.expect == TestCase::Auto) return "";

  std::vector<Value> expected;
  try {
    std::vector<ValueSource> sources;
    if (c.output.kind == SpecValues::File)
      sources.push_back(load_value_file((dir / c.output.path).string()));
    else
      sources.push_back(ValueSource{fut_path, c.output.text, false, Value()});
    expected =
        read_slot_values(sources, entry_output_slots(entry), SlotRole::ExpectedResult, entry.name);
  } catch (const std::exception &e) {
    return fmt::format("bad expected output: {}", e.what());
  }
  return check_case_results(entry, r, expected);
}

std::string check_case_results(const FunDef &, const RunResult &r,
                               const std::vector<Value> &expected_results) {
  std::vector<Value> expected = flatten_values(expected_results);
  std::vector<Value> actual = flatten_values(r.results);
  if (actual.size() != expected.size())
    return fmt::format("expected {} results, got {}", expected.size(), actual.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    std::string why;
    if (values_match(expected[k], actual[k], Tolerance::futhark(), &why)) continue;
    return fmt::format("result {} differs: {}\n  expected: {}\n  actual:   {}", k + 1, why,
                       abbreviate(format_value(expected[k])), abbreviate(format_value(actual[k])));
  }
  return "";
}

} // namespace kerb::driver
