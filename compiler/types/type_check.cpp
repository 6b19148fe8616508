// The front end after parsing, one line a stage (see type_check.h).
#include "compiler/types/type_check.h"

#include "compiler/elim/eliminate.h"
#include "compiler/modules/elaborate_modules.h"
#include "compiler/prelude.h"
#include "compiler/types/check_consumption.h"
#include "compiler/types/check_first_order.h"
#include "compiler/types/check_type_declarations.h"
#include "compiler/types/infer.h"

namespace kerb {

void type_check(Program &program) {
  elaborate_modules(program);       // imports and modules (compiler/modules/)
  add_prelude(program);             // id, flip, tabulate_2d, ... (compiler/prelude.cpp)
  WrittenEntryTypes written = written_entry_types(program);
  check_type_declarations(program); // liftedness and sizes of the types as written
  infer_types(program);             // the whole language; Futhark's type errors
  describe_entry_types(program, written); // the C API's entry types (entry_types.h)
  check_consumption(program);       // in-place updates and unique types
  eliminate(program);               // first-order and monomorphic from here on
  check_first_order(program);       // what the interpreter and the lowering read
}

} // namespace kerb
