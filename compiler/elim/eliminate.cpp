// The elimination pipeline (eliminate.h): read it top to bottom.
#include "compiler/elim/eliminate.h"

#include "compiler/elim/bind_let_sizes.h"
#include "compiler/elim/defunctionalise.h"
#include "compiler/elim/expand_equality.h"
#include "compiler/elim/finish_first_order.h"
#include "compiler/elim/monomorphise.h"
#include "compiler/elim/names.h"
#include "compiler/elim/replace_holes.h"
#include "compiler/elim/replace_records.h"
#include "compiler/elim/replace_sum_types.h"
#include "compiler/prelude.h"

namespace kerb {

void eliminate(Program &program) {
  NameSource names(program);
  monomorphise(program, names);      // a copy of each polymorphic function per use type
  replace_holes(program, names);     // ??? -> a failing assertion (or a function of one)
  bind_let_sizes(program, names);    // let [n] (xs: [n]t) = e -> let n = length ...
  defunctionalise(program, names);   // function values -> closures and lifted functions
  replace_records(program, names);   // records -> tuples
  replace_sum_types(program, names); // sum types -> tagged tuples; match -> if
  expand_equality(program, names);   // == on tuples and arrays -> on primitives
  finish_first_order(program);       // parameter annotations, empty arrays
  remove_unused_prelude(program);    // the prelude functions nothing calls
  program.types.clear();             // abbreviations are expanded everywhere
}

} // namespace kerb
