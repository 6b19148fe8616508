// Program descriptors (see program_desc.h).
#include "codegen/program_desc.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kerb::codegen {

namespace {

// Walks the flattened slots of a parameter of type `t` (as docs/CONVENTIONS.md flattens
// it), noting for an array of tuples that its component arrays share its outer dims.
void shared_dims(const ValueType &t, size_t &next, std::vector<std::string> &out) {
  // A primitive, or () (one bool, as the lowering flattens it).
  if (t.kind == ValueType::Prim || t.elems.empty()) {
    next++;
    return;
  }
  size_t first = next;
  for (const ValueType &e : t.elems) {
    ValueType component = e;
    component.rank += t.rank;
    shared_dims(component, next, out);
  }
  if (t.rank > 0)
    for (size_t j = first + 1; j < next; j++) out.push_back(fmt::format("{}={}:{}", j, first, t.rank));
}

} // namespace

std::string entry_signature(const core::Program &core, const core::Function &fn) {
  auto slot = [](const core::CType &t) { return fmt::format("{}_{}d", prim_name(t.prim), t.rank); };
  std::string s;
  for (size_t k = 0; k < fn.params.size(); k++)
    s += (k ? "," : "") + slot(core.var(fn.params[k]).type);
  s += "->";
  for (size_t k = 0; k < fn.body.result.size(); k++)
    s += (k ? "," : "") + slot(core.type_of(fn.body.result[k]));
  std::vector<std::string> shared;
  size_t next = 0;
  for (const ValueType &t : fn.param_types) shared_dims(t, next, shared);
  if (next != fn.params.size())
    throw std::logic_error(fmt::format("internal error: entry '{}' flattens to {} parameters, "
                                       "its types to {}",
                                       fn.name, fn.params.size(), next));
  for (size_t i = 0; i < shared.size(); i++) s += (i ? "," : "|") + shared[i];
  return s;
}

ProgramInfo program_info(const std::string &name, const core::Program &core,
                         const GeneratedProgram &gen, std::string ptx) {
  ProgramInfo info;
  info.name = name;
  for (const core::Function &f : core.functions) {
    info.entry_names.push_back(f.name);
    info.entry_signatures.push_back(entry_signature(core, f));
  }
  info.kernel_names = gen.kernel_names;
  for (const KernelDesc &d : gen.kernel_descs) {
    info.kernel_info.push_back((d.kind == KernelDesc::Threads ? 0u : 1u) | d.block_threads << 8 |
                               d.max_blocks_per_sm << 24);
    info.kernel_info.push_back(d.shared_bytes_per_thread);
    info.kernel_info.push_back(d.rows_slot);
  }
  info.ptx = std::move(ptx);
  info.failure_table = core.failures.serialize();
  return info;
}

JitProgramDesc::JitProgramDesc(ProgramInfo i, std::vector<kerb_host_entry_fn> e,
                               std::vector<kerb_cpu_kernel_fn> k, bool cpu)
    : info(std::move(i)), entries(std::move(e)), kernels(std::move(k)) {
  for (const std::string &s : info.entry_names) entry_names.push_back(s.c_str());
  for (const std::string &s : info.entry_signatures) entry_signatures.push_back(s.c_str());
  for (const std::string &s : info.kernel_names) kernel_names.push_back(s.c_str());
  code.entries = entries.data();
  code.kernels = cpu ? kernels.data() : nullptr;
  desc.abi_version = KERB_PROGRAM_ABI_VERSION;
  desc.num_entries = uint32_t(entries.size());
  desc.num_kernels = uint32_t(kernel_names.size());
  desc.name = info.name.c_str();
  desc.entry_names = entry_names.data();
  desc.entry_signatures = entry_signatures.data();
  desc.kernel_names = kernel_names.data();
  desc.kernel_info = info.kernel_info.data();
  desc.ptx = info.ptx.c_str();
  desc.failure_table = info.failure_table.data();
  desc.failure_table_size = info.failure_table.size();
  desc.cpu = cpu ? &code : nullptr;
  desc.cuda = cpu ? nullptr : &code;
}

} // namespace kerb::codegen
