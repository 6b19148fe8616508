// The syntax of Futhark's module language (docs/LANGUAGE.md, "Modules"), as the parser
// produces it for a file that uses modules or imports. A file without them is parsed
// straight into Program::defs and Program::types; a file with them into a DeclList in
// Program::modules, which compiler/modules/elaborate_modules.cpp flattens into
// Program::defs and Program::types before the type checker runs, so that every later
// stage sees the core language only.
//
//   decl    = def | type | "module" name mparam* (":" sig)? "=" mod
//           | "module" "type" name "=" sig | "open" mod | "import" "path"
//           | "local" decl | "include" mod
//   mod     = "{" decl* "}" | qualname | mod mod_atom (application) | mod ":" sig
//           | "\" mparam+ (":" sig)? "->" mod | "import" "path" | "(" mod ")"
//   sig     = "{" spec* "}" | qualname | sig "with" qualname tparams "=" type
//           | "(" name ":" sig ")" "->" sig
//   spec    = "val" name tparams ":" type | "type" name tparams ("=" type)?
//           | "module" name ":" sig | "include" sig
//   mparam  = "(" name ":" sig ")"
#pragma once

#include "compiler/ast.h"

#include <memory>
#include <string>
#include <vector>

namespace kerb {

struct SigExp;
struct ModExp;
struct Decl;

// A module parameter `(P: S)`.
struct ModParam {
  std::string name;
  std::shared_ptr<SigExp> sig;
  Span span;
};

// One specification of a signature.
struct Spec {
  enum Kind : uint8_t { Val, Type, Module, Include } kind = Val;
  Span span;
  std::string name;                     // Val, Type, Module
  // Val: `val f [n] 'a : type`.
  std::vector<std::string> size_params;
  std::vector<TypeParam> type_params;
  kerb::Type type;
  // Type: the declaration; `abstract` when it has no definition (`type t`).
  std::shared_ptr<TypeDecl> tdecl;
  bool abstract = false;
  std::shared_ptr<SigExp> sig;          // Module, Include
};

struct SigExp {
  enum Kind : uint8_t { Name, Specs, With, Functor } kind = Specs;
  Span span;
  std::string name;                     // Name: qualified (`M.S`); Functor: the parameter
  std::vector<Spec> specs;              // Specs
  std::shared_ptr<SigExp> base;         // With: the signature refined; Functor: the parameter's
  std::string with_type;                // With: the (qualified) type refined
  std::shared_ptr<TypeDecl> with_def;   // With: its parameters and definition
  std::shared_ptr<SigExp> result;       // Functor
};

struct ModExp {
  enum Kind : uint8_t { Name, Struct, Apply, Ascribe, Lambda, Import } kind = Struct;
  Span span;
  std::string name;                     // Name: qualified (`M.N`); Import: the path
  std::vector<std::shared_ptr<Decl>> body; // Struct
  std::shared_ptr<ModExp> fun, arg;     // Apply; Ascribe and Lambda: `fun` is the module
  std::shared_ptr<SigExp> sig;          // Ascribe; Lambda: the result signature, if any
  std::vector<ModParam> params;         // Lambda
};

struct Decl {
  enum Kind : uint8_t { Def, Type, Module, ModType, Open, Import, Local, Include } kind = Def;
  Span span;
  std::unique_ptr<FunDef> def;          // Def (cloned wherever it is elaborated)
  std::shared_ptr<TypeDecl> tdecl;      // Type
  std::string name;                     // Module, ModType; Import: the path
  Span name_span;
  std::vector<ModParam> params;         // Module: `module F (P: S) = ...`
  std::shared_ptr<SigExp> sig;          // Module: the result signature, if any; ModType
  std::shared_ptr<ModExp> mod;          // Module, Open, Include
  std::shared_ptr<Decl> inner;          // Local
};

// The declarations of a file that uses the module language (Program::modules).
struct DeclList {
  std::vector<std::shared_ptr<Decl>> decls;
};

} // namespace kerb
