// Golden files of `kerb run`: writing, reading and comparing (see golden_file.h).
#include "driver/golden_file.h"

#include "driver/cli.h"
#include "driver/entry_io.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace kerb::driver {

namespace {

constexpr const char *kMagic = "-- kerb golden file ";
constexpr int kFormatVersion = 1;

// The keys of the header, in the order they are written; every one is required.
const char *const kKeys[] = {"kerb", "device", "program", "entry", "input", "results"};

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_hash(const std::string &s) {
  if (s.size() != 24 || s.compare(0, 8, "fnv1a64:") != 0) return false;
  return s.find_first_not_of("0123456789abcdef", 8) == std::string::npos;
}

// Splits "WORDS HASH" at its last space; false when the last word is not a hash.
bool split_hash(const std::string &s, std::string &before, std::string &hash) {
  size_t sp = s.rfind(' ');
  if (sp == std::string::npos) return false;
  before = trim(s.substr(0, sp));
  hash = s.substr(sp + 1);
  return is_hash(hash);
}

bool parse_count(const std::string &s, int64_t &out) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::stoll(s);
  return true;
}

// Reads the header of `text` (the `--` lines from the start up to `-- results: N`)
// into `id` and the result count; throws InputError naming FILE:LINE.
int64_t read_header(const std::string &text, const std::string &path, GoldenIdentity &id) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  auto fail = [&](const std::string &what) -> InputError {
    return InputError(fmt::format("{}:{}: {}", path, lineno, what));
  };
  ++lineno;
  if (!std::getline(in, line)) throw fail("empty file, not a golden file (it starts with '-- kerb golden file 1')");
  line = trim(line);
  if (line.compare(0, std::strlen(kMagic), kMagic) != 0)
    throw fail("not a kerb golden file (it must start with '-- kerb golden file 1')");
  if (line != fmt::format("{}{}", kMagic, kFormatVersion))
    throw fail(fmt::format("golden file format '{}' is not supported (this kerb reads format {})",
                           line.substr(std::strlen(kMagic)), kFormatVersion));
  std::map<std::string, std::string> seen;
  while (std::getline(in, line)) {
    ++lineno;
    line = trim(line);
    if (line.compare(0, 3, "-- ") != 0)
      throw fail(fmt::format("expected a header line '-- KEY: VALUE' (the header ends with '-- results: N'), got '{}'",
                             abbreviate(line, 60)));
    size_t colon = line.find(':');
    std::string key = colon == std::string::npos ? "" : trim(line.substr(3, colon - 3));
    std::string value = colon == std::string::npos ? "" : trim(line.substr(colon + 1));
    bool known = false;
    for (const char *k : kKeys) known = known || key == k;
    if (!known) throw fail(fmt::format("unknown header line '{}'", abbreviate(line, 60)));
    if (seen.count(key)) throw fail(fmt::format("a second '{}' line", key));
    seen[key] = value;
    if (key == "kerb") id.kerb = value;
    else if (key == "device") id.device = value;
    else if (key == "entry") {
      if (value.empty()) throw fail("the entry point's name is missing");
      id.entry = value;
    } else if (key == "program") {
      if (!split_hash(value, id.program, id.program_hash))
        throw fail("expected '-- program: PATH fnv1a64:HASH' (16 hex digits)");
    } else if (key == "input") {
      std::string count;
      if (!split_hash(value, count, id.input_hash) || count.size() < 7 ||
          count.compare(count.size() - 7, 7, " values") != 0 ||
          !parse_count(count.substr(0, count.size() - 7), id.input_values))
        throw fail("expected '-- input: N values fnv1a64:HASH' (16 hex digits)");
    } else if (key == "results") {
      int64_t n;
      if (!parse_count(value, n)) throw fail(fmt::format("expected '-- results: N', got '{}'", abbreviate(line, 60)));
      for (const char *k : kKeys)
        if (!seen.count(k)) throw fail(fmt::format("the header has no '-- {}:' line before '-- results:'", k));
      return n;
    }
  }
  throw fail("the header ends before its '-- results: N' line");
}

} // namespace

std::string content_hash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

std::string values_hash(const std::vector<Value> &values) {
  std::string text;
  for (const Value &v : values) {
    text += format_value(v);
    text += '\n';
  }
  return content_hash(text);
}

std::string golden_text(const GoldenFile &g) {
  const GoldenIdentity &id = g.identity;
  std::string s = fmt::format("{}{}\n", kMagic, kFormatVersion);
  s += fmt::format("-- kerb: {}\n", id.kerb);
  s += fmt::format("-- device: {}\n", id.device);
  s += fmt::format("-- program: {} {}\n", id.program, id.program_hash);
  s += fmt::format("-- entry: {}\n", id.entry);
  s += fmt::format("-- input: {} values {}\n", id.input_values, id.input_hash);
  s += fmt::format("-- results: {}\n", g.results.size());
  for (const Value &v : g.results) {
    s += format_value(v);
    s += '\n';
  }
  return s;
}

void write_golden_file(const std::string &path, const GoldenFile &golden) {
  std::string text = golden_text(golden);
  std::ofstream out(path, std::ios::binary);
  if (out) out.write(text.data(), std::streamsize(text.size()));
  if (out) out.close();
  if (!out) throw InputError(fmt::format("cannot write golden file '{}': {}", path, std::strerror(errno)));
}

GoldenFile read_golden_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read golden file '{}': {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  GoldenFile g;
  int64_t n = read_header(text, path, g.identity);
  // The header is made of comments, which the value reader skips: its locations are
  // the file's own.
  ValueReader reader(text, path);
  try {
    for (int64_t k = 0; k < n; k++) {
      if (reader.at_end())
        throw InputError(fmt::format("{}: the header announces {} results, the file has {}", path, n, k));
      g.results.push_back(reader.read(nullptr));
    }
    if (!reader.at_end())
      throw InputError(fmt::format("{}: more values than the {} results the header announces", path, n));
  } catch (const ValueError &e) {
    throw InputError(fmt::format("malformed golden file: {}", e.what()));
  }
  return g;
}

GoldenComparison compare_golden(const GoldenFile &golden, const GoldenIdentity &now,
                                const std::vector<Value> &results, const FloatTolerance &tol) {
  const GoldenIdentity &then = golden.identity;
  if (then.entry != now.entry)
    throw InputError(fmt::format("the golden file holds results of entry '{}', not of '{}'", then.entry, now.entry));
  if (then.input_values != now.input_values || then.input_hash != now.input_hash)
    throw InputError(fmt::format("the golden file was made from another input ({} values {}; this input: {} values {})",
                                 then.input_values, then.input_hash, now.input_values, now.input_hash));
  GoldenComparison c;
  if (then.program_hash != now.program_hash)
    c.notes.push_back(fmt::format("the program's text differs from the one the golden file was made from ({}, now {})",
                                  then.program_hash, now.program_hash));
  if (then.device != now.device)
    c.notes.push_back(fmt::format("the golden file was made on the {} device, this run is on {}", then.device, now.device));
  if (then.kerb != now.kerb) c.notes.push_back(fmt::format("the golden file was made by kerb {}", then.kerb));

  auto differ = [&](std::string why) {
    c.differences++;
    if (!c.equal) return;
    c.equal = false;
    c.mismatch = std::move(why);
  };
  if (golden.results.size() != results.size()) {
    differ(fmt::format("the run has {} results, the golden file {}", results.size(), golden.results.size()));
    return c;
  }
  for (size_t k = 0; k < results.size(); k++) {
    const Value &expected = golden.results[k], &actual = results[k];
    ValueType et = expected.type(), at = actual.type();
    if (et != at) {
      differ(fmt::format("result {} is of type {}, the golden file's of type {}", k, at.str(), et.str()));
      continue;
    }
    if (actual.kind == Value::Array && actual.shape() != expected.shape()) {
      auto shape = [](const Value &v) {
        std::string s;
        for (int64_t d : v.shape()) s += fmt::format("[{}]", d);
        return s;
      };
      differ(fmt::format("result {} has shape {}, the golden file's {}", k, shape(actual), shape(expected)));
      continue;
    }
    Comparison r = compare_values(expected, actual, tol);
    if (!r.equal) {
      differ(fmt::format("result {}{}{}", k, r.why.compare(0, 3, "at ") == 0 ? " " : ": ", r.why));
      c.differences += r.differences - 1; // differ() counted one
    }
    if (r.worst_ulps > c.worst_ulps) {
      c.worst_ulps = r.worst_ulps;
      c.worst = fmt::format("result {}{}{}: {}", k, r.worst_where.empty() ? "" : " ", r.worst_where, r.worst_values);
    }
    c.worst_rel = std::max(c.worst_rel, r.worst_rel);
  }
  return c;
}

std::string golden_report(const GoldenComparison &c, const std::string &path) {
  std::string s;
  for (const std::string &n : c.notes) s += fmt::format("golden: note: {}\n", n);
  std::string worst = c.worst.empty()
                          ? "every float equal"
                          : fmt::format("worst float difference {} ulps (relative {:.3g}) in {}", c.worst_ulps,
                                        c.worst_rel, c.worst);
  if (c.equal) return s + fmt::format("golden: the results match '{}' ({})\n", path, worst);
  return s + fmt::format("golden: the results differ from '{}': {} difference{}; the first: {}; {}\n", path,
                         c.differences, c.differences == 1 ? "" : "s", c.mismatch, worst);
}

} // namespace kerb::driver
