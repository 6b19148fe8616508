// The kernel module cut into parts that compile to PTX on their own, on several threads,
// and the PTX of the parts joined into one module again (Note [PTX per kernel] in
// ptx_parts.cpp). emit_ptx (llvm_target.cpp) runs the parts through LLVM.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace kerb::codegen {

// One part of a kernel module: a kernel (or the few that share a helper or a global) with
// everything it refers to, as bitcode of a module of its own in which every symbol the
// part defines has a placeholder name. Two parts with the same code have the same bytes.
struct PtxPart {
  std::string bitcode;
  std::vector<std::string> names; // names[i]: the PTX name of placeholder i
  size_t instructions = 0;        // its size, to start the biggest first
};

// Cuts `m` (verified, libdevice linked) into parts, in the order of their first kernel.
// Renames `m`'s definitions that have no name, or one that PTX cannot spell, as NVPTX
// would (`a.b` -> `a_$_b`). Empty if `m` defines nothing.
std::vector<PtxPart> split_kernel_module(llvm::Module &m);

// The PTX of a part compiled from its bitcode, with the part's own names put back.
std::string restore_names(const std::string &ptx, const std::vector<std::string> &names);

// One PTX module: the header (.version, .target, .address_size) of the first part, then
// the rest of every part in order, call sites renumbered from 0 (NVPTX's numbers depend
// on what the process compiled before). Every part must have the same header.
std::string join_ptx(const std::vector<std::string> &parts);

} // namespace kerb::codegen
