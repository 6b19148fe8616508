// The kernel module cut into parts for PTX, and the parts' PTX joined (see ptx_parts.h).
#include "codegen/ptx_parts.h"

#include <fmt/format.h>
#include <llvm/ADT/EquivalenceClasses.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

namespace kerb::codegen {

// Note [PTX per kernel]
// ~~~~~~~~~~~~~~~~~~~~~
// LLVM's O3 pipeline and NVPTX code generation are most of the time `kerb compile` takes
// (bench/compile_time: 2.2 s of 2.3 s for 207 kernels), and they run on one thread over
// one module. But kernels do not call each other: each is optimised and code-generated on
// its own, and only a helper or a global two of them share ties them together. So
// emit_ptx cuts the module into parts, compiles the parts on several threads, each in an
// LLVM context of its own (a context is not thread-safe; the part travels as bitcode),
// and joins their PTX in the order of the kernels.
//
// A part is a kernel (a definition that is not internal) with every internal definition
// it refers to, directly or through others. Kernels that refer to the same internal
// definition are in one part, as are kernels that refer to each other, so every
// definition is compiled in exactly one part, with all its callers: the inliner sees the
// same call sites as in the whole module (an internal function called once is inlined,
// one called from several kernels may not be), and no name is defined twice in the joined
// PTX. The exception is an internal function marked alwaysinline (kerb_ipow_*): it is
// inlined into every caller whatever their number and then deleted, so each part that
// calls it gets a copy. Kerb's shared-memory arrays belong to one kernel each, and its
// outlined slow copies (Note [The slow copy outlined]) to one kernel, so without libdevice
// every part is one kernel. libdevice's functions (__nv_expf, ...) are linked with
// external linkage, as definitions of their own like kernels, so the kernels that call
// one are in one part with it.
//
// The code of every kernel is the same as from the whole module: the pipeline's
// module-level passes only ever look across kernels through what they share. The PTX
// differs in order (kernel by kernel, each with its own demoted globals) and in the
// numbers in branch labels ($L__BB<function>_<block>, local to a function).
//
// Identical parts compile once. Programs repeat kernels (an entry point's helper called
// from several entry points: 118 different kernels among bench/compile_time's 207), and
// the kernels differ only in their names and those of their arrays. So in a part's
// bitcode every symbol it defines is renamed `__kerb_sym<i>_` (i in the order of the
// whole module), and two parts with the same bytes are one compilation; restore_names
// puts each part's names back into the PTX (NVPTX derives parameter names from the
// function's, `<name>_param_<k>`, and prints private symbols with a `$` before them,
// which the placeholder's shape survives). A placeholder left over after that is an
// internal error, never silent.

using namespace llvm;

namespace {

constexpr const char *kPlaceholder = "__kerb_sym";

// What NVPTX calls a symbol whose name PTX cannot spell (NVPTXAssignValidGlobalNames).
std::string ptx_name(StringRef name) {
  std::string out;
  for (char c : name) {
    if (isAlnum(c) || c == '_' || c == '$') out += c;
    else out += "_$_";
  }
  return out;
}

// Every global value that `c` refers to, through constant expressions and aggregates.
void globals_in(const Constant *c, std::set<const Constant *> &seen, std::vector<const GlobalValue *> &out) {
  if (!seen.insert(c).second) return;
  if (auto *g = dyn_cast<GlobalValue>(c)) {
    out.push_back(g);
    return;
  }
  for (const Use &op : c->operands())
    if (auto *k = dyn_cast<Constant>(op.get())) globals_in(k, seen, out);
}

// The global values a definition refers to.
std::vector<const GlobalValue *> references(const GlobalValue &g) {
  std::vector<const GlobalValue *> out;
  std::set<const Constant *> seen;
  if (auto *f = dyn_cast<Function>(&g)) {
    for (const BasicBlock &bb : *f)
      for (const Instruction &i : bb)
        for (const Use &op : i.operands())
          if (auto *c = dyn_cast<Constant>(op.get())) globals_in(c, seen, out);
  } else if (auto *v = dyn_cast<GlobalVariable>(&g)) {
    if (v->hasInitializer()) globals_in(v->getInitializer(), seen, out);
  }
  return out;
}

// An internal definition that every part calling it may have its own copy of.
bool copied_per_part(const GlobalValue &g) {
  auto *f = dyn_cast<Function>(&g);
  return f && f->hasFnAttribute(Attribute::AlwaysInline);
}

// A module of `m`'s definitions `members` (in `m`'s order), with declarations of what
// they refer to outside it, the !nvvm.annotations (maxntid, minctasm, ...) of the
// members, and `m`'s other named metadata (module flags). CloneModule does the same but
// declares all of `m` in every part, which made splitting bench/compile_time's 207
// kernels take 0.2 s.
std::unique_ptr<Module> extract(const Module &m, const std::vector<const GlobalValue *> &members,
                                ValueToValueMapTy &vmap) {
  auto part = std::make_unique<Module>("kerb_part", m.getContext());
  part->setSourceFileName("kerb_part");
  part->setDataLayout(m.getDataLayout());
  part->setTargetTriple(m.getTargetTriple());
  auto declare = [&](const GlobalValue *g, GlobalValue::LinkageTypes linkage) {
    GlobalValue *copy = nullptr;
    if (auto *f = dyn_cast<Function>(g)) {
      Function *nf = Function::Create(f->getFunctionType(), linkage, f->getAddressSpace(), f->getName(), part.get());
      nf->copyAttributesFrom(f);
      copy = nf;
    } else if (auto *v = dyn_cast<GlobalVariable>(g)) {
      auto *nv = new GlobalVariable(*part, v->getValueType(), v->isConstant(), linkage, nullptr, v->getName(),
                                    nullptr, v->getThreadLocalMode(), v->getAddressSpace());
      nv->copyAttributesFrom(v);
      copy = nv;
    } else {
      throw std::logic_error("internal error: the kernel module refers to an alias");
    }
    vmap[g] = copy;
  };
  for (const GlobalValue *g : members) declare(g, g->getLinkage());
  for (const GlobalValue *g : members)
    for (const GlobalValue *r : references(*g))
      if (!vmap.count(r)) declare(r, GlobalValue::ExternalLinkage);
  for (const GlobalValue *g : members) {
    if (auto *v = dyn_cast<GlobalVariable>(g)) {
      auto *nv = cast<GlobalVariable>(vmap[g]);
      SmallVector<std::pair<unsigned, MDNode *>, 1> mds;
      v->getAllMetadata(mds);
      for (auto &[kind, md] : mds) nv->addMetadata(kind, *MapMetadata(md, vmap));
      if (v->hasInitializer()) nv->setInitializer(MapValue(v->getInitializer(), vmap));
    } else {
      auto *f = cast<Function>(g);
      auto *nf = cast<Function>(vmap[g]);
      auto arg = nf->arg_begin();
      for (const Argument &a : f->args()) {
        arg->setName(a.getName());
        vmap[&a] = &*arg++;
      }
      SmallVector<ReturnInst *, 8> returns;
      CloneFunctionInto(nf, f, vmap, CloneFunctionChangeType::ClonedModule, returns);
    }
  }
  for (const NamedMDNode &md : m.named_metadata()) {
    NamedMDNode *copy = part->getOrInsertNamedMetadata(md.getName());
    for (const MDNode *n : md.operands()) {
      if (md.getName() == "nvvm.annotations") {
        auto *v = n->getNumOperands() > 0 ? dyn_cast_or_null<ValueAsMetadata>(n->getOperand(0).get()) : nullptr;
        auto *g = v ? dyn_cast<GlobalValue>(v->getValue()) : nullptr;
        bool member = g && vmap.count(g) && !cast<GlobalValue>(vmap[g])->isDeclaration();
        if (g && !member) continue; // another part's kernel
      }
      copy->addOperand(MapMetadata(n, vmap));
    }
  }
  return part;
}

// NVPTX numbers call sites with a counter of the process (`{ // callseq 3, 0`, and the
// `prototype_3` of an indirect call), so a part's numbers depend on what compiled before
// it, on any thread. Renumbered from `next` in the order they appear, the joined PTX is
// the same on every run, and a part used for several kernels gets fresh numbers for each.
std::string renumber_call_sites(const std::string &ptx, size_t &next) {
  std::map<std::string, size_t> fresh;
  std::string out;
  size_t at = 0;
  for (;;) {
    size_t a = ptx.find("// callseq ", at), b = ptx.find("prototype_", at);
    size_t p = std::min(a, b);
    if (p == std::string::npos) break;
    size_t d = p + (p == a ? std::strlen("// callseq ") : std::strlen("prototype_")), e = d;
    while (e < ptx.size() && isDigit(ptx[e])) e++;
    out.append(ptx, at, d - at);
    if (e > d) {
      auto [it, added] = fresh.emplace(ptx.substr(d, e - d), next);
      if (added) next++;
      out += std::to_string(it->second);
    }
    at = e;
  }
  out.append(ptx, at, std::string::npos);
  return out;
}

} // namespace

std::vector<PtxPart> split_kernel_module(Module &m) {
  if (!m.alias_empty() || !m.ifunc_empty())
    throw std::logic_error("internal error: the kernel module has aliases, which emit_ptx cannot split");
  // Every definition, in the module's order, with a name PTX can spell.
  std::vector<GlobalValue *> defs;
  for (GlobalVariable &g : m.globals())
    if (!g.isDeclaration()) defs.push_back(&g);
  for (Function &f : m)
    if (!f.isDeclaration()) defs.push_back(&f);
  if (defs.empty()) return {};
  int unnamed = 0;
  for (GlobalValue *g : defs) {
    if (!g->hasName()) g->setName(fmt::format("__unnamed_{}", ++unnamed));
    else if (ptx_name(g->getName()) != g->getName()) g->setName(ptx_name(g->getName()));
    if (g->getName().contains(kPlaceholder))
      throw std::logic_error(fmt::format("internal error: the kernel module defines {}", g->getName().str()));
  }
  std::map<const GlobalValue *, size_t> order;
  for (GlobalValue *g : defs) order.emplace(g, order.size());

  // The kernels (every definition that is not internal), and the internal definitions
  // each reaches; kernels that share one, or refer to each other, are one part.
  EquivalenceClasses<const GlobalValue *> groups;
  std::map<const GlobalValue *, std::set<const GlobalValue *>> reach;
  std::map<const GlobalValue *, const GlobalValue *> owner; // internal definition -> a kernel reaching it
  for (GlobalValue *k : defs) {
    if (k->hasLocalLinkage()) continue;
    groups.insert(k);
    std::set<const GlobalValue *> &seen = reach[k];
    std::vector<const GlobalValue *> todo{k};
    while (!todo.empty()) {
      const GlobalValue *g = todo.back();
      todo.pop_back();
      for (const GlobalValue *r : references(*g)) {
        if (r->isDeclaration() || seen.count(r)) continue;
        if (!r->hasLocalLinkage()) {
          groups.unionSets(k, r);
          continue;
        }
        seen.insert(r);
        todo.push_back(r);
        if (copied_per_part(*r)) continue;
        auto [it, fresh] = owner.emplace(r, k);
        if (!fresh) groups.unionSets(k, it->second);
      }
    }
  }

  // The parts, in the order of their first kernel.
  std::map<size_t, std::set<const GlobalValue *>> parts; // first kernel's position -> members
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    if (!it->isLeader()) continue;
    std::set<const GlobalValue *> members;
    size_t first = defs.size();
    for (auto k = groups.member_begin(it); k != groups.member_end(); ++k) {
      members.insert(*k);
      members.insert(reach[*k].begin(), reach[*k].end());
      first = std::min(first, order.at(*k));
    }
    parts.emplace(first, std::move(members));
  }
  // An internal definition no kernel reaches is dropped, as O3 would drop it.

  std::vector<PtxPart> out;
  for (const auto &[first, member_set] : parts) {
    std::vector<const GlobalValue *> members(member_set.begin(), member_set.end());
    std::sort(members.begin(), members.end(),
              [&](const GlobalValue *a, const GlobalValue *b) { return order.at(a) < order.at(b); });
    ValueToValueMapTy vmap;
    std::unique_ptr<Module> part = extract(m, members, vmap);
    PtxPart p;
    for (const GlobalValue *g : members) {
      auto *copy = cast<GlobalValue>(vmap[g]);
      p.names.push_back(copy->getName().str());
      copy->setName(fmt::format("{}{}_", kPlaceholder, p.names.size() - 1));
      if (auto *f = dyn_cast<Function>(copy)) p.instructions += f->getInstructionCount();
    }
    raw_string_ostream os(p.bitcode);
    WriteBitcodeToFile(*part, os);
    os.flush();
    out.push_back(std::move(p));
  }
  return out;
}

std::string restore_names(const std::string &ptx, const std::vector<std::string> &names) {
  const std::string key = kPlaceholder;
  auto ident = [](char c) { return isAlnum(c) || c == '_'; };
  std::string out;
  out.reserve(ptx.size());
  size_t at = 0;
  for (size_t p = ptx.find(key); p != std::string::npos; p = ptx.find(key, p)) {
    size_t d = p + key.size(), e = d;
    while (e < ptx.size() && isDigit(ptx[e])) e++;
    if ((p > 0 && ident(ptx[p - 1])) || e == d || e >= ptx.size() || ptx[e] != '_') {
      p = d;
      continue;
    }
    size_t i = std::stoul(ptx.substr(d, e - d));
    if (i >= names.size())
      throw std::logic_error(fmt::format("internal error: placeholder {} in a part's PTX has no name",
                                         ptx.substr(p, e + 1 - p)));
    out.append(ptx, at, p - at);
    out += names[i];
    at = p = e + 1;
  }
  out.append(ptx, at, std::string::npos);
  if (out.find(key) != std::string::npos)
    throw std::logic_error("internal error: a placeholder name is left in the PTX of a kernel");
  return out;
}

std::string join_ptx(const std::vector<std::string> &parts) {
  std::string out, header;
  size_t call_sites = 0;
  for (const std::string &text : parts) {
    std::string p = renumber_call_sites(text, call_sites);
    size_t a = p.find("\n.address_size ");
    size_t end = a == std::string::npos ? a : p.find('\n', a + 1);
    if (end == std::string::npos)
      throw std::logic_error("internal error: a part's PTX has no .address_size line");
    std::string h = p.substr(0, end + 1);
    if (header.empty()) {
      header = h;
      out = h;
    } else if (h != header) {
      throw std::logic_error("internal error: the parts' PTX headers differ:\n" + header + "\n" + h);
    }
    out.append(p, end + 1, std::string::npos);
  }
  return out;
}

} // namespace kerb::codegen
