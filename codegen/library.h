// `kerb compile --library`: a program as a static library that runs on either device,
// chosen at run time, with no LLVM at run time. The archive holds three x86-64 objects
// (relocatable, position-independent):
//   NAME.o       the C API of the program (kerb_context_new, kerb_entry_NAME, and the
//                kerb_new/values/shape/free functions of its array types), forwarding to
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

struct LibraryEntry {
  std::string name;   // as in the source
  std::string c_name; // the C identifier: kerb_entry_<c_name>
  std::vector<CSlot> params, results;
};

struct Library {
  std::string archive; // the bytes of libNAME.a
  std::vector<LibraryEntry> entries;
  std::vector<CSlot> array_types; // every array type the entries use, once
};

// The C spelling of a name: letters, digits and '_' kept, anything else '_', and a
// leading '_' before a digit.
std::string c_identifier(const std::string &name);

// Compiles `program` into a library called `name` (the NAME of libNAME.a). Throws
// CompileError for what the code generator does not support yet.
Library compile_library(const Program &program, const std::string &name,
                        const LibraryOptions &opts);

} // namespace kerb::codegen
