// Futhark's checks of type abbreviations and of the types a program writes, those that
// need no inference (Futhark's checkTypeBind and checkTypeExp): it runs after the
// modules are elaborated (every type declaration is then in Program::types, named by its
// module path) and before the source type checker (infer.h). It rejects
//   - a type parameter declared twice (`type t 'a 'a`, `type m [n] [n]`);
//   - a size parameter of a type abbreviation its definition does not use;
//   - an anonymous size (`[]`) in a function parameter inside a type abbreviation;
//   - a non-lifted abbreviation (`type`) whose definition is lifted: a function type, a
//     lifted type parameter or abbreviation (`'^a`, `type^`); a non-size-lifted one
//     whose definition hides a size (`[]`, `?[n].`, a `type~` or `'~a`);
//   - an array of a lifted or size-lifted type (`[](i32 -> i32)`, `[]a` with `'^a`,
//     `[3]t` with `type~ t`), in an abbreviation or any annotation;
//   - a sum type of 256 constructors or more.
// See check_type_declarations.cpp.
#pragma once

#include "compiler/ast.h"

namespace kerb {

// Throws CompileError at the first violation, with Futhark's wording.
void check_type_declarations(const Program &program);

} // namespace kerb
