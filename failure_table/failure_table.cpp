// Failure records, their message formatting and their serialisation.
#include "failure_table/failure_table.h"

#include <fmt/format.h>
#include <sstream>

namespace kerb {

static const char *const kKindNames[] = {"bounds", "div", "assert", "range", "size", "nan"};

const char *failure_kind_name(FailureKind k) { return kKindNames[int(k)]; }

bool failure_kind_from_name(const std::string &name, FailureKind &out) {
  for (int i = 0; i < int(sizeof kKindNames / sizeof *kKindNames); i++) {
    if (name == kKindNames[i]) {
      out = FailureKind(i);
      return true;
    }
  }
  return false;
}

std::string format_failure_message(const FailureRecord &r, const std::vector<int64_t> &args) {
  const std::string &t = r.message_template;
  std::string out;
  size_t next_arg = 0;
  for (size_t i = 0; i < t.size(); i++) {
    char c = t[i];
    if (c == '{' && i + 1 < t.size() && t[i + 1] == '{') {
      out += '{';
      i++;
    } else if (c == '}' && i + 1 < t.size() && t[i + 1] == '}') {
      out += '}';
      i++;
    } else if (c == '{' && i + 1 < t.size() && t[i + 1] == '}') {
      size_t k = next_arg++;
      if (k >= args.size()) {
        out += '?';
      } else if (k < r.arg_types.size() && r.arg_types[k] == ArgType::U64) {
        out += fmt::format("{}", uint64_t(args[k]));
      } else {
        out += fmt::format("{}", args[k]);
      }
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_failure(const FailureRecord &r, const std::vector<int64_t> &args) {
  return format_failure_message(r, args) + "\nat " + r.location;
}

std::string index_template(int rank) {
  std::string idx, shape;
  for (int i = 0; i < rank; i++) {
    idx += i ? ", {}" : "{}";
    shape += "[{}]";
  }
  return "Index [" + idx + "] out of bounds for array of shape " + shape + ".";
}

std::string escape_template_text(const std::string &text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{' || c == '}')
      out += c;
  }
  return out;
}

// Serialisation: one line per record, fields separated by '\t', with '\\', '\t' and
// '\n' escaped. Fields: kind, location, template, arg types ("iu..." one letter each).
static std::string escape_field(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

static bool unescape_field(const std::string &s, std::string &out) {
  out.clear();
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    switch (s[i]) {
    case '\\': out += '\\'; break;
    case 't': out += '\t'; break;
    case 'n': out += '\n'; break;
    default: return false;
    }
  }
  return true;
}

std::string FailureTable::serialize() const {
  std::string out = "kerb-failure-table 1\n";
  for (const FailureRecord &r : records) {
    std::string types;
    for (ArgType a : r.arg_types) types += a == ArgType::U64 ? 'u' : 'i';
    out += fmt::format("{}\t{}\t{}\t{}\n", failure_kind_name(r.kind), escape_field(r.location),
                       escape_field(r.message_template), types);
  }
  return out;
}

bool FailureTable::deserialize(const std::string &data) {
  std::istringstream in(data);
  std::string line;
  if (!std::getline(in, line) || line != "kerb-failure-table 1") return false;
  std::vector<FailureRecord> result;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (;;) {
      size_t tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (fields.size() != 4) return false;
    FailureRecord r;
    if (!failure_kind_from_name(fields[0], r.kind)) return false;
    if (!unescape_field(fields[1], r.location)) return false;
    if (!unescape_field(fields[2], r.message_template)) return false;
    for (char c : fields[3]) {
      if (c != 'i' && c != 'u') return false;
      r.arg_types.push_back(c == 'u' ? ArgType::U64 : ArgType::I64);
    }
    result.push_back(std::move(r));
  }
  records = std::move(result);
  return true;
}

} // namespace kerb
