// Compiling a program for the CPU or CUDA device and running its entry points (see
// compiled_program.h).
#include "codegen/compiled_program.h"

#include "codegen/kernel_ir.h"

#include "codegen/gen_llvm.h"
#include "codegen/llvm_target.h"
#include "codegen/program_desc.h"
#include "compiler/check_sites.h"
#include "compiler/source.h"
#include "runtime/context.h"
#include "runtime/program_abi.h"

#include "kerb/kerb.h"

#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace kerb::codegen {

namespace {

core::Program lower(const Program &program, const CompileOptions &opts) {
  std::vector<const FunDef *> entries = entry_defs(program);
  if (!opts.only_entry.empty())
    std::erase_if(entries, [&](const FunDef *f) { return f->name != opts.only_entry; });
  return lower_and_check(program, entries, opts.pipeline);
}

int elem_size(PrimType t) { return t == PrimType::Bool ? 1 : prim_bits(t) / 8; }

// One primitive leaf of a value: a scalar or an array of primitives.
struct Leaf {
  bool is_array = false;
  PrimValue scalar;
  const ArrayData *array = nullptr;
};

// `()` is one bool (false), as the lowering flattens it (an array of () keeps its
// length); `units` keeps the bool arrays made for arrays of ().
void flatten(const Value &v, std::vector<Leaf> &out, std::vector<Value> &units) {
  switch (v.kind) {
  case Value::Prim: out.push_back(Leaf{false, v.prim, nullptr}); return;
  case Value::Tuple:
    if (v.elems.empty()) out.push_back(Leaf{false, PrimValue::boolean(false), nullptr});
    for (const Value &e : v.elems) flatten(e, out, units);
    return;
  case Value::Array:
    if (v.array->elem.kind == ValueType::Tuple) {
      if (v.array->elem.elems.empty()) {
        units.push_back(make_prim_array(PrimType::Bool, v.array->shape,
                                        std::vector<Bits>(size_t(v.array->num_elements()))));
        out.push_back(Leaf{true, {}, units.back().array.get()});
      }
      for (const Value &c : v.array->components) flatten(c, out, units);
      return;
    }
    out.push_back(Leaf{true, {}, v.array.get()});
    return;
  }
}

std::vector<uint8_t> pack(const ArrayData &a) {
  PrimType t = a.elem.prim;
  int es = elem_size(t);
  std::vector<uint8_t> bytes(a.data.size() * size_t(es));
  for (size_t i = 0; i < a.data.size(); i++) {
    const Bits &b = a.data[i];
    uint8_t *dst = bytes.data() + i * size_t(es);
    switch (t) {
    case PrimType::F32: std::memcpy(dst, &b.f32, 4); break;
    case PrimType::F64: std::memcpy(dst, &b.f64, 8); break;
    case PrimType::F16: {
      uint16_t h = f16_bits_from_double(double(b.f32));
      std::memcpy(dst, &h, 2);
      break;
    }
    default: std::memcpy(dst, &b.u, size_t(es)); break; // little-endian low bytes
    }
  }
  return bytes;
}

PrimValue unpack_scalar(PrimType t, const uint8_t *src) {
  switch (t) {
  case PrimType::F32: {
    float f;
    std::memcpy(&f, src, 4);
    return PrimValue::floating(t, double(f));
  }
  case PrimType::F64: {
    double d;
    std::memcpy(&d, src, 8);
    return PrimValue::floating(t, d);
  }
  case PrimType::F16: {
    uint16_t h;
    std::memcpy(&h, src, 2);
    return PrimValue::floating(t, double(f16_bits_to_float(h)));
  }
  case PrimType::Bool: return PrimValue::boolean(*src != 0);
  default: {
    uint64_t u = 0;
    std::memcpy(&u, src, size_t(elem_size(t)));
    return PrimValue::unsigned_int(t, u);
  }
  }
}

// Rebuilds a value of type `t` from flattened result leaves.
Value unflatten(const ValueType &t, const std::vector<Value> &leaves, size_t &pos) {
  if (t.kind == ValueType::Prim) return leaves[pos++];
  if (t.elems.empty()) {
    // () and arrays of (): their bool component gives the shape.
    const Value &unit = leaves[pos++];
    if (t.rank == 0) return Value::tuple({});
    return make_tuple_array(unit.shape(), {});
  }
  if (t.rank == 0) {
    std::vector<Value> elems;
    for (const ValueType &e : t.elems) elems.push_back(unflatten(e, leaves, pos));
    return Value::tuple(std::move(elems));
  }
  std::vector<Value> comps;
  for (const ValueType &e : t.elems) {
    ValueType ce = e;
    ce.rank += t.rank;
    comps.push_back(unflatten(ce, leaves, pos));
  }
  std::vector<int64_t> outer(comps[0].shape().begin(), comps[0].shape().begin() + t.rank);
  return make_tuple_array(outer, std::move(comps));
}

// A scalar argument's bytes as the C API reads them (little-endian, its own width).
uint64_t scalar_bytes(const PrimValue &v) {
  switch (v.type) {
  case PrimType::F16: return f16_bits_from_double(double(v.bits.f32));
  case PrimType::F32: {
    uint32_t u;
    std::memcpy(&u, &v.bits.f32, 4);
    return u;
  }
  default: return v.bits.u; // f64 and integers: the union's bits; bool 0 or 1
  }
}

// An entry call's arguments as C API values: scalars by address, arrays made in the
// context (freed with the Arguments).
struct Arguments {
  kerb_context *ctx = nullptr;
  std::vector<uint64_t> scalars;
  std::vector<const void *> ins;
  std::vector<std::pair<const ArrayData *, void *>> arrays;

  Arguments() = default;
  Arguments(const Arguments &) = delete;
  Arguments &operator=(const Arguments &) = delete;
  ~Arguments() { release(); }
  void release() {
    for (auto &[a, h] : arrays)
      kerb_rt_array_free(ctx, int32_t(a->elem.prim), int32_t(a->shape.size()), h);
    arrays.clear();
  }
};

// An entry call's results as C API values: scalars in 8-byte holders, arrays as
// handles (freed with the Results).
struct Results {
  kerb_context *ctx = nullptr;
  std::vector<core::CType> types;
  std::vector<uint64_t> scalars;
  std::vector<void *> arrays;
  std::vector<void *> outs;

  Results(kerb_context *c, const core::Program &core, const core::Function &fn) : ctx(c) {
    for (const core::SubExp &r : fn.body.result) types.push_back(core.type_of(r));
    scalars.assign(types.size(), 0);
    arrays.assign(types.size(), nullptr);
    for (size_t k = 0; k < types.size(); k++)
      outs.push_back(types[k].rank == 0 ? static_cast<void *>(&scalars[k]) : static_cast<void *>(&arrays[k]));
  }
  Results(const Results &) = delete;
  Results &operator=(const Results &) = delete;
  ~Results() { release(); }
  void release() {
    for (size_t k = 0; k < types.size(); k++)
      if (arrays[k]) kerb_rt_array_free(ctx, int32_t(types[k].prim), types[k].rank, arrays[k]);
    std::fill(arrays.begin(), arrays.end(), nullptr);
  }
};

// A program compiled for one device and run through the C API's runtime (as a
// compiled library is), with its descriptor in memory.
class Compiled : public CompiledProgram {
public:
  ~Compiled() override {
    if (ctx_) kerb_context_free(ctx_);
    if (cfg_) kerb_context_config_free(cfg_);
  }

  // Creates the context; throws std::runtime_error if the device cannot be used.
  void start(const char *device, bool sync_checks) {
    cfg_ = kerb_context_config_new();
    if (!cfg_ || kerb_context_config_set_device(cfg_, device) != 0 ||
        kerb_context_config_set_sync_checks(cfg_, sync_checks) != 0)
      throw std::runtime_error("cannot make a context configuration");
    ctx_ = kerb_rt_context_new(cfg_, &desc_->desc);
    if (!ctx_) throw std::runtime_error("out of memory making a context");
    ContextError e = take_context_error(ctx_);
    if (e.code != 0) throw std::runtime_error(e.message);
    description_ = kerb_context_get_device(ctx_);
  }

  RunResult run(const std::string &entry, const std::vector<Value> &args) override {
    int32_t index = function_index(entry);
    Arguments in;
    upload(index, args, in);
    Results out(ctx_, core_, core_.functions[size_t(index)]);
    if (call(index, in, out) != 0) return failed();
    in.release();
    return read_results(index, out);
  }
  std::unique_ptr<TimedCall> prepare_call(const std::string &entry, const std::vector<Value> &args,
                                          bool restore_arguments) override;
  std::string device_description() const override { return description_; }

  int32_t function_index(const std::string &entry) const {
    for (size_t i = 0; i < core_.functions.size(); i++)
      if (core_.functions[i].name == entry) return int32_t(i);
    throw std::invalid_argument("no entry point '" + entry + "'");
  }
  // Makes the arguments of entry `index` in the context.
  void upload(int32_t index, const std::vector<Value> &args, Arguments &in);
  // Calls entry `index`, then syncs (the sync point that ends every call before its
  // results are read). Returns 0, or the C API's error code.
  int call(int32_t index, const Arguments &in, Results &out) {
    int status = enqueue(index, in, out);
    if (status == 0) status = kerb_context_sync(ctx_);
    return status;
  }
  // The entry call alone (asynchronous, as the C API's).
  int enqueue(int32_t index, const Arguments &in, Results &out) {
    return kerb_rt_entry(ctx_, &desc_->desc, index, out.outs.data(), in.ins.data());
  }
  // The error of the last call: a check failure as a RunResult; throws otherwise.
  RunResult failed();
  // Reads the results of a successful call back to the host, and frees them.
  RunResult read_results(int32_t index, Results &out);

  core::Program core_;
  std::unique_ptr<HostJit> jit_;
  std::unique_ptr<JitProgramDesc> desc_;
  kerb_context *ctx_ = nullptr;

private:
  kerb_context_config *cfg_ = nullptr;
  std::string description_;
};

RunResult Compiled::failed() {
  ContextError e = take_context_error(ctx_);
  if (!e.failure) throw std::runtime_error(e.message.empty() ? "the device failed" : e.message);
  RunResult r;
  r.ok = false;
  r.failure = RunFailure{e.failure->kind, e.failure->message, e.failure->location};
  return r;
}

void Compiled::upload(int32_t index, const std::vector<Value> &args, Arguments &in) {
  const core::Function &fn = core_.functions[size_t(index)];
  std::vector<Leaf> leaves;
  std::vector<Value> units;
  for (const Value &a : args) flatten(a, leaves, units);
  if (leaves.size() != fn.params.size())
    throw std::invalid_argument(fmt::format("entry point '{}' expects {} values, got {}", fn.name,
                                            fn.params.size(), leaves.size()));
  in.ctx = ctx_;
  in.scalars.assign(leaves.size(), 0);
  in.ins.assign(leaves.size(), nullptr);
  for (size_t k = 0; k < leaves.size(); k++) {
    const Leaf &l = leaves[k];
    if (!l.is_array) {
      in.scalars[k] = scalar_bytes(l.scalar);
      in.ins[k] = &in.scalars[k];
      continue;
    }
    std::vector<uint8_t> bytes = pack(*l.array);
    void *h = kerb_rt_array_new(ctx_, int32_t(l.array->elem.prim), int32_t(l.array->shape.size()),
                                bytes.data(), l.array->shape.data());
    if (!h) throw std::runtime_error(take_context_error(ctx_).message);
    in.arrays.push_back({l.array, h});
    in.ins[k] = h;
  }
}

RunResult Compiled::read_results(int32_t index, Results &out) {
  const core::Function &fn = core_.functions[size_t(index)];
  std::vector<Value> values;
  for (size_t k = 0; k < out.types.size(); k++) {
    const core::CType &t = out.types[k];
    if (t.rank == 0) {
      uint8_t buf[8];
      std::memcpy(buf, &out.scalars[k], 8);
      values.push_back(Value(unpack_scalar(t.prim, buf)));
      continue;
    }
    const int64_t *dims = kerb_rt_array_shape(ctx_, int32_t(t.prim), t.rank, out.arrays[k]);
    if (!dims) throw std::runtime_error(take_context_error(ctx_).message);
    std::vector<int64_t> shape(dims, dims + t.rank);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<uint8_t> bytes(size_t(n) * size_t(elem_size(t.prim)));
    if (kerb_rt_array_values(ctx_, int32_t(t.prim), t.rank, out.arrays[k], bytes.data()) != 0)
      return failed();
    std::vector<Bits> data(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; i++)
      data[size_t(i)] = unpack_scalar(t.prim, bytes.data() + size_t(i) * size_t(elem_size(t.prim))).bits;
    values.push_back(make_prim_array(t.prim, shape, std::move(data)));
  }
  out.release();
  // Regroup into the entry's results (a tuple result is split).
  std::vector<ValueType> rtypes = fn.result_types;
  if (rtypes.size() == 1 && rtypes[0].kind == ValueType::Tuple && rtypes[0].rank == 0) {
    std::vector<ValueType> split = rtypes[0].elems;
    rtypes = split;
  }
  RunResult result;
  size_t at = 0;
  for (const ValueType &t : rtypes) result.results.push_back(unflatten(t, values, at));
  result.ok = true;
  return result;
}

// An entry call prepared for timing: its arguments are made in the context once (and,
// when the entry may consume them, made again from the host before each run, outside
// the timing); each run frees the previous run's results first, also outside it.
class PreparedCall : public TimedCall {
public:
  PreparedCall(Compiled &c, int32_t index, const std::vector<Value> &args, bool restore)
      : c_(c), index_(index), args_(args), restore_(restore),
        out_(c.ctx_, c.core_, c.core_.functions[size_t(index)]) {
    c_.upload(index_, args_, in_);
  }

  Sample run() override {
    out_.release();
    have_results_ = false;
    if (restore_) {
      in_.release();
      c_.upload(index_, args_, in_);
    }
    int status = 0;
    Sample s;
    auto t0 = std::chrono::steady_clock::now();
    // The device's clock stops after the call's last work, as the hand-written versions'
    // does (bench/cuda/main.cu); the sync and the look at the failure slot that end the
    // call come after it (no device work: the wait's wake-up and the next event's
    // submission would be host latency), and in the wall-clock time.
    s.device_ms = time_on_device(c_.ctx_, [&] { status = c_.enqueue(index_, in_, out_); });
    if (status == 0) status = kerb_context_sync(c_.ctx_);
    s.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (status != 0) {
      RunResult r = c_.failed(); // throws for a device error
      s.ok = false;
      s.failure = r.failure;
      return s;
    }
    s.ok = true;
    have_results_ = true;
    return s;
  }

  RunResult results() override {
    if (!have_results_) throw std::logic_error("no results: the last run did not succeed");
    have_results_ = false;
    return c_.read_results(index_, out_);
  }

  Memory memory() const override {
    ContextMemory m = context_memory(c_.ctx_);
    return Memory{m.fresh_allocations, m.pool_reserved_bytes};
  }

private:
  Compiled &c_;
  int32_t index_;
  std::vector<Value> args_;
  bool restore_;
  Arguments in_;
  Results out_;
  bool have_results_ = false;
};

std::unique_ptr<TimedCall> Compiled::prepare_call(const std::string &entry,
                                                  const std::vector<Value> &args,
                                                  bool restore_arguments) {
  return std::make_unique<PreparedCall>(*this, function_index(entry), args, restore_arguments);
}

void define_runtime_symbols(HostJit &jit) {
  jit.define_symbols({
      {"kerb_rt_alloc", reinterpret_cast<void *>(&kerb_rt_alloc)},
      {"kerb_rt_alloc_readback", reinterpret_cast<void *>(&kerb_rt_alloc_readback)},
      {"kerb_rt_scope_mark", reinterpret_cast<void *>(&kerb_rt_scope_mark)},
      {"kerb_rt_scope_release", reinterpret_cast<void *>(&kerb_rt_scope_release)},
      {"kerb_rt_failure_slot", reinterpret_cast<void *>(&kerb_rt_failure_slot)},
      {"kerb_rt_block_size", reinterpret_cast<void *>(&kerb_rt_block_size)},
      {"kerb_rt_num_blocks", reinterpret_cast<void *>(&kerb_rt_num_blocks)},
      {"kerb_rt_resident_blocks", reinterpret_cast<void *>(&kerb_rt_resident_blocks)},
      {"kerb_rt_launch", reinterpret_cast<void *>(&kerb_rt_launch)},
      {"kerb_rt_read", reinterpret_cast<void *>(&kerb_rt_read)},
      {"kerb_rt_write", reinterpret_cast<void *>(&kerb_rt_write)},
      {"kerb_rt_copy", reinterpret_cast<void *>(&kerb_rt_copy)},
      {"kerb_rt_fill", reinterpret_cast<void *>(&kerb_rt_fill)},
      {"kerb_rt_fail", reinterpret_cast<void *>(&kerb_rt_fail)},
  });
}

// JIT-compiles the host code (and, on the CPU target, the kernels) of `program`.
std::unique_ptr<Compiled> compile_host(const Program &program, const CompileOptions &opts,
                                       Target target, GeneratedProgram &gen) {
  initialize_llvm();
  auto c = std::make_unique<Compiled>();
  c->core_ = lower_checked(program, opts);
  gen = generate_llvm(c->core_, target, opts.gen);
  c->jit_ = HostJit::create();
  define_runtime_symbols(*c->jit_);
  c->jit_->add_module(std::move(gen.host), std::move(gen.host_context));
  return c;
}

std::vector<kerb_host_entry_fn> jit_entries(Compiled &c) {
  std::vector<kerb_host_entry_fn> entries;
  for (const core::Function &f : c.core_.functions)
    entries.push_back(reinterpret_cast<kerb_host_entry_fn>(c.jit_->lookup(entry_symbol(f.name))));
  return entries;
}

} // namespace

core::Program lower_checked(const Program &program, const CompileOptions &opts) {
  core::Program core = lower(program, opts);
  return core;
}

std::unique_ptr<CompiledProgram> compile_for_cpu(const Program &program,
                                                 const CompileOptions &opts) {
  GeneratedProgram gen;
  std::unique_ptr<Compiled> c = compile_host(program, opts, Target::Cpu, gen);
  std::vector<kerb_cpu_kernel_fn> kernels;
  for (const std::string &name : gen.kernel_names)
    kernels.push_back(reinterpret_cast<kerb_cpu_kernel_fn>(c->jit_->lookup(name)));
  c->desc_ = std::make_unique<JitProgramDesc>(program_info(program.file->path, c->core_, gen, ""),
                                              jit_entries(*c), std::move(kernels), true);
  c->start("cpu", opts.sync_checks);
  return c;
}

std::unique_ptr<CompiledProgram> compile_for_cuda(const Program &program,
                                                  const CompileOptions &opts) {
  GeneratedProgram gen;
  std::unique_ptr<Compiled> c = compile_host(program, opts, Target::Cuda, gen);
  std::string ptx = gen.kernel_names.empty() ? "" : emit_ptx(*gen.kernels, opts.sm, opts.fp_contract);
  c->desc_ = std::make_unique<JitProgramDesc>(
      program_info(program.file->path, c->core_, gen, std::move(ptx)), jit_entries(*c),
      std::vector<kerb_cpu_kernel_fn>{}, false);
  c->start("cuda", opts.sync_checks);
  return c;
}

std::string check_report(const Program &program, const CompileOptions &opts) {
  CompileOptions quiet = opts;
  quiet.pipeline.dump = nullptr;
  return format_check_report(lower(program, quiet), opts.pipeline.checks);
}

std::string emit_stage(const Program &program, const std::string &stage,
                       const CompileOptions &opts) {
  core::Program core = lower(program, opts);
  if (stage == "ir") return core::print_program(core);
  if (stage == "kernels") return print_kernels(core, extract_kernels(core, opts.gen));
  initialize_llvm();
  std::string out;
  llvm::raw_string_ostream os(out);
  if (stage == "llvm") {
    GeneratedProgram cpu = generate_llvm(core, Target::Cpu, opts.gen);
    os << "; ---- host code and CPU kernels\n";
    cpu.host->print(os, nullptr);
    GeneratedProgram gpu = generate_llvm(core, Target::Cuda, opts.gen);
    os << "; ---- CUDA kernels\n";
    gpu.kernels->print(os, nullptr);
    return out;
  }
  if (stage == "ptx") {
    GeneratedProgram gpu = generate_llvm(core, Target::Cuda, opts.gen);
    return emit_ptx(*gpu.kernels, opts.sm, opts.fp_contract);
  }
  throw std::invalid_argument("unknown stage '" + stage + "'");
}

} // namespace kerb::codegen
