// The failure table: one record per dynamic check site (see DESIGN.md, "The failure
// protocol"). A record says what kind of check it is, where it is in the source, and
// how to format its message from the 64-bit argument slots that the failing code
// writes. Every executor (interpreter, CPU device, GPU device) formats failures through
// this file, so messages are identical everywhere.
//
// Messages follow Futhark's wording (LANGUAGE.md). A formatted failure reads
//
//   Index [7] out of bounds for array of shape [3].
//   at prog.fut:5:46-50
//
// This library depends on nothing else in Kerb (fmt only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kerb {

enum class FailureKind : uint8_t { Bounds, Division, Assert, Range, Size, NaN };

// The names used by --checks= and --report-checks: bounds, div, assert, range, size, nan.
const char *failure_kind_name(FailureKind k);
bool failure_kind_from_name(const std::string &name, FailureKind &out);

// How an argument slot is printed.
enum class ArgType : uint8_t { I64, U64 };

struct FailureRecord {
  FailureKind kind = FailureKind::Assert;
  std::string location;          // "prog.fut:LINE:COL-COL"
  std::string message_template;  // "{}" marks an argument; "{{" and "}}" are braces
  std::vector<ArgType> arg_types; // one per "{}"
};

// The message alone, e.g. "Index [7] out of bounds for array of shape [3]."
// Missing arguments print as "?"; extra ones are ignored (never throws).
std::string format_failure_message(const FailureRecord &r, const std::vector<int64_t> &args);
// Message and location: "<message>\nat <location>".
std::string format_failure(const FailureRecord &r, const std::vector<int64_t> &args);

// Templates for the common sites.
// index_template(2) == "Index [{}, {}] out of bounds for array of shape [{}][{}]."
std::string index_template(int rank);
// Escapes '{' and '}' in literal text (e.g. an assert's source text) for a template.
std::string escape_template_text(const std::string &text);

// A whole program's table: code -> record. Codes are dense, starting at 0.
struct FailureTable {
  std::vector<FailureRecord> records;

  int add(FailureRecord r) {
    records.push_back(std::move(r));
    return int(records.size()) - 1;
  }
  // A compact text serialisation, embedded in compiled artifacts.
  std::string serialize() const;
  // Returns false (and leaves *this unchanged) on malformed input.
  bool deserialize(const std::string &data);
};

} // namespace kerb
