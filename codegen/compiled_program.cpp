// Compiling a program for the CPU or CUDA device and running its entry points (see
// compiled_program.h).
#include "codegen/compiled_program.h"

#include "codegen/gen_llvm.h"
#include "codegen/llvm_target.h"
#include "compiler/check_sites.h"
#include "compiler/source.h"
#include "runtime/cuda_device.h"
#include "runtime/cuda_exec.h"
#include "runtime/exec_context.h"

#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstring>
#include <functional>

namespace kerb::codegen {

namespace {

std::vector<const FunDef *> entry_points(const Program &program) {
  std::vector<const FunDef *> out;
  for (const auto &d : program.defs)
    if (d->is_entry) out.push_back(d.get());
  if (out.empty())
    if (const FunDef *m = program.find("main")) out.push_back(m);
  return out;
}

core::Program lower(const Program &program, const CompileOptions &opts) {
  return lower_and_check(program, entry_points(program), opts.pipeline);
}

int elem_size(PrimType t) { return t == PrimType::Bool ? 1 : prim_bits(t) / 8; }

// One primitive leaf of a value: a scalar or an array of primitives.
struct Leaf {
  bool is_array = false;
  PrimValue scalar;
  const ArrayData *array = nullptr;
};

void flatten(const Value &v, std::vector<Leaf> &out) {
  switch (v.kind) {
  case Value::Prim: out.push_back(Leaf{false, v.prim, nullptr}); return;
  case Value::Tuple:
    for (const Value &e : v.elems) flatten(e, out);
    return;
  case Value::Array:
    if (v.array->elem.kind == ValueType::Tuple) {
      for (const Value &c : v.array->components) flatten(c, out);
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

// The argument slots of an entry call: a scalar's bits, an array's device address and
// dims. Arrays are uploaded into memory of the current call, or, when `kept` is given,
// into memory that outlives the call, whose addresses and sizes are appended to `kept`.
struct DeviceArray {
  int64_t addr, bytes;
};
std::vector<int64_t> upload_arguments(ExecContext &ctx, const core::Function &fn,
                                      const std::vector<Value> &args,
                                      std::vector<DeviceArray> *kept = nullptr) {
  Device &dev = ctx.device();
  std::vector<Leaf> leaves;
  for (const Value &a : args) flatten(a, leaves);
  if (leaves.size() != fn.params.size())
    throw std::invalid_argument(fmt::format("entry point '{}' expects {} values, got {}", fn.name,
                                            fn.params.size(), leaves.size()));
  std::vector<int64_t> in;
  for (const Leaf &l : leaves) {
    if (!l.is_array) {
      in.push_back(int64_t(l.scalar.bits.u));
      if (l.scalar.type == PrimType::F32) {
        uint32_t u;
        std::memcpy(&u, &l.scalar.bits.f32, 4);
        in.back() = int64_t(u);
      }
      continue;
    }
    std::vector<uint8_t> bytes = pack(*l.array);
    int64_t addr = 0;
    if (kept) {
      addr = dev.alloc(std::max<int64_t>(1, int64_t(bytes.size())));
      kept->push_back(DeviceArray{addr, int64_t(bytes.size())});
    } else {
      addr = ctx.alloc(int64_t(bytes.size()));
      if (!addr) throw std::runtime_error(ctx.error);
    }
    dev.write(addr, bytes.data(), int64_t(bytes.size()));
    in.push_back(addr);
    for (int64_t d : l.array->shape) in.push_back(d);
  }
  return in;
}

// The number of result slots of an entry (a scalar is one, an array its address and
// dims), plus one.
size_t result_slot_count(const core::Program &core, const core::Function &fn) {
  size_t nout = 0;
  for (const core::SubExp &r : fn.body.result) nout += 1 + size_t(core.type_of(r).rank);
  return nout + 1;
}

// Calls an entry point's host function, then looks at the failure slot: the sync point
// that ends every call before its results are read. Returns 0, or non-zero with
// ctx.failure (a failed check) or ctx.error (a device error) set.
int32_t call_entry(ExecContext &ctx, void *host_fn, const std::vector<int64_t> &in,
                   std::vector<int64_t> &out) {
  using EntryFn = int32_t (*)(void *, const int64_t *, int64_t *);
  EntryFn f = reinterpret_cast<EntryFn>(host_fn);
  ctx.failure.reset();
  ctx.error.clear();
  if (int32_t status = f(&ctx, in.data(), out.data())) return status;
  return ctx.sync_check();
}

// The result of a call that returned non-zero: its failure, after freeing the call's
// memory. Throws std::runtime_error for a device error.
RunResult failed_call(ExecContext &ctx) {
  ctx.end_call();
  if (!ctx.failure) throw std::runtime_error(ctx.error.empty() ? "the device failed" : ctx.error);
  RunResult result;
  result.ok = false;
  result.failure = RunFailure{ctx.failure->kind, ctx.failure->message, ctx.failure->location};
  return result;
}

// Reads the results of a successful call back to the host, then frees the call's memory.
RunResult read_results(ExecContext &ctx, const core::Program &core, const core::Function &fn,
                       const std::vector<int64_t> &out) {
  std::vector<Value> values;
  size_t pos = 0;
  for (const core::SubExp &r : fn.body.result) {
    core::CType t = core.type_of(r);
    if (t.rank == 0) {
      uint8_t buf[8];
      std::memcpy(buf, &out[pos++], 8);
      values.push_back(Value(unpack_scalar(t.prim, buf)));
      continue;
    }
    int64_t addr = out[pos++];
    std::vector<int64_t> shape(out.begin() + long(pos), out.begin() + long(pos) + t.rank);
    pos += size_t(t.rank);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<uint8_t> bytes(size_t(n) * size_t(elem_size(t.prim)));
    ctx.read_result(bytes.data(), addr, int64_t(bytes.size()));
    std::vector<Bits> data(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; i++)
      data[size_t(i)] = unpack_scalar(t.prim, bytes.data() + size_t(i) * size_t(elem_size(t.prim))).bits;
    values.push_back(make_prim_array(t.prim, shape, std::move(data)));
  }
  ctx.end_call();
  // Regroup into the entry's results (a tuple result is split).
  std::vector<ValueType> types = fn.result_types;
  if (types.size() == 1 && types[0].kind == ValueType::Tuple && types[0].rank == 0) {
    std::vector<ValueType> split = types[0].elems;
    types = split;
  }
  RunResult result;
  size_t at = 0;
  for (const ValueType &t : types) result.results.push_back(unflatten(t, values, at));
  result.ok = true;
  return result;
}

// Runs one entry point's host function in an ExecContext.
RunResult run_entry(ExecContext &ctx, const core::Program &core, const core::Function &fn,
                    void *host_fn, const std::vector<Value> &args) {
  std::vector<int64_t> in = upload_arguments(ctx, fn, args);
  std::vector<int64_t> out(result_slot_count(core, fn));
  if (call_entry(ctx, host_fn, in, out) != 0) return failed_call(ctx);
  return read_results(ctx, core, fn, out);
}

void define_runtime_symbols(HostJit &jit) {
  jit.define_symbols({
      {"kerb_rt_alloc", reinterpret_cast<void *>(&kerb_rt_alloc)},
      {"kerb_rt_failure_slot", reinterpret_cast<void *>(&kerb_rt_failure_slot)},
      {"kerb_rt_block_size", reinterpret_cast<void *>(&kerb_rt_block_size)},
      {"kerb_rt_num_blocks", reinterpret_cast<void *>(&kerb_rt_num_blocks)},
      {"kerb_rt_launch", reinterpret_cast<void *>(&kerb_rt_launch)},
      {"kerb_rt_read", reinterpret_cast<void *>(&kerb_rt_read)},
      {"kerb_rt_write", reinterpret_cast<void *>(&kerb_rt_write)},
      {"kerb_rt_copy", reinterpret_cast<void *>(&kerb_rt_copy)},
      {"kerb_rt_fail", reinterpret_cast<void *>(&kerb_rt_fail)},
  });
}

class Compiled : public CompiledProgram {
public:
  RunResult run(const std::string &entry, const std::vector<Value> &args) override {
    size_t i = function_index(entry);
    return run_entry(*ctx_, core_, core_.functions[i], entries_[i], args);
  }
  std::unique_ptr<TimedCall> prepare_call(const std::string &entry, const std::vector<Value> &args,
                                          bool restore_arguments) override;
  std::string device_description() const override { return device_->describe(); }

  size_t function_index(const std::string &entry) const {
    for (size_t i = 0; i < core_.functions.size(); i++)
      if (core_.functions[i].name == entry) return i;
    throw std::invalid_argument("no entry point '" + entry + "'");
  }

  core::Program core_;
  std::unique_ptr<HostJit> jit_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<ExecContext> ctx_;
  std::vector<void *> entries_;
  // Times `work` on the device's clock, in milliseconds: CUDA events around it on the
  // program's stream, or a steady clock for the CPU device (whose launches are
  // synchronous).
  std::function<double(const std::function<void()> &)> time_ms_;
};

double steady_ms(const std::function<void()> &work) {
  auto t0 = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// An entry call prepared for timing: its arguments live in device memory of their own
// (uploaded once, and restored from a pristine copy before each run when the entry may
// consume them); each run frees the previous run's memory first, outside the timing.
class PreparedCall : public TimedCall {
public:
  PreparedCall(Compiled &c, size_t index, const std::vector<Value> &args, bool restore)
      : c_(c), fn_(c.core_.functions[index]), host_fn_(c.entries_[index]) {
    ExecContext &ctx = *c_.ctx_;
    ctx.end_call();
    try {
      in_ = upload_arguments(ctx, fn_, args, &kept_);
      if (restore)
        for (const DeviceArray &a : kept_) {
          int64_t copy = c_.device_->alloc(std::max<int64_t>(1, a.bytes));
          pristine_.push_back(DeviceArray{copy, a.bytes});
          c_.device_->copy(copy, a.addr, a.bytes);
        }
    } catch (...) {
      release();
      throw;
    }
    out_.resize(result_slot_count(c_.core_, fn_));
  }
  ~PreparedCall() override {
    try {
      c_.ctx_->end_call();
    } catch (...) {
      // Never throw from a destructor.
    }
    release();
  }

  Sample run() override {
    ExecContext &ctx = *c_.ctx_;
    ctx.end_call();
    have_results_ = false;
    for (size_t k = 0; k < pristine_.size(); k++)
      c_.device_->copy(kept_[k].addr, pristine_[k].addr, kept_[k].bytes);
    int32_t status = 0;
    Sample s;
    auto t0 = std::chrono::steady_clock::now();
    s.device_ms = c_.time_ms_([&] { status = call_entry(ctx, host_fn_, in_, out_); });
    s.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (status != 0) {
      RunResult r = failed_call(ctx); // throws for a device error
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
    return read_results(*c_.ctx_, c_.core_, fn_, out_);
  }

private:
  void release() {
    for (const DeviceArray &a : pristine_) c_.device_->free(a.addr);
    for (const DeviceArray &a : kept_) c_.device_->free(a.addr);
    pristine_.clear();
    kept_.clear();
  }

  Compiled &c_;
  const core::Function &fn_;
  void *host_fn_;
  std::vector<int64_t> in_, out_;
  std::vector<DeviceArray> kept_;     // the arguments' arrays
  std::vector<DeviceArray> pristine_; // their copies, when the entry may consume them
  bool have_results_ = false;
};

std::unique_ptr<TimedCall> Compiled::prepare_call(const std::string &entry,
                                                  const std::vector<Value> &args,
                                                  bool restore_arguments) {
  return std::make_unique<PreparedCall>(*this, function_index(entry), args, restore_arguments);
}

// Whether a value type holds an array of empty tuples (`[]()`), whose length the
// flattened form cannot carry.
bool has_unit_array(const ValueType &t) {
  if (t.kind != ValueType::Tuple) return false;
  if (t.rank > 0 && t.elems.empty()) return true;
  for (const ValueType &e : t.elems)
    if (has_unit_array(e)) return true;
  return false;
}

std::unique_ptr<Compiled> compile_host(const Program &program, const CompileOptions &opts,
                                       Target target, GeneratedProgram &gen) {
  initialize_llvm();
  auto c = std::make_unique<Compiled>();
  c->core_ = lower(program, opts);
  for (const core::Function &f : c->core_.functions) {
    std::vector<ValueType> types = f.param_types;
    types.insert(types.end(), f.result_types.begin(), f.result_types.end());
    for (const ValueType &t : types)
      if (has_unit_array(t)) {
        const FunDef *d = program.find(f.name);
        error_at(d ? d->name_span : Span{program.file.get(), 0, 0},
                 "the code generator does not support arrays of () as entry parameters or "
                 "results yet");
      }
  }
  gen = generate_llvm(c->core_, target);
  c->jit_ = HostJit::create();
  define_runtime_symbols(*c->jit_);
  c->jit_->add_module(std::move(gen.host), std::move(gen.host_context));
  for (const core::Function &f : c->core_.functions)
    c->entries_.push_back(c->jit_->lookup(entry_symbol(f.name)));
  return c;
}

} // namespace

std::unique_ptr<CompiledProgram> compile_for_cpu(const Program &program,
                                                 const CompileOptions &opts) {
  GeneratedProgram gen;
  std::unique_ptr<Compiled> c = compile_host(program, opts, Target::Cpu, gen);
  std::vector<CpuKernelFn> kernels;
  for (const std::string &name : gen.kernel_names)
    kernels.push_back(reinterpret_cast<CpuKernelFn>(c->jit_->lookup(name)));
  c->device_ = make_cpu_device(std::move(kernels), gen.kernel_descs);
  c->ctx_ = std::make_unique<ExecContext>(*c->device_, c->core_.failures);
  c->time_ms_ = steady_ms;
  return c;
}

std::unique_ptr<CompiledProgram> compile_for_cuda(const Program &program,
                                                  const CompileOptions &opts,
                                                  CudaDevice &device) {
  GeneratedProgram gen;
  std::unique_ptr<Compiled> c = compile_host(program, opts, Target::Cuda, gen);
  std::string ptx = gen.kernel_names.empty() ? "" : emit_ptx(*gen.kernels, opts.sm);
  c->device_ = make_cuda_exec_device(device, ptx, gen.kernel_names, gen.kernel_descs);
  c->ctx_ = std::make_unique<ExecContext>(*c->device_, c->core_.failures);
  c->time_ms_ = [&device](const std::function<void()> &work) { return double(device.time_ms(work)); };
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
  initialize_llvm();
  std::string out;
  llvm::raw_string_ostream os(out);
  if (stage == "llvm") {
    GeneratedProgram cpu = generate_llvm(core, Target::Cpu);
    os << "; ---- host code and CPU kernels\n";
    cpu.host->print(os, nullptr);
    GeneratedProgram gpu = generate_llvm(core, Target::Cuda);
    os << "; ---- CUDA kernels\n";
    gpu.kernels->print(os, nullptr);
    return out;
  }
  if (stage == "ptx") {
    GeneratedProgram gpu = generate_llvm(core, Target::Cuda);
    return emit_ptx(*gpu.kernels, opts.sm);
  }
  throw std::invalid_argument("unknown stage '" + stage + "'");
}

} // namespace kerb::codegen
