// Records become tuples (Futhark's ReplaceRecords): a record type is the tuple of its
// fields' types in the order of their names, a record literal that tuple, `r.x` a
// projection, `r with x = v` a new tuple, a record pattern a tuple pattern. A record of
// one field is its field's value, of none `()`. See replace_records.cpp.
#pragma once

#include "compiler/ast.h"
#include "compiler/elim/names.h"

namespace kerb {

void replace_records(Program &program, NameSource &names);

// A record type as a tuple (also inside other types).
Type record_as_tuple(const Type &t);

} // namespace kerb
