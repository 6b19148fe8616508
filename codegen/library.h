// `kerb compile --library`: a program as a static library that runs on either device,
// chosen at run time, with no LLVM at run time. The archive holds three x86-64 objects
// (relocatable, position-independent):
//   NAME.o       the C API of the program (kerb_context_new, kerb_entry_NAME, the
//                kerb_new/values/shape/free functions of its array types, and those of
//                its opaque types: kerb_new/project/free/store/restore_opaque_T), forwarding to
//                the runtime (runtime/program_abi.h), and the program's descriptor: the
//                PTX text, the kernels' names and launch kinds, the serialised failure
//                table, the entries' signatures;
//   NAME_cpu.o   the host code of every entry for the CPU device, and its kernels;
//   NAME_cuda.o  the host code of every entry for the CUDA device.
// Everything but the C API is internal (or hidden, between the three objects).
#pragma once

#include "codegen/compiled_program.h"

#include <string>
#include <vector>

namespace kerb::codegen {

struct LibraryOptions {
  CompileOptions compile;
  std::string cpu = "x86-64"; // the x86-64 CPU the host code and CPU kernels are for
};

// One flattened parameter or result of an entry: a primitive or an array of them.
struct CSlot {
  PrimType prim = PrimType::I32;
  int rank = 0;
};

// One value of an entry's C signature, or of a record's fields: a primitive or an array
// of them (opaque < 0), or a handle of an opaque type (compiler/entry_types.h).
struct CValue {
  CSlot slot;
  int opaque = -1; // an index into Library::opaques
  std::string name; // "p", "p.1", "" for a result; for comments
};

struct LibraryOpaque {
  std::string name;   // Futhark's text of the type: point, M.t, []point
  std::string c_name; // kerb_opaque_<c_name>: point, M_t, arr1d_point
  OpaqueType::Kind kind = OpaqueType::Record;
  int rank = 0;             // an array of records: the dims its slots share
  std::vector<CSlot> slots; // what it holds
  struct Field {
    std::string name, c_name; // kerb_project_opaque_<type>_<c_name>
    std::vector<CValue> values;
  };
  std::vector<Field> fields; // a record's, in name order
};

struct LibraryEntry {
  std::string name;   // as in the source
  std::string c_name; // the C identifier: kerb_entry_<c_name>
  std::vector<CSlot> params, results; // the flattened slots
  std::vector<CValue> ins, outs;      // the C signature over them
};

struct Library {
  std::string archive; // the bytes of libNAME.a
  std::vector<LibraryEntry> entries;
  std::vector<CSlot> array_types; // every array type the entries and opaque types use, once
  std::vector<LibraryOpaque> opaques;
};

// The C spelling of a name: letters, digits and '_' kept, anything else '_', and a
// leading '_' before a digit.
std::string c_identifier(const std::string &name);

// Compiles `program` into a library called `name` (the NAME of libNAME.a). Throws
// CompileError for what the code generator does not support yet.
Library compile_library(const Program &program, const std::string &name,
                        const LibraryOptions &opts);

} // namespace kerb::codegen
