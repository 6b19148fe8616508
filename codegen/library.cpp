// Compiled libraries (see library.h).
#include "codegen/library.h"

#include "codegen/gen_llvm.h"
#include "codegen/llvm_target.h"
#include "codegen/program_desc.h"

#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Object/ArchiveWriter.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <set>
#include <stdexcept>

namespace kerb::codegen {

using namespace llvm;

std::string c_identifier(const std::string &name) {
  std::string out;
  for (char ch : name) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    out += ok ? ch : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "_" + out;
  return out;
}

namespace {

std::string code_table_name(const std::string &tag, const char *device) {
  return fmt::format("kerb__{}__{}_code", tag, device);
}

// Makes a target's host module self-contained: every definition internal, reachable
// from one hidden table {entries, kernels} (a kerb_target_code) that the API object
// refers to.
void seal_target_module(Module &m, const core::Program &core,
                        const std::vector<std::string> *kernel_names, const std::string &table) {
  LLVMContext &c = m.getContext();
  PointerType *ptr = PointerType::get(c, 0);
  auto lookup = [&](const std::string &name) -> Constant * {
    Function *f = m.getFunction(name);
    if (!f || f->isDeclaration())
      throw std::logic_error(fmt::format("internal error: the host module has no function {}", name));
    return f;
  };
  std::vector<Constant *> entries, kernels;
  for (const core::Function &f : core.functions) entries.push_back(lookup(entry_symbol(f.name)));
  if (kernel_names)
    for (const std::string &k : *kernel_names) kernels.push_back(lookup(k));
  for (Function &f : m.functions())
    if (!f.isDeclaration()) f.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &g : m.globals())
    if (!g.isDeclaration()) g.setLinkage(GlobalValue::InternalLinkage);
  auto array = [&](const std::vector<Constant *> &v, const char *name) -> Constant * {
    if (v.empty()) return ConstantPointerNull::get(ptr);
    ArrayType *t = ArrayType::get(ptr, v.size());
    return new GlobalVariable(m, t, true, GlobalValue::PrivateLinkage, ConstantArray::get(t, v), name);
  };
  Constant *e = array(entries, "kerb_entries");
  Constant *k = kernel_names ? array(kernels, "kerb_kernels") : ConstantPointerNull::get(ptr);
  StructType *code_t = StructType::get(c, {ptr, ptr});
  auto *g = new GlobalVariable(m, code_t, true, GlobalValue::ExternalLinkage,
                               ConstantStruct::get(code_t, {e, k}), table);
  g->setVisibility(GlobalValue::HiddenVisibility);
}

llvm::Type *c_scalar_type(LLVMContext &c, PrimType t) {
  switch (t) {
  case PrimType::Bool: case PrimType::I8: case PrimType::U8: return llvm::Type::getInt8Ty(c);
  case PrimType::I16: case PrimType::U16: case PrimType::F16: return llvm::Type::getInt16Ty(c);
  case PrimType::I32: case PrimType::U32: return llvm::Type::getInt32Ty(c);
  case PrimType::I64: case PrimType::U64: return llvm::Type::getInt64Ty(c);
  case PrimType::F32: return llvm::Type::getFloatTy(c);
  case PrimType::F64: return llvm::Type::getDoubleTy(c);
  }
  return nullptr;
}

std::string array_suffix(const CSlot &t) { return fmt::format("{}_{}d", prim_name(t.prim), t.rank); }

// A list of values in the descriptor's form (runtime/program_abi.h): `s` or `oK` each.
std::string values_desc(const std::vector<CValue> &values) {
  std::string s;
  for (size_t k = 0; k < values.size(); k++)
    s += (k ? "," : "") + (values[k].opaque < 0 ? std::string("s") : fmt::format("o{}", values[k].opaque));
  return s;
}

// An opaque type in the descriptor's form: "NAME;KIND;RANK;SLOTS[;FIELD=VALUES]...".
std::string opaque_desc(const LibraryOpaque &o) {
  std::string s = fmt::format("{};{};{};", o.c_name,
                              o.kind == OpaqueType::Record ? 'r' : o.kind == OpaqueType::Sum ? 's' : 'a', o.rank);
  for (size_t k = 0; k < o.slots.size(); k++) s += (k ? "," : "") + array_suffix(o.slots[k]);
  for (const LibraryOpaque::Field &f : o.fields) s += fmt::format(";{}={}", f.c_name, values_desc(f.values));
  return s;
}

// The API object: the descriptor and the exported C functions.
class ApiModule {
public:
  ApiModule(const std::string &tag) : m_("kerb_api_" + tag, c_), tag_(tag) {}

  std::string build(const ProgramInfo &info, const Library &lib, const std::string &cpu) {
    declare_runtime();
    Constant *desc = descriptor(info, lib);
    context_new(desc);
    for (size_t i = 0; i < lib.entries.size(); i++) entry(lib.entries[i], int(i), desc);
    for (const CSlot &t : lib.array_types) array_functions(t);
    for (size_t i = 0; i < lib.opaques.size(); i++) opaque_functions(lib.opaques[i], int(i), desc);
    return emit_object(m_, cpu);
  }

private:
  PointerType *ptr() { return PointerType::get(c_, 0); }
  llvm::Type *i32() { return llvm::Type::getInt32Ty(c_); }
  llvm::Type *i64() { return llvm::Type::getInt64Ty(c_); }

  Constant *cstr(const std::string &s, const std::string &name) {
    Constant *data = ConstantDataArray::getString(c_, s, true);
    auto *g = new GlobalVariable(m_, data->getType(), true, GlobalValue::PrivateLinkage, data, name);
    g->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    return g;
  }

  Constant *ptr_array(const std::vector<std::string> &strings, const std::string &name) {
    if (strings.empty()) return ConstantPointerNull::get(ptr());
    std::vector<Constant *> v;
    for (size_t i = 0; i < strings.size(); i++) v.push_back(cstr(strings[i], fmt::format("{}.{}", name, i)));
    ArrayType *t = ArrayType::get(ptr(), v.size());
    return new GlobalVariable(m_, t, true, GlobalValue::PrivateLinkage, ConstantArray::get(t, v), name);
  }

  void declare_runtime() {
    auto decl = [&](const char *name, llvm::Type *ret, std::vector<llvm::Type *> params) {
      Function::Create(FunctionType::get(ret, params, false), GlobalValue::ExternalLinkage, name, m_);
    };
    decl("kerb_rt_context_new", ptr(), {ptr(), ptr()});
    decl("kerb_rt_entry", i32(), {ptr(), ptr(), i32(), ptr(), ptr()});
    decl("kerb_rt_array_new", ptr(), {ptr(), i32(), i32(), ptr(), ptr()});
    decl("kerb_rt_array_values", i32(), {ptr(), i32(), i32(), ptr(), ptr()});
    decl("kerb_rt_array_shape", ptr(), {ptr(), i32(), i32(), ptr()});
    decl("kerb_rt_array_free", i32(), {ptr(), i32(), i32(), ptr()});
    decl("kerb_rt_opaque_free", i32(), {ptr(), ptr(), i32(), ptr()});
    decl("kerb_rt_opaque_new", i32(), {ptr(), ptr(), i32(), ptr(), ptr()});
    decl("kerb_rt_opaque_project", i32(), {ptr(), ptr(), i32(), i32(), ptr(), ptr()});
    decl("kerb_rt_opaque_shape", ptr(), {ptr(), ptr(), i32(), ptr()});
    decl("kerb_rt_opaque_store", i32(), {ptr(), ptr(), i32(), ptr(), ptr(), ptr()});
    decl("kerb_rt_opaque_restore", ptr(), {ptr(), ptr(), i32(), ptr()});
  }

  // runtime/program_abi.h's kerb_program_desc.
  Constant *descriptor(const ProgramInfo &info, const Library &lib) {
    std::vector<std::string> opaque_types, interfaces;
    for (const LibraryOpaque &o : lib.opaques) opaque_types.push_back(opaque_desc(o));
    for (const LibraryEntry &e : lib.entries)
      interfaces.push_back(values_desc(e.ins) + "->" + values_desc(e.outs));
    Constant *kernel_info = ConstantPointerNull::get(ptr());
    if (!info.kernel_info.empty()) {
      Constant *data = ConstantDataArray::get(c_, info.kernel_info);
      kernel_info = new GlobalVariable(m_, data->getType(), true, GlobalValue::PrivateLinkage, data,
                                       "kerb_kernel_info");
    }
    StructType *code_t = StructType::get(c_, {ptr(), ptr()});
    auto table = [&](const char *device) {
      auto *g = new GlobalVariable(m_, code_t, true, GlobalValue::ExternalLinkage, nullptr,
                                   code_table_name(tag_, device));
      g->setVisibility(GlobalValue::HiddenVisibility);
      return g;
    };
    StructType *desc_t =
        StructType::get(c_, {i32(), i32(), i32(), i32(), ptr(), ptr(), ptr(), ptr(), ptr(), ptr(), ptr(), i64(),
                             ptr(), ptr(), i32(), i32(), ptr(), ptr()});
    Constant *fields[] = {
        ConstantInt::get(i32(), KERB_PROGRAM_ABI_VERSION),
        ConstantInt::get(i32(), info.entry_names.size()),
        ConstantInt::get(i32(), info.kernel_names.size()),
        ConstantInt::get(i32(), 0),
        cstr(info.name, "kerb_program_name"),
        ptr_array(info.entry_names, "kerb_entry_names"),
        ptr_array(info.entry_signatures, "kerb_entry_signatures"),
        ptr_array(info.kernel_names, "kerb_kernel_names"),
        kernel_info,
        cstr(info.ptx, "kerb_ptx"),
        cstr(info.failure_table, "kerb_failure_table"),
        ConstantInt::get(i64(), info.failure_table.size()),
        table("cpu"),
        table("cuda"),
        ConstantInt::get(i32(), opaque_types.size()),
        ConstantInt::get(i32(), 0),
        ptr_array(opaque_types, "kerb_opaque_types"),
        ptr_array(interfaces, "kerb_entry_interfaces"),
    };
    return new GlobalVariable(m_, desc_t, true, GlobalValue::InternalLinkage,
                              ConstantStruct::get(desc_t, fields), "kerb_program");
  }

  Function *exported(const std::string &name, llvm::Type *ret, std::vector<llvm::Type *> params) {
    Function *f = Function::Create(FunctionType::get(ret, params, false), GlobalValue::ExternalLinkage, name, m_);
    f->addFnAttr(Attribute::NoUnwind);
    BasicBlock::Create(c_, "entry", f);
    return f;
  }

  // struct kerb_context *kerb_context_new(struct kerb_context_config *cfg)
  void context_new(Constant *desc) {
    Function *f = exported("kerb_context_new", ptr(), {ptr()});
    IRBuilder<> b(&f->getEntryBlock());
    b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_context_new"), {f->getArg(0), desc}));
  }

  // Stores `values` into a new stack array of pointers.
  llvm::Value *pointer_array(IRBuilder<> &b, const std::vector<llvm::Value *> &values) {
    ArrayType *t = ArrayType::get(ptr(), std::max<size_t>(values.size(), 1));
    llvm::Value *a = b.CreateAlloca(t);
    for (size_t i = 0; i < values.size(); i++)
      b.CreateStore(values[i], b.CreateConstGEP2_32(t, a, 0, unsigned(i)));
    return a;
  }

  // The C type of an input value: a scalar by value, anything else a handle.
  llvm::Type *input_type(const CValue &v) {
    return v.opaque < 0 && v.slot.rank == 0 ? c_scalar_type(c_, v.slot.prim) : ptr();
  }

  // Pointers to f's arguments from `first` on, one per value as the runtime takes them:
  // a scalar's storage (a stack copy), a handle as it is.
  std::vector<llvm::Value *> input_pointers(IRBuilder<> &b, Function *f, unsigned first,
                                            const std::vector<CValue> &values) {
    std::vector<llvm::Value *> ins;
    for (size_t k = 0; k < values.size(); k++) {
      llvm::Value *arg = f->getArg(first + unsigned(k));
      if (input_type(values[k]) == ptr()) {
        ins.push_back(arg);
        continue;
      }
      llvm::Value *holder = b.CreateAlloca(arg->getType());
      b.CreateStore(arg, holder);
      ins.push_back(holder);
    }
    return ins;
  }

  std::vector<llvm::Value *> args_from(Function *f, unsigned first, size_t n) {
    std::vector<llvm::Value *> out;
    for (size_t k = 0; k < n; k++) out.push_back(f->getArg(first + unsigned(k)));
    return out;
  }

  // int kerb_entry_NAME(ctx, outputs..., inputs...)
  void entry(const LibraryEntry &e, int index, Constant *desc) {
    std::vector<llvm::Type *> params{ptr()};
    for (size_t k = 0; k < e.outs.size(); k++) params.push_back(ptr());
    for (const CValue &v : e.ins) params.push_back(input_type(v));
    Function *f = exported("kerb_entry_" + e.c_name, i32(), params);
    IRBuilder<> b(&f->getEntryBlock());
    std::vector<llvm::Value *> outs = args_from(f, 1, e.outs.size());
    std::vector<llvm::Value *> ins = input_pointers(b, f, unsigned(1 + e.outs.size()), e.ins);
    llvm::Value *call = b.CreateCall(m_.getFunction("kerb_rt_entry"),
                               {f->getArg(0), desc, b.getInt32(uint32_t(index)),
                                pointer_array(b, outs), pointer_array(b, ins)});
    b.CreateRet(call);
  }

  // The functions of opaque type number `index` (Futhark's, with kerb_ for futhark_).
  void opaque_functions(const LibraryOpaque &o, int index, Constant *desc) {
    std::string s = "opaque_" + o.c_name;
    llvm::Value *type = ConstantInt::get(i32(), index);
    {
      // int kerb_free_opaque_T(ctx, struct kerb_opaque_T *obj)
      Function *f = exported("kerb_free_" + s, i32(), {ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_opaque_free"), {f->getArg(0), desc, type, f->getArg(1)}));
    }
    {
      // int kerb_store_opaque_T(ctx, const struct kerb_opaque_T *obj, void **p, size_t *n)
      Function *f = exported("kerb_store_" + s, i32(), {ptr(), ptr(), ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_opaque_store"),
                               {f->getArg(0), desc, type, f->getArg(1), f->getArg(2), f->getArg(3)}));
    }
    {
      // struct kerb_opaque_T *kerb_restore_opaque_T(ctx, const void *p)
      Function *f = exported("kerb_restore_" + s, ptr(), {ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(
          b.CreateCall(m_.getFunction("kerb_rt_opaque_restore"), {f->getArg(0), desc, type, f->getArg(1)}));
    }
    if (o.rank > 0) {
      // const int64_t *kerb_shape_opaque_T(ctx, struct kerb_opaque_T *obj)
      Function *f = exported("kerb_shape_" + s, ptr(), {ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_opaque_shape"), {f->getArg(0), desc, type, f->getArg(1)}));
    }
    if (o.kind != OpaqueType::Record) return;
    std::vector<CValue> all;
    for (const LibraryOpaque::Field &fd : o.fields) all.insert(all.end(), fd.values.begin(), fd.values.end());
    {
      // int kerb_new_opaque_T(ctx, struct kerb_opaque_T **out, fields' values...)
      std::vector<llvm::Type *> params{ptr(), ptr()};
      for (const CValue &v : all) params.push_back(input_type(v));
      Function *f = exported("kerb_new_" + s, i32(), params);
      IRBuilder<> b(&f->getEntryBlock());
      std::vector<llvm::Value *> ins = input_pointers(b, f, 2, all);
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_opaque_new"),
                               {f->getArg(0), desc, type, f->getArg(1), pointer_array(b, ins)}));
    }
    for (size_t k = 0; k < o.fields.size(); k++) {
      // int kerb_project_opaque_T_F(ctx, the field's values..., const struct kerb_opaque_T *obj)
      const LibraryOpaque::Field &fd = o.fields[k];
      std::vector<llvm::Type *> params(fd.values.size() + 2, ptr());
      Function *f = exported("kerb_project_" + s + "_" + fd.c_name, i32(), params);
      IRBuilder<> b(&f->getEntryBlock());
      std::vector<llvm::Value *> outs = args_from(f, 1, fd.values.size());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_opaque_project"),
                               {f->getArg(0), desc, type, b.getInt32(uint32_t(k)), pointer_array(b, outs),
                                f->getArg(unsigned(1 + fd.values.size()))}));
    }
  }

  void array_functions(const CSlot &t) {
    std::string s = array_suffix(t);
    llvm::Value *prim = ConstantInt::get(i32(), int(t.prim)), *rank = ConstantInt::get(i32(), t.rank);
    {
      // struct kerb_T_Rd *kerb_new_T_Rd(ctx, const T *data, int64_t dim0, ...)
      std::vector<llvm::Type *> params{ptr(), ptr()};
      for (int d = 0; d < t.rank; d++) params.push_back(i64());
      Function *f = exported("kerb_new_" + s, ptr(), params);
      IRBuilder<> b(&f->getEntryBlock());
      ArrayType *dims_t = ArrayType::get(i64(), size_t(t.rank));
      llvm::Value *dims = b.CreateAlloca(dims_t);
      for (int d = 0; d < t.rank; d++)
        b.CreateStore(f->getArg(unsigned(2 + d)), b.CreateConstGEP2_32(dims_t, dims, 0, unsigned(d)));
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_array_new"),
                               {f->getArg(0), prim, rank, f->getArg(1), dims}));
    }
    {
      // int kerb_values_T_Rd(ctx, struct kerb_T_Rd *arr, T *data)
      Function *f = exported("kerb_values_" + s, i32(), {ptr(), ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_array_values"),
                               {f->getArg(0), prim, rank, f->getArg(1), f->getArg(2)}));
    }
    {
      // const int64_t *kerb_shape_T_Rd(ctx, struct kerb_T_Rd *arr)
      Function *f = exported("kerb_shape_" + s, ptr(), {ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_array_shape"), {f->getArg(0), prim, rank, f->getArg(1)}));
    }
    {
      // int kerb_free_T_Rd(ctx, struct kerb_T_Rd *arr)
      Function *f = exported("kerb_free_" + s, i32(), {ptr(), ptr()});
      IRBuilder<> b(&f->getEntryBlock());
      b.CreateRet(b.CreateCall(m_.getFunction("kerb_rt_array_free"), {f->getArg(0), prim, rank, f->getArg(1)}));
    }
  }

  LLVMContext c_;
  Module m_;
  std::string tag_;
};

CSlot slot_of(const core::CType &t) { return CSlot{t.prim, t.rank}; }

std::vector<CValue> c_values(const std::vector<EntryValue> &values) {
  std::vector<CValue> out;
  for (const EntryValue &v : values) out.push_back(CValue{CSlot{v.prim, v.rank}, v.opaque, v.name});
  return out;
}

std::vector<CValue> one_value_per_slot(const std::vector<CSlot> &slots) {
  std::vector<CValue> out;
  for (const CSlot &t : slots) out.push_back(CValue{t, -1, ""});
  return out;
}

// The opaque types with their C names: Futhark's spelling made an identifier, and a
// number after a name that another type already has.
std::vector<LibraryOpaque> library_opaques(const EntryTypes &types) {
  std::vector<LibraryOpaque> out;
  std::set<std::string> used;
  for (const OpaqueType &t : types.opaques) {
    LibraryOpaque o;
    o.name = t.name;
    o.c_name = c_identifier(t.pretty);
    for (int n = 2; used.count(o.c_name); n++) o.c_name = fmt::format("{}_{}", c_identifier(t.pretty), n);
    used.insert(o.c_name);
    o.kind = t.kind;
    o.rank = t.rank;
    for (const auto &[prim, rank] : t.slots) o.slots.push_back(CSlot{prim, rank});
    for (const OpaqueType::Field &f : t.fields)
      o.fields.push_back(LibraryOpaque::Field{f.name, c_identifier(f.name), c_values(f.values)});
    out.push_back(std::move(o));
  }
  return out;
}

bool same_slot(const CSlot &a, const CSlot &b) { return a.prim == b.prim && a.rank == b.rank; }

// That `values` take exactly the slots `slots` (entry_types.h against the lowering).
void check_covers(const Library &lib, const std::vector<CValue> &values, const std::vector<CSlot> &slots,
                  const std::string &entry) {
  size_t k = 0;
  bool ok = true;
  for (const CValue &v : values) {
    if (v.opaque < 0) {
      ok = ok && k < slots.size() && same_slot(v.slot, slots[k]);
      k++;
      continue;
    }
    for (const CSlot &t : lib.opaques[size_t(v.opaque)].slots) {
      ok = ok && k < slots.size() && same_slot(t, slots[k]);
      k++;
    }
  }
  if (!ok || k != slots.size())
    throw std::logic_error(fmt::format("internal error: the C signature of entry {} does not match its {} "
                                       "flattened slots",
                                       entry, slots.size()));
}

std::string archive_of(const std::vector<std::pair<std::string, std::string>> &objects) {
  std::vector<NewArchiveMember> members;
  for (const auto &[name, bytes] : objects)
    members.emplace_back(MemoryBufferRef(StringRef(bytes), StringRef(name)));
  Expected<std::unique_ptr<MemoryBuffer>> buf = writeArchiveToBuffer(
      members, SymtabWritingMode::NormalSymtab, object::Archive::K_GNU, true, false);
  if (!buf) {
    std::string msg;
    raw_string_ostream os(msg);
    os << buf.takeError();
    throw std::runtime_error(fmt::format("llvm error in writeArchiveToBuffer at {}:{}: {}", __FILE__,
                                         __LINE__, msg));
  }
  return std::string((*buf)->getBuffer());
}

} // namespace

Library compile_library(const Program &program, const std::string &name, const LibraryOptions &opts) {
  initialize_llvm();
  core::Program core = lower_checked(program, opts.compile);
  GeneratedProgram cpu = generate_llvm(core, Target::Cpu, opts.compile.gen);
  GeneratedProgram cuda = generate_llvm(core, Target::Cuda, opts.compile.gen);
  // One kernel list serves both devices: the host code of each launches kernel i.
  bool same = cpu.kernel_names == cuda.kernel_names && cpu.kernel_descs.size() == cuda.kernel_descs.size();
  for (size_t i = 0; same && i < cpu.kernel_descs.size(); i++)
    same = cpu.kernel_descs[i].kind == cuda.kernel_descs[i].kind &&
           cpu.kernel_descs[i].shared_bytes_per_thread == cuda.kernel_descs[i].shared_bytes_per_thread &&
           cpu.kernel_descs[i].block_threads == cuda.kernel_descs[i].block_threads &&
           cpu.kernel_descs[i].max_blocks_per_sm == cuda.kernel_descs[i].max_blocks_per_sm &&
           cpu.kernel_descs[i].rows_slot == cuda.kernel_descs[i].rows_slot;
  if (!same)
    throw std::logic_error("internal error: the CPU and CUDA targets generated different kernels");
  std::string ptx =
      cuda.kernel_names.empty() ? "" : emit_ptx(*cuda.kernels, opts.compile.sm, opts.compile.fp_contract);
  ProgramInfo info = program_info(program.file->path, core, cpu, std::move(ptx));

  Library lib;
  if (program.entry_types) lib.opaques = library_opaques(*program.entry_types);
  for (const core::Function &f : core.functions) {
    LibraryEntry e;
    e.name = f.name;
    e.c_name = c_identifier(f.name);
    for (int v : f.params) e.params.push_back(slot_of(core.var(v).type));
    for (const core::SubExp &r : f.body.result) e.results.push_back(slot_of(core.type_of(r)));
    const EntryInterface *face = nullptr;
    if (program.entry_types) {
      auto it = program.entry_types->entries.find(f.name);
      if (it != program.entry_types->entries.end()) face = &it->second;
    }
    e.ins = face ? c_values(face->params) : one_value_per_slot(e.params);
    e.outs = face ? c_values(face->results) : one_value_per_slot(e.results);
    check_covers(lib, e.ins, e.params, e.name);
    check_covers(lib, e.outs, e.results, e.name);
    lib.entries.push_back(std::move(e));
  }
  std::set<std::pair<int, int>> seen;
  auto add_arrays = [&](const std::vector<CValue> &values) {
    for (const CValue &v : values)
      if (v.opaque < 0 && v.slot.rank > 0 && seen.insert({int(v.slot.prim), v.slot.rank}).second)
        lib.array_types.push_back(v.slot);
  };
  for (const LibraryEntry &e : lib.entries) {
    add_arrays(e.ins);
    add_arrays(e.outs);
  }
  for (const LibraryOpaque &o : lib.opaques)
    for (const LibraryOpaque::Field &fd : o.fields) add_arrays(fd.values);

  std::string tag = c_identifier(name);
  seal_target_module(*cpu.host, core, &cpu.kernel_names, code_table_name(tag, "cpu"));
  seal_target_module(*cuda.host, core, nullptr, code_table_name(tag, "cuda"));
  std::vector<std::pair<std::string, std::string>> objects;
  objects.emplace_back(name + ".o", ApiModule(tag).build(info, lib, opts.cpu));
  objects.emplace_back(name + "_cpu.o", emit_object(*cpu.host, opts.cpu));
  objects.emplace_back(name + "_cuda.o", emit_object(*cuda.host, opts.cpu));
  lib.archive = archive_of(objects);
  return lib;
}

} // namespace kerb::codegen
