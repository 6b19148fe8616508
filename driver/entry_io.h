// Values in and out of an entry point, per docs/CONVENTIONS.md: one value per
// parameter, except that a tuple parameter takes its components as consecutive values
// and an array-of-tuples parameter takes its component arrays (unzipped); results are
// split and unzipped the same way. Used by `kerb run` (stdin, --input files, .npy) and
// by `kerb test` (input/output blocks, files).
#pragma once

#include "compiler/ast.h"
#include "runtime/value.h"

#include <string>
#include <vector>

namespace kerb::driver {

// One value slot of an entry's inputs or outputs after flattening.
struct Slot {
  std::string name; // "xs", "p.1" (a tuple parameter's component), "" for results
  ValueType type;
};

// The flattened parameter slots of `entry` (after type checking).
std::vector<Slot> entry_input_slots(const FunDef &entry);
// The flattened result slots of `entry`.
std::vector<Slot> entry_output_slots(const FunDef &entry);

// Regroups flattened argument values (one per input slot, already of the slot's type)
// into one Value per parameter. Throws InputError when the component arrays of an
// array-of-tuples parameter do not share their outer size.
std::vector<Value> group_arguments(const FunDef &entry, const std::vector<Value> &flat);

// Splits tuples and unzips arrays of tuples, recursively, in order.
std::vector<Value> flatten_values(const std::vector<Value> &values);

// A place values are read from: text in Futhark's value syntax (possibly binary
// values), or one value already read from a .npy file.
struct ValueSource {
  std::string name; // for messages: a file name or "stdin"
  std::string text;
  bool is_npy = false;
  Value npy_value;
};

// Reads a .npy file (is_npy) or any other file (text) into a source. Throws InputError
// when it cannot be read or is not a valid .npy file.
ValueSource load_value_file(const std::string &path);

enum class SlotRole { Argument, ExpectedResult };

// Reads one value per slot from `sources`, in order (a source that is used up passes
// on to the next), using each slot's type to read unsuffixed literals. Throws
// InputError naming the entry and the slot on a value of the wrong type or rank, and
// on too few or too many values, e.g.
//   entry 'main' expects 2 arguments, got 1
//   argument 2 ('is') of entry 'main': stdin:1:5: expected a value of type []i64, ...
std::vector<Value> read_slot_values(std::vector<ValueSource> &sources,
                                    const std::vector<Slot> &slots, SlotRole role,
                                    const std::string &entry_name);

// Shortens a long formatted value for a message ("[1i32, 2i32, ... (5000 more chars)").
std::string abbreviate(const std::string &text, size_t max_chars = 300);

} // namespace kerb::driver
