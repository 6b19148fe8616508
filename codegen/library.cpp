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

// The API object: the descriptor and the exported C functions.
class ApiModule {
public:
  ApiModule(const std::string &tag) : m_("kerb_api_" + tag, c_), tag_(tag) {}

  std::string build(const ProgramInfo &info, const std::vector<LibraryEntry> &entries,
                    const std::vector<CSlot> &array_types, const std::string &cpu) {
    declare_runtime();
    Constant *desc = descriptor(info);
    context_new(desc);
    for (size_t i = 0; i < entries.size(); i++) entry(entries[i], int(i), desc);
    for (const CSlot &t : array_types) array_functions(t);
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
  }

  // runtime/program_abi.h's kerb_program_desc.
  Constant *descriptor(const ProgramInfo &info) {
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
    StructType *desc_t = StructType::get(
        c_, {i32(), i32(), i32(), i32(), ptr(), ptr(), ptr(), ptr(), ptr(), ptr(), ptr(), i64(), ptr(), ptr()});
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

  // int kerb_entry_NAME(ctx, outputs..., inputs...)
  void entry(const LibraryEntry &e, int index, Constant *desc) {
    std::vector<llvm::Type *> params{ptr()};
    for (size_t k = 0; k < e.results.size(); k++) params.push_back(ptr());
    for (const CSlot &t : e.params) params.push_back(t.rank == 0 ? c_scalar_type(c_, t.prim) : ptr());
    Function *f = exported("kerb_entry_" + e.c_name, i32(), params);
    IRBuilder<> b(&f->getEntryBlock());
    std::vector<llvm::Value *> outs, ins;
    for (size_t k = 0; k < e.results.size(); k++) outs.push_back(f->getArg(unsigned(1 + k)));
    for (size_t k = 0; k < e.params.size(); k++) {
      llvm::Value *arg = f->getArg(unsigned(1 + e.results.size() + k));
      if (e.params[k].rank > 0) {
        ins.push_back(arg);
        continue;
      }
      llvm::Value *holder = b.CreateAlloca(arg->getType());
      b.CreateStore(arg, holder);
      ins.push_back(holder);
    }
    llvm::Value *call = b.CreateCall(m_.getFunction("kerb_rt_entry"),
                               {f->getArg(0), desc, b.getInt32(uint32_t(index)),
                                pointer_array(b, outs), pointer_array(b, ins)});
    b.CreateRet(call);
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
           cpu.kernel_descs[i].shared_bytes_per_thread == cuda.kernel_descs[i].shared_bytes_per_thread;
  if (!same)
    throw std::logic_error("internal error: the CPU and CUDA targets generated different kernels");
  std::string ptx =
      cuda.kernel_names.empty() ? "" : emit_ptx(*cuda.kernels, opts.compile.sm, opts.compile.fp_contract);
  ProgramInfo info = program_info(program.file->path, core, cpu, std::move(ptx));

  Library lib;
  std::set<std::pair<int, int>> seen;
  for (const core::Function &f : core.functions) {
    LibraryEntry e;
    e.name = f.name;
    e.c_name = c_identifier(f.name);
    for (int v : f.params) e.params.push_back(slot_of(core.var(v).type));
    for (const core::SubExp &r : f.body.result) e.results.push_back(slot_of(core.type_of(r)));
    for (const std::vector<CSlot> *list : {&e.params, &e.results})
      for (const CSlot &t : *list)
        if (t.rank > 0 && seen.insert({int(t.prim), t.rank}).second) lib.array_types.push_back(t);
    lib.entries.push_back(std::move(e));
  }

  std::string tag = c_identifier(name);
  seal_target_module(*cpu.host, core, &cpu.kernel_names, code_table_name(tag, "cpu"));
  seal_target_module(*cuda.host, core, nullptr, code_table_name(tag, "cuda"));
  std::vector<std::pair<std::string, std::string>> objects;
  objects.emplace_back(name + ".o", ApiModule(tag).build(info, lib.entries, lib.array_types, opts.cpu));
  objects.emplace_back(name + "_cpu.o", emit_object(*cpu.host, opts.cpu));
  objects.emplace_back(name + "_cuda.o", emit_object(*cuda.host, opts.cpu));
  lib.archive = archive_of(objects);
  return lib;
}

} // namespace kerb::codegen
