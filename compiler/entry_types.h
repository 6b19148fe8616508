// The types of the entry points as a program's users see them: the C API of `kerb
// compile --library` (codegen/library.h, driver/c_header.h) and its manifest. The
// elimination passes turn records and sum types into tuples, and the lowering flattens
// tuples into slots (a primitive or an array of primitives each); this file keeps, for
// each entry, what the source said, taken before the elimination.
//
// Each parameter and the result flatten as Kerb's conventions say (docs/CONVENTIONS.md):
// a tuple into its components, an array of tuples into its component arrays, `()` into
// a bool. That stops at what C cannot hold as it is, which becomes one opaque value
// (Note [Opaque entry types]):
// - a record (`{x: f32, y: f32}`, or a name for one: `point`), or an array of records
//   (`[]point`): constructed from its fields and projected to them;
// - a type that a module's signature made abstract (`M.t` for `module M : {type t ...}`),
//   and a sum type: only made and taken by entries.
//
// Note [Opaque entry types]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// As in Futhark's C API, an opaque type is named by the type as the entry's annotation
// writes it: `point`, `M.t`, `[]point`; without a name, by its structure. Its C name
// is Futhark's spelling of that name: `point`, `M_t`, `arr1d_point` (Futhark's
// findPrettyName), and, where Futhark uses a hash, the structure spelled out:
// `rec2_a_i32_b_arr1d_f64` for `{a: i32, b: []f64}`.
//
// A record's fields are in name order (Futhark's order for its constructor), each
// flattened as an entry parameter is: a field of a tuple type is several values, a
// field of a record type another opaque value. The fields of an array of records are
// arrays of the fields' types ([]point's `x` is []f32); their outer dims are the
// array's and must agree.
//
// Kerb's ascription is transparent (compiler/modules/elaborate_modules.cpp), so a type
// counts as abstract where a signature specifies it without a definition and a module
// ascribed to that signature defines it (Program::abstract_types).
#pragma once

#include "compiler/types/types.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kerb {

struct FunDef;
struct Program;

// One value that crosses the C API: a primitive or an array of primitives (opaque < 0),
// or an opaque value (an index into EntryTypes::opaques).
struct EntryValue {
  PrimType prim = PrimType::I32;
  int rank = 0;
  int opaque = -1;
  std::string name; // "xs", "p.1", "" (a result); for the header's comments
};

struct OpaqueType {
  enum Kind : uint8_t { Record, Abstract, Sum } kind = Record;
  std::string name;   // Futhark's text of the type: "point", "M.t", "[]point"
  std::string pretty; // the name for C before mapping to an identifier: "arr1d_M.t"
  int rank = 0;       // an array of records: its rank (every slot's outer dims)
  // The slots it holds after elimination, in order (a primitive or an array each).
  std::vector<std::pair<PrimType, int>> slots;
  struct Field {
    std::string name;
    std::vector<EntryValue> values; // covering the field's slots, in order
  };
  std::vector<Field> fields; // Record: in name order
};

struct EntryInterface {
  std::vector<EntryValue> params, results;
};

struct EntryTypes {
  std::vector<OpaqueType> opaques;
  std::map<std::string, EntryInterface> entries; // by entry name
};

// The entry points: the `entry` definitions, or (as Futhark allows) a `def main` when
// there are none.
std::vector<const FunDef *> entry_defs(const Program &program);

// The number of slots a value takes.
size_t value_slots(const EntryTypes &types, const EntryValue &v);

// The entries' annotations and the type declarations as written, before inference
// expands the names of types.
struct WrittenEntryTypes {
  struct Entry {
    std::vector<std::optional<Type>> params;
    std::optional<Type> result;
  };
  std::map<std::string, Entry> entries;
  std::map<std::string, Type> decls; // types without type parameters: name -> definition
};
WrittenEntryTypes written_entry_types(const Program &program);

// Sets program.entry_types from the inferred program (records and sums still there) and
// the annotations as written.
void describe_entry_types(Program &program, const WrittenEntryTypes &written);

} // namespace kerb
