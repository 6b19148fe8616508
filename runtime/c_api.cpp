// The C API of include/kerb/kerb.h and the functions that a compiled program's
// generated API forwards to (runtime/program_abi.h).
//
// Handles are never pointers into memory the user could have freed: a handle is a
// number, looked up in a process-wide registry (one mutex). A freed handle, one of
// another context, one of the wrong type or NULL is found out and reported with a
// message, never dereferenced. Array handles share reference-counted device buffers,
// so an entry that returns its input (or the same array twice) gives independent
// handles that are each freed once, as in Futhark.
//
// Opaque values (records, arrays of records, abstract and sum types:
// compiler/entry_types.h) are handles too, each holding the slots of its type: scalars'
// bits and arrays that share buffers as array handles do. An entry's C signature
// (EntrySig::ins, outs) says which of its parameters and results are opaque; a call
// lends their slots to the host code, which sees the flattened slots only, and gathers
// opaque results from the slots it returns. `new` and `project` copy slots, sharing the
// buffers.
//
// A failure found at a sync point happened in one of the calls since the last clean
// look (ExecContext::failure_window): the arrays those calls returned hold garbage, so
// they are marked (and the opaque values holding them), and reading them or passing
// them to an entry is refused.
//
// Arrays also cross to and from other libraries without a copy, through DLPack (Note
// [Arrays lent through DLPack]), and a CUDA context may queue its work on a stream of
// theirs (kerb_context_set_cuda_stream).
#include "runtime/context.h"
#include "runtime/cuda_exec.h"
#include "runtime/dlpack.h"
#include "runtime/program_abi.h"
#include "runtime/value.h"

#include "kerb/kerb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace kerb {

namespace {

enum class DeviceChoice { Default, Cpu, Cuda };

struct Config {
  DeviceChoice device = DeviceChoice::Default;
  int ordinal = 0;
  bool sync_checks = false;
};

struct SlotType {
  PrimType prim = PrimType::I32;
  int rank = 0;
};

std::string type_text(PrimType prim, int rank) {
  std::string s;
  for (int i = 0; i < rank; i++) s += "[]";
  return s + prim_name(prim);
}

// Parameter `j`'s first `dims` dims must equal parameter `i`'s (components of one
// array of tuples).
struct SharedDims {
  size_t j = 0, i = 0;
  int dims = 0;
};

// One value of a C signature (program_abi.h): a slot (-1) or an opaque type's number.
using ValueList = std::vector<int>;

struct EntrySig {
  std::string name;
  std::vector<SlotType> params, results;
  std::vector<SharedDims> shared;
  // The C signature over the slots; without one, or with no opaque value in it
  // (has_values false), a value per slot.
  bool has_values = false;
  ValueList ins, outs;
};

// An opaque type of the program (compiler/entry_types.h).
struct OpaqueSig {
  std::string name; // the C name: kerb_opaque_<name>
  char kind = 'a';  // r: a record, a: abstract, s: a sum
  int rank = 0;     // the outer dims all slots share
  std::vector<SlotType> slots;
  struct Field {
    std::string name;
    ValueList values;
    size_t first = 0, count = 0; // its slots
  };
  std::vector<Field> fields;
};

bool parse_shared(const std::string &text, const std::vector<SlotType> &params,
                  std::vector<SharedDims> &out) {
  if (text.empty()) return true;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    SharedDims d;
    unsigned long j = 0, i = 0;
    int dims = 0, used = 0;
    if (std::sscanf(item.c_str(), "%lu=%lu:%d%n", &j, &i, &dims, &used) != 3 ||
        size_t(used) != item.size())
      return false;
    d.j = j;
    d.i = i;
    d.dims = dims;
    if (d.j >= params.size() || d.i >= params.size() || d.dims < 1 ||
        d.dims > params[d.j].rank || d.dims > params[d.i].rank)
      return false;
    out.push_back(d);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// Device memory shared by the arrays that view it: the context's, or lent by another
// library (release non-null: called with release_arg to give it back).
struct Buffer {
  Allocation alloc;
  int refs = 1;
  void (*release)(void *) = nullptr;
  void *release_arg = nullptr;
};

struct ArrayObj {
  uint64_t ctx = 0; // the owning context's id
  PrimType prim = PrimType::I32;
  int rank = 0;
  std::vector<int64_t> shape;
  Buffer *buffer = nullptr; // null for an empty array
  int64_t addr = 0;         // the first element (possibly inside the buffer)
  uint64_t produced_by = 0; // the entry call that returned it; 0: made by kerb_new_*
  bool poisoned = false;    // returned by a call that failed
  int64_t elements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

// One slot of an opaque value: a scalar's bits, or an array (not a handle of its own:
// it shares its buffer as a handle does).
struct SlotValue {
  uint64_t bits = 0;
  std::unique_ptr<ArrayObj> array;
};

// An opaque value (kerb_opaque_T): the slots of its type, in order.
struct OpaqueObj {
  uint64_t ctx = 0;
  int type = 0;
  std::vector<SlotValue> slots;
  bool poisoned = false; // an array of it was returned by a call that failed
};

struct Context;

struct Registry {
  std::mutex mutex;
  uint64_t next = 0x10001; // handles are these numbers; small integers are never valid
  std::unordered_map<uint64_t, std::unique_ptr<Config>> configs;
  // Shared: an array lent out through DLPack keeps its context (Note [Arrays lent
  // through DLPack]).
  std::unordered_map<uint64_t, std::shared_ptr<Context>> contexts;
  std::unordered_map<uint64_t, std::unique_ptr<ArrayObj>> arrays;
  std::unordered_map<uint64_t, std::unique_ptr<OpaqueObj>> opaques;
};

Registry &registry() {
  static Registry *r = new Registry(); // never destroyed: handles may outlive main()
  return *r;
}

uint64_t handle_id(const void *h) { return uint64_t(reinterpret_cast<uintptr_t>(h)); }
template <typename T> T *as_handle(uint64_t id) { return reinterpret_cast<T *>(uintptr_t(id)); }

// The error of the last call on this thread that had no live context to keep it in.
thread_local std::string orphan_error;

int prim_size(PrimType t) { return t == PrimType::Bool ? 1 : prim_bits(t) / 8; }

bool parse_slot(const std::string &text, SlotType &out) {
  size_t us = text.rfind('_');
  if (us == std::string::npos || text.size() < us + 3 || text.back() != 'd') return false;
  if (!prim_from_name(text.substr(0, us), out.prim)) return false;
  std::string r = text.substr(us + 1, text.size() - us - 2);
  if (r.empty() || r.size() > 2 || r.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out.rank = std::stoi(r);
  return true;
}

bool parse_slots(const std::string &text, std::vector<SlotType> &out) {
  if (text.empty()) return true;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    SlotType t;
    if (!parse_slot(text.substr(start, comma == std::string::npos ? comma : comma - start), t))
      return false;
    out.push_back(t);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// "s,o1,s": a value list, each of `num_types` opaque types or a slot.
bool parse_values(const std::string &text, size_t num_types, ValueList &out) {
  if (text.empty()) return true;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item == "s") {
      out.push_back(-1);
    } else {
      if (item.size() < 2 || item.size() > 7 || item[0] != 'o' ||
          item.find_first_not_of("0123456789", 1) != std::string::npos)
        return false;
      size_t k = std::stoul(item.substr(1));
      if (k >= num_types) return false;
      out.push_back(int(k));
    }
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// The slots `values` take, appended to `out` (false if an opaque type is not known yet).
bool value_slots(const std::vector<OpaqueSig> &types, const ValueList &values, const std::vector<SlotType> *slots,
                 size_t &at, std::vector<SlotType> &out) {
  for (int v : values) {
    if (v < 0) {
      if (!slots || at >= slots->size()) return false;
      out.push_back((*slots)[at++]);
      continue;
    }
    if (size_t(v) >= types.size()) return false;
    for (const SlotType &t : types[size_t(v)].slots) {
      out.push_back(t);
      at++;
    }
  }
  return true;
}

bool same_slots(const std::vector<SlotType> &a, const std::vector<SlotType> &b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); k++)
    if (a[k].prim != b[k].prim || a[k].rank != b[k].rank) return false;
  return true;
}

// An opaque type's description "NAME;KIND;RANK;SLOTS[;FIELD=VALUES]..." (program_abi.h),
// its fields' opaque types among `types` (the ones before it).
bool parse_opaque(const std::string &text, const std::vector<OpaqueSig> &types, OpaqueSig &out) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t semi = text.find(';', start);
    parts.push_back(text.substr(start, semi == std::string::npos ? semi : semi - start));
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  if (parts.size() < 4 || parts[0].empty() || parts[1].size() != 1 ||
      std::string("ras").find(parts[1][0]) == std::string::npos || parts[2].empty() || parts[2].size() > 2 ||
      parts[2].find_first_not_of("0123456789") != std::string::npos || !parse_slots(parts[3], out.slots))
    return false;
  out.name = parts[0];
  out.kind = parts[1][0];
  out.rank = std::stoi(parts[2]);
  for (const SlotType &t : out.slots)
    if (t.rank < out.rank) return false;
  if ((out.kind == 'r') != (parts.size() > 4)) return false;
  size_t at = 0;
  for (size_t k = 4; k < parts.size(); k++) {
    size_t eq = parts[k].find('=');
    if (eq == std::string::npos || eq == 0) return false;
    OpaqueSig::Field f;
    f.name = parts[k].substr(0, eq);
    if (!parse_values(parts[k].substr(eq + 1), types.size(), f.values)) return false;
    std::vector<SlotType> covered;
    f.first = at;
    if (!value_slots(types, f.values, &out.slots, at, covered)) return false;
    f.count = covered.size();
    std::vector<SlotType> own(out.slots.begin() + long(f.first), out.slots.begin() + long(std::min(at, out.slots.size())));
    if (at > out.slots.size() || !same_slots(covered, own)) return false;
    out.fields.push_back(std::move(f));
  }
  return out.kind != 'r' || at == out.slots.size();
}

struct Context {
  uint64_t id = 0;
  const kerb_program_desc *program = nullptr;
  std::string start_error; // non-empty: the context did not start
  FailureTable table;
  std::vector<EntrySig> entries;
  const kerb_target_code *code = nullptr;
  // Destroyed in reverse: exec before device before cuda.
  std::unique_ptr<CudaDevice> cuda;
  std::unique_ptr<Device> device;
  std::unique_ptr<ExecContext> exec;
  std::string device_name;
  std::unordered_set<uint64_t> arrays; // ids of the live arrays made in this context
  std::unordered_set<uint64_t> opaques; // and of its live opaque values
  std::vector<OpaqueSig> opaque_types;

  // Memory lent to the context, to give back once the work queued before the last use
  // has finished (CUDA: the event; the CPU device's work is done when a call returns).
  struct GiveBack {
    void (*release)(void *);
    void *arg;
    CUevent done;
  };
  std::deque<GiveBack> give_back;
  // While set (kerb_call_dlpack letting go of a call's arguments at once), memory given
  // back shares one event: no work is queued in between. Entries that share an event are
  // consecutive, and the last of them recycles it.
  bool share_event = false;
  CUevent shared_event = nullptr;
  // Buffers the context lent out that their borrower has dropped (from any thread),
  // each with the stream the borrower used them on (-1: none); under drop_mutex, as is
  // `closed` (kerb_context_free ran: a borrower dropping memory frees it itself).
  std::mutex drop_mutex;
  std::vector<std::pair<Buffer *, int64_t>> dropped;
  bool closed = false;
  // Streams that live as long as the context (kerb_context_lasting_cuda_stream: JAX's,
  // say), which drop_lent may name after an export; under drop_mutex.
  std::vector<CUstream> lasting;
  int64_t lent_out = 0; // buffers lent out and not dropped yet

  void give_back_later(void (*release)(void *), void *arg);
  std::atomic<bool> has_dropped{false};
  bool dropped_empty() const { return !has_dropped.load(std::memory_order_acquire); }
  // Gives back the lent memory whose work has finished (all: waits for the device
  // first), and frees what borrowers dropped. Called at the start of every call.
  void tidy(bool all = false);

  // The last error, for kerb_context_get_error (poll_error may set it from any thread).
  std::mutex error_mutex;
  ContextError last_error;

  int set_error(int code, std::string message, std::optional<Failure> failure = std::nullopt) {
    std::lock_guard<std::mutex> lock(error_mutex);
    last_error.code = code;
    last_error.message = std::move(message);
    last_error.failure = std::move(failure);
    return code;
  }

  ~Context() {
    // The last borrower of an array lent out let go after kerb_context_free.
    try {
      if (exec) tidy(true);
    } catch (...) {
      // Never throw from a destructor.
    }
  }

  void start(const Config &cfg, const kerb_program_desc *prog);
  bool started() const { return start_error.empty(); }
  // The status of a failed ExecContext operation, recorded as the context's error.
  int exec_status(const std::string &fn);
  // given (null, or one per parameter): arrays to take as they are instead of looking up
  // ins' handles (kerb_call_dlpack's views, which are never handles).
  // c_index (null, or one per parameter): the number of the C argument each parameter is
  // part of, for messages.
  int call(const std::string &fn, int32_t entry, void *const *outs, const void *const *ins,
           ArrayObj *const *given = nullptr, const size_t *c_index = nullptr);
  // A call through the entry's C signature (opaque values in and out).
  int call_values(const std::string &fn, int32_t entry, void *const *outs, const void *const *ins);
};

void Context::start(const Config &cfg, const kerb_program_desc *prog) {
  program = prog;
  if (!prog) throw DeviceError("the program descriptor is NULL");
  if (prog->abi_version != KERB_PROGRAM_ABI_VERSION)
    throw DeviceError(fmt::format(
        "the program was compiled by another version of kerb (program interface {}, this "
        "runtime's {}); compile it again with the kerb whose runtime you link",
        prog->abi_version, KERB_PROGRAM_ABI_VERSION));
  std::string name = prog->name ? prog->name : "the program";
  if (!table.deserialize(std::string(prog->failure_table, prog->failure_table_size)))
    throw DeviceError(fmt::format("{}: its failure table is malformed", name));
  for (uint32_t i = 0; i < prog->num_entries; i++) {
    EntrySig e;
    e.name = prog->entry_names[i];
    std::string sig = prog->entry_signatures[i];
    size_t arrow = sig.find("->"), bar = sig.find('|');
    std::string results = arrow == std::string::npos ? "" : sig.substr(arrow + 2, bar == std::string::npos ? bar : bar - arrow - 2);
    if (arrow == std::string::npos || (bar != std::string::npos && bar < arrow) ||
        !parse_slots(sig.substr(0, arrow), e.params) || !parse_slots(results, e.results) ||
        !parse_shared(bar == std::string::npos ? "" : sig.substr(bar + 1), e.params, e.shared))
      throw DeviceError(fmt::format("{}: malformed signature '{}' of entry '{}'", name, sig, e.name));
    entries.push_back(std::move(e));
  }
  // Opaque types refer only to the ones before them (fields of records).
  for (uint32_t i = 0; i < prog->num_opaque_types; i++) {
    OpaqueSig o;
    const char *text = prog->opaque_types ? prog->opaque_types[i] : nullptr;
    if (!text || !parse_opaque(text, opaque_types, o))
      throw DeviceError(fmt::format("{}: malformed opaque type '{}'", name, text ? text : "(null)"));
    opaque_types.push_back(std::move(o));
  }
  for (uint32_t i = 0; prog->entry_interfaces && i < prog->num_entries; i++) {
    const char *text = prog->entry_interfaces[i];
    if (!text) continue;
    EntrySig &e = entries[i];
    std::string sig = text;
    size_t arrow = sig.find("->");
    std::vector<SlotType> ins, outs;
    size_t at_in = 0, at_out = 0;
    if (arrow == std::string::npos || !parse_values(sig.substr(0, arrow), opaque_types.size(), e.ins) ||
        !parse_values(sig.substr(arrow + 2), opaque_types.size(), e.outs) ||
        !value_slots(opaque_types, e.ins, &e.params, at_in, ins) ||
        !value_slots(opaque_types, e.outs, &e.results, at_out, outs) || !same_slots(ins, e.params) ||
        !same_slots(outs, e.results))
      throw DeviceError(fmt::format("{}: malformed C signature '{}' of entry '{}'", name, sig, e.name));
    // One value per slot needs no translation.
    e.has_values = std::any_of(e.ins.begin(), e.ins.end(), [](int v) { return v >= 0; }) ||
                   std::any_of(e.outs.begin(), e.outs.end(), [](int v) { return v >= 0; });
  }
  std::vector<KernelDesc> descs;
  std::vector<std::string> names;
  for (uint32_t k = 0; k < prog->num_kernels; k++) {
    KernelDesc d;
    // (kind | block threads << 8 | max blocks an SM << 24: codegen/program_desc.cpp)
    const uint32_t *info = prog->kernel_info + 3 * k;
    d.kind = (info[0] & 0xff) == 0 ? KernelDesc::Threads : KernelDesc::Blocks;
    d.block_threads = (info[0] >> 8) & 0xffff;
    d.max_blocks_per_sm = info[0] >> 24;
    d.shared_bytes_per_thread = info[1];
    d.rows_slot = info[2];
    descs.push_back(d);
    names.push_back(prog->kernel_names[k]);
  }

  DeviceChoice choice = cfg.device;
  std::string cuda_why;
  if (choice != DeviceChoice::Cpu && prog->cuda) {
    cuda = CudaDevice::open(cfg.ordinal, &cuda_why);
    if (cuda) choice = DeviceChoice::Cuda;
  } else if (choice != DeviceChoice::Cpu) {
    cuda_why = fmt::format("{} was compiled without code for the cuda device", name);
  }
  if (!cuda && cfg.device == DeviceChoice::Cuda)
    throw DeviceError(fmt::format("the cuda device is not available: {}", cuda_why));
  if (cuda) {
    code = prog->cuda;
    device = make_cuda_exec_device(*cuda, prog->ptx ? prog->ptx : "", names, descs);
  } else {
    if (!prog->cpu)
      throw DeviceError(fmt::format("{} was compiled without code for the cpu device{}", name,
                                    cuda_why.empty() ? "" : " (and cuda: " + cuda_why + ")"));
    code = prog->cpu;
    std::vector<CpuKernelFn> kernels;
    for (uint32_t k = 0; k < prog->num_kernels; k++) kernels.push_back(prog->cpu->kernels[k]);
    device = make_cpu_device(std::move(kernels), descs);
  }
  exec = std::make_unique<ExecContext>(*device, table);
  exec->sync_checks = cfg.sync_checks;
  device_name = device->describe();
}

// CUDA's per-thread default stream (CU_STREAM_PER_THREAD), never destroyed.
const CUstream kPerThreadStream = reinterpret_cast<CUstream>(uintptr_t(2));

// CU_STREAM_LEGACY (1, as DLPack also writes it) is the NULL stream: one spelling, so
// that the same stream compares equal.
CUstream legacy_as_null(void *stream) {
  return reinterpret_cast<uintptr_t>(stream) == 1 ? nullptr : static_cast<CUstream>(stream);
}

// Frees buffers that the borrowers of arrays lent out dropped, each with the stream
// `consumer` its borrower used it on, after the work queued on those streams (Note
// [Arrays lent through DLPack]): the legacy and the per-thread default streams and the
// streams declared lasting (`lasting`, the context's list, read under drop_mutex) are
// waited for, an event each; the context's stream needs no wait; any other stream may
// have been destroyed since the export, so it is never named: one wait for the whole
// device covers them all.
void release_buffer(Context &c, Buffer *b);
void drop_lent(Context &c, const std::vector<std::pair<Buffer *, int64_t>> &dropped,
               const std::vector<CUstream> &lasting) {
  if (c.cuda) {
    bool other = false;
    std::vector<CUstream> wait;
    for (auto [b, consumer] : dropped) {
      if (consumer == -1) continue;
      CUstream s = legacy_as_null(reinterpret_cast<void *>(uintptr_t(consumer)));
      if (s == c.cuda->stream()) continue;
      bool named = s == nullptr || s == kPerThreadStream || std::find(lasting.begin(), lasting.end(), s) != lasting.end();
      if (!named) other = true;
      else if (std::find(wait.begin(), wait.end(), s) == wait.end()) wait.push_back(s);
    }
    if (other) c.cuda->synchronize_all();
    else
      for (CUstream s : wait) c.cuda->wait_for_stream(s);
  }
  for (auto [b, consumer] : dropped) release_buffer(c, b);
}

void Context::give_back_later(void (*release)(void *), void *arg) {
  if (!cuda) {
    release(arg);
    return;
  }
  CUevent e = share_event && shared_event ? shared_event : cuda->record_event();
  if (share_event) shared_event = e;
  give_back.push_back(GiveBack{release, arg, e});
}

void Context::tidy(bool all) {
  if (!dropped_empty()) {
    std::vector<std::pair<Buffer *, int64_t>> d;
    std::vector<CUstream> l;
    {
      std::lock_guard<std::mutex> lock(drop_mutex);
      has_dropped.store(false, std::memory_order_release);
      d.swap(dropped);
      l = lasting;
    }
    drop_lent(*this, d, l);
  }
  if (give_back.empty()) return;
  if (all) device->synchronize();
  while (!give_back.empty() && (all || cuda->event_done(give_back.front().done))) {
    GiveBack g = give_back.front();
    give_back.pop_front();
    if (give_back.empty() || give_back.front().done != g.done) cuda->recycle_event(g.done);
    g.release(g.arg);
  }
}

// Marks the arrays that calls in the failure window returned.
void poison_window(Context &c) {
  // (Not a structured binding: clang 14, the fuzz build's compiler, cannot capture one.)
  const auto window = c.exec->failure_window();
  const auto first = window.first, last = window.second;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto in_window = [&](const ArrayObj &a) { return a.produced_by >= first && a.produced_by <= last; };
  for (uint64_t id : c.arrays) {
    ArrayObj &a = *r.arrays.at(id);
    if (in_window(a)) a.poisoned = true;
  }
  for (uint64_t id : c.opaques)
    for (SlotValue &v : r.opaques.at(id)->slots)
      if (v.array && in_window(*v.array)) r.opaques.at(id)->poisoned = true;
}

int Context::exec_status(const std::string &fn) {
  if (exec->failure) {
    poison_window(*this);
    return set_error(KERB_PROGRAM_ERROR, exec->failure->text(), exec->failure);
  }
  int code = exec->out_of_memory ? KERB_OUT_OF_MEMORY : KERB_ERROR;
  return set_error(code, fmt::format("{}: {}", fn, exec->error.empty() ? "the device failed" : exec->error));
}

// ---- handle lookup (each reports misuse itself)

int usage(Context *c, std::string message) {
  if (c) return c->set_error(KERB_USAGE_ERROR, std::move(message));
  orphan_error = std::move(message);
  return KERB_USAGE_ERROR;
}

Context *find_context(kerb_context *h, const std::string &fn) {
  Registry &r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.contexts.find(handle_id(h));
    if (it != r.contexts.end()) return it->second.get();
  }
  usage(nullptr, h ? fmt::format("{}: the context is not alive (freed already, or not a "
                                 "context)",
                                 fn)
                   : fmt::format("{}: the context is NULL", fn));
  return nullptr;
}

// A started context, or null with the error recorded and its code in *status.
Context *started_context(kerb_context *h, const std::string &fn, int *status = nullptr) {
  Context *c = find_context(h, fn);
  if (status) *status = c ? KERB_ERROR : KERB_USAGE_ERROR;
  if (c && !c->started()) {
    c->set_error(KERB_ERROR, fmt::format("{}: the context did not start: {}", fn, c->start_error));
    return nullptr;
  }
  return c;
}

ArrayObj *find_array(Context &c, const void *h, PrimType prim, int rank, const std::string &fn,
                     const std::string &what) {
  if (!h) {
    usage(&c, fmt::format("{}: {} is NULL", fn, what));
    return nullptr;
  }
  Registry &r = registry();
  ArrayObj *a = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.arrays.find(handle_id(h));
    if (it != r.arrays.end()) a = it->second.get();
  }
  if (!a) {
    usage(&c, fmt::format("{}: {} is not a live array (freed already, or never made)", fn, what));
    return nullptr;
  }
  if (a->ctx != c.id) {
    usage(&c, fmt::format("{}: {} belongs to another context", fn, what));
    return nullptr;
  }
  if (a->prim != prim || a->rank != rank) {
    usage(&c, fmt::format("{}: {} is an array of type {}, not {}", fn, what,
                          type_text(a->prim, a->rank), type_text(prim, rank)));
    return nullptr;
  }
  return a;
}

// "[3][2]": the first `dims` dims of a shape.
std::string shape_text(const std::vector<int64_t> &shape, int dims) {
  std::string s;
  for (int d = 0; d < dims && size_t(d) < shape.size(); d++) s += fmt::format("[{}]", shape[size_t(d)]);
  return s;
}

std::string array_fn(const char *op, PrimType prim, int rank) {
  return fmt::format("kerb_{}_{}_{}d", op, prim_name(prim), rank);
}

bool valid_type(int32_t prim, int32_t rank) {
  return prim >= 0 && prim <= int32_t(PrimType::F64) && rank >= 1 && rank <= 32;
}

void release_buffer(Context &c, Buffer *b) {
  if (!b || --b->refs > 0) return;
  if (b->release)
    c.give_back_later(b->release, b->release_arg);
  else
    c.exec->free_owned(b->alloc);
  delete b;
}

// Registers `obj` (an array or an opaque value) of context `c` in the registry's `table`
// and its id in the context's `ids`.
template <typename T>
uint64_t register_in(Context &c, std::unordered_map<uint64_t, std::unique_ptr<T>> &table,
                     std::unordered_set<uint64_t> &ids, std::unique_ptr<T> obj) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  uint64_t id = r.next++;
  obj->ctx = c.id;
  table.emplace(id, std::move(obj));
  ids.insert(id);
  return id;
}

// Takes live `id` out of `table` and `ids` (register_in's).
template <typename T>
std::unique_ptr<T> unregister_from(std::unordered_map<uint64_t, std::unique_ptr<T>> &table,
                                   std::unordered_set<uint64_t> &ids, uint64_t id) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = table.find(id);
  std::unique_ptr<T> obj = std::move(it->second);
  table.erase(it);
  ids.erase(id);
  return obj;
}

// Gives back the buffers of a value being freed; the device's error, if any, as the
// status of `fn`.
int release_buffers(Context &c, const std::vector<Buffer *> &buffers, const std::string &fn) {
  if (!c.exec) return KERB_SUCCESS;
  c.exec->clear_error();
  for (Buffer *b : buffers) release_buffer(c, b);
  return c.exec->error.empty() ? KERB_SUCCESS : c.exec_status(fn);
}

uint64_t register_array(Context &c, std::unique_ptr<ArrayObj> a) {
  return register_in(c, registry().arrays, c.arrays, std::move(a));
}

// Frees live array `id` of context `c` (found already).
int free_array(Context &c, uint64_t id, const std::string &fn) {
  std::unique_ptr<ArrayObj> owned = unregister_from(registry().arrays, c.arrays, id);
  return release_buffers(c, {owned->buffer}, fn);
}

// ---- opaque values

// A copy of array `a` sharing its memory (a reference more to the buffer).
std::unique_ptr<ArrayObj> share_array(const ArrayObj &a) {
  auto out = std::make_unique<ArrayObj>(a);
  if (out->buffer) out->buffer->refs++;
  return out;
}

// Takes registered array `h` (a handle the call just made) out of the registry.
std::unique_ptr<ArrayObj> unregister_array(Context &c, void *h) {
  return unregister_from(registry().arrays, c.arrays, handle_id(h));
}

uint64_t register_opaque(Context &c, std::unique_ptr<OpaqueObj> o) {
  return register_in(c, registry().opaques, c.opaques, std::move(o));
}

std::string opaque_text(const Context &c, int type) {
  return "kerb_opaque_" + c.opaque_types[size_t(type)].name;
}

// Live opaque value `h` of type `type` in `c`, or null with the error recorded. One
// that a failed call returned is refused unless `poisoned_ok`.
OpaqueObj *find_opaque(Context &c, const void *h, int type, const std::string &fn, const std::string &what,
                       bool poisoned_ok = false) {
  if (!h) {
    usage(&c, fmt::format("{}: {} is NULL", fn, what));
    return nullptr;
  }
  Registry &r = registry();
  OpaqueObj *o = nullptr;
  bool array = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.opaques.find(handle_id(h));
    if (it != r.opaques.end()) o = it->second.get();
    array = r.arrays.count(handle_id(h)) > 0;
  }
  if (!o) {
    usage(&c, array ? fmt::format("{}: {} is an array, not a {}", fn, what, opaque_text(c, type))
                    : fmt::format("{}: {} is not a live value (freed already, or never made)", fn, what));
    return nullptr;
  }
  if (o->ctx != c.id) {
    usage(&c, fmt::format("{}: {} belongs to another context", fn, what));
    return nullptr;
  }
  if (o->type != type) {
    usage(&c, fmt::format("{}: {} is a {}, not a {}", fn, what, opaque_text(c, o->type), opaque_text(c, type)));
    return nullptr;
  }
  if (o->poisoned && !poisoned_ok) {
    usage(&c, fmt::format("{}: {} is (part of) a result of a call that failed (its values are garbage)", fn,
                          what));
    return nullptr;
  }
  return o;
}

// Frees live opaque value `id` of `c` (found already).
int free_opaque(Context &c, uint64_t id, const std::string &fn) {
  std::unique_ptr<OpaqueObj> owned = unregister_from(registry().opaques, c.opaques, id);
  std::vector<Buffer *> buffers;
  for (SlotValue &v : owned->slots)
    if (v.array) buffers.push_back(v.array->buffer);
  return release_buffers(c, buffers, fn);
}

// The outer dims that the arrays of an array of records share, or a message naming the
// two that differ.
std::string outer_dims_differ(const OpaqueObj &o, int rank) {
  const ArrayObj *first = nullptr;
  for (const SlotValue &v : o.slots) {
    if (!v.array) continue;
    if (!first) first = v.array.get();
    else if (!std::equal(first->shape.begin(), first->shape.begin() + rank, v.array->shape.begin()))
      return fmt::format("{} and {}", shape_text(first->shape, rank), shape_text(v.array->shape, rank));
  }
  return "";
}

// ---- entry calls

int Context::call(const std::string &fn, int32_t entry, void *const *outs, const void *const *ins,
                  ArrayObj *const *given, const size_t *c_index) {
  auto arg = [&](size_t k) { return c_index ? c_index[k] : k; };
  const EntrySig &sig = entries[size_t(entry)];
  for (size_t k = 0; k < sig.results.size(); k++)
    if (!outs[k]) return usage(this, fmt::format("{}: the pointer for result {} (out{}) is NULL", fn, k, k));
  std::vector<int64_t> in;
  std::vector<ArrayObj *> inputs;
  std::vector<ArrayObj *> by_param(sig.params.size(), nullptr);
  auto find_input = [&](size_t k) { return by_param[k]; };
  for (size_t k = 0; k < sig.params.size(); k++) {
    const SlotType &t = sig.params[k];
    if (t.rank == 0) {
      uint64_t bits = 0;
      std::memcpy(&bits, ins[k], size_t(prim_size(t.prim)));
      if (t.prim == PrimType::Bool) bits = bits != 0;
      in.push_back(int64_t(bits));
      continue;
    }
    ArrayObj *a = given && given[k] ? given[k]
                                    : find_array(*this, ins[k], t.prim, t.rank, fn,
                                                 fmt::format("argument {} (in{})", arg(k), arg(k)));
    if (!a) return KERB_USAGE_ERROR;
    if (a->poisoned)
      return usage(this, fmt::format("{}: argument {} (in{}) is a result of a call that failed "
                                     "(its values are garbage)",
                                     fn, arg(k), arg(k)));
    inputs.push_back(a);
    by_param[k] = a;
    in.push_back(a->addr);
    for (int64_t d : a->shape) in.push_back(d);
  }
  // The component arrays of an array of tuples must share its outer dims (Futhark
  // counts inconsistent entry arguments as a program error).
  for (const SharedDims &d : sig.shared) {
    const ArrayObj *a = find_input(d.j), *b = find_input(d.i);
    if (!std::equal(a->shape.begin(), a->shape.begin() + d.dims, b->shape.begin()))
      return set_error(KERB_PROGRAM_ERROR,
                       fmt::format("{}: arguments {} and {} (in{} and in{}) are components of one "
                                   "array of tuples but differ in their outer size: {} and {}",
                                   fn, arg(d.i), arg(d.j), arg(d.i), arg(d.j), shape_text(b->shape, d.dims),
                                   shape_text(a->shape, d.dims)));
  }
  size_t nout = 0;
  for (const SlotType &t : sig.results) nout += 1 + size_t(t.rank);
  std::vector<int64_t> out(nout + 1);

  exec->clear_error();
  exec->begin_call();
  uint64_t call_number = exec->current_call();
  if (code->entries[entry](exec.get(), in.data(), out.data()) != 0) {
    exec->finish_call();
    return exec_status(fn);
  }
  // Results: an array's memory is a buffer this call allocated (taken off the call's
  // list), the same buffer as an earlier result, or an input's buffer.
  std::vector<std::unique_ptr<ArrayObj>> made;
  std::vector<Buffer *> fresh;
  bool lost = false;
  size_t pos = 0;
  for (const SlotType &t : sig.results) {
    if (t.rank == 0) {
      pos++;
      continue;
    }
    auto a = std::make_unique<ArrayObj>();
    a->prim = t.prim;
    a->rank = t.rank;
    a->addr = out[pos++];
    a->shape.assign(out.begin() + long(pos), out.begin() + long(pos) + t.rank);
    pos += size_t(t.rank);
    a->produced_by = call_number;
    if (a->elements() > 0) {
      int64_t bytes = a->elements() * prim_size(t.prim);
      auto holds = [&](const Allocation &m) { return a->addr >= m.addr && a->addr + bytes <= m.addr + m.bytes; };
      for (Buffer *b : fresh)
        if (!a->buffer && holds(b->alloc)) a->buffer = b;
      for (ArrayObj *i : inputs)
        if (!a->buffer && i->buffer && holds(i->buffer->alloc)) a->buffer = i->buffer;
      std::optional<Allocation> m = a->buffer ? std::nullopt : exec->take(a->addr);
      if (m) {
        fresh.push_back(new Buffer{*m, 0});
        if (holds(*m)) a->buffer = fresh.back();
      }
      if (a->buffer)
        a->buffer->refs++;
      else
        lost = true;
    } else {
      a->addr = 0;
    }
    made.push_back(std::move(a));
  }
  exec->finish_call();
  for (Buffer *b : fresh)
    if (b->refs == 0) {
      b->refs = 1;
      release_buffer(*this, b);
    }
  if (lost) {
    for (auto &a : made) release_buffer(*this, a->buffer);
    return set_error(KERB_ERROR, fmt::format("{}: internal error: a result's memory is not the "
                                             "call's nor an argument's",
                                             fn));
  }
  pos = 0;
  size_t m = 0;
  for (size_t k = 0; k < sig.results.size(); k++) {
    const SlotType &t = sig.results[k];
    if (t.rank == 0) {
      uint64_t bits = uint64_t(out[pos++]);
      if (t.prim == PrimType::Bool) bits = bits != 0;
      std::memcpy(outs[k], &bits, size_t(prim_size(t.prim)));
      continue;
    }
    pos += 1 + size_t(t.rank);
    *static_cast<void **>(outs[k]) = as_handle<void>(register_array(*this, std::move(made[m++])));
  }
  return KERB_SUCCESS;
}

int Context::call_values(const std::string &fn, int32_t entry, void *const *outs, const void *const *ins) {
  const EntrySig &sig = entries[size_t(entry)];
  if (!sig.has_values) return call(fn, entry, outs, ins);
  // Each opaque argument lends its slots: scalars' bits, arrays as they are.
  std::vector<const void *> flat_in;
  std::vector<ArrayObj *> given;
  std::vector<size_t> c_index;
  for (size_t k = 0; k < sig.ins.size(); k++) {
    int type = sig.ins[k];
    if (type < 0) {
      flat_in.push_back(ins[k]);
      given.push_back(nullptr);
      c_index.push_back(k);
      continue;
    }
    OpaqueObj *o = find_opaque(*this, ins[k], type, fn, fmt::format("argument {} (in{})", k, k));
    if (!o) return KERB_USAGE_ERROR;
    for (SlotValue &v : o->slots) {
      flat_in.push_back(&v.bits);
      given.push_back(v.array.get());
      c_index.push_back(k);
    }
  }
  // Each opaque result's slots land in storage here first.
  std::vector<uint64_t> bits(sig.results.size(), 0);
  std::vector<void *> handles(sig.results.size(), nullptr);
  std::vector<void *> flat_out;
  for (size_t k = 0; k < sig.outs.size(); k++) {
    if (!outs[k]) return usage(this, fmt::format("{}: the pointer for result {} (out{}) is NULL", fn, k, k));
    if (sig.outs[k] < 0) {
      flat_out.push_back(outs[k]);
      continue;
    }
    for (size_t j = 0; j < opaque_types[size_t(sig.outs[k])].slots.size(); j++) {
      size_t at = flat_out.size();
      flat_out.push_back(sig.results[at].rank > 0 ? static_cast<void *>(&handles[at]) : &bits[at]);
    }
  }
  int rc = call(fn, entry, flat_out.data(), flat_in.data(), given.data(), c_index.data());
  if (rc != KERB_SUCCESS) return rc;
  size_t at = 0;
  for (size_t k = 0; k < sig.outs.size(); k++) {
    if (sig.outs[k] < 0) {
      at++;
      continue;
    }
    auto o = std::make_unique<OpaqueObj>();
    o->type = sig.outs[k];
    o->slots.resize(opaque_types[size_t(sig.outs[k])].slots.size());
    for (SlotValue &v : o->slots) {
      v.bits = bits[at];
      if (handles[at]) v.array = unregister_array(*this, handles[at]);
      at++;
    }
    *static_cast<void **>(outs[k]) = as_handle<void>(register_opaque(*this, std::move(o)));
  }
  return KERB_SUCCESS;
}

} // namespace

ContextError take_context_error(kerb_context *h) {
  Context *c = find_context(h, "take_context_error");
  if (!c) return ContextError{KERB_USAGE_ERROR, std::nullopt, std::exchange(orphan_error, "")};
  std::lock_guard<std::mutex> lock(c->error_mutex);
  return std::exchange(c->last_error, ContextError{});
}

double time_on_device(kerb_context *h, const std::function<void()> &work) {
  Context *c = started_context(h, "time_on_device");
  if (!c) throw std::runtime_error(take_context_error(h).message);
  return c->device->time_ms(work);
}

ContextMemory context_memory(kerb_context *h) {
  Context *c = started_context(h, "context_memory");
  if (!c) throw std::runtime_error(take_context_error(h).message);
  ContextMemory m;
  m.fresh_allocations = c->exec->fresh_allocations();
  try {
    m.pool_reserved_bytes = c->device->reserved_bytes();
  } catch (const std::exception &) {
    m.pool_reserved_bytes = -1;
  }
  return m;
}

} // namespace kerb

using namespace kerb;

namespace {

// A malloc'd copy (the caller frees it), or null if out of memory.
char *malloc_copy(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// The live configuration `cfg` (the registry's mutex held), or null with the error.
Config *find_config(Registry &r, kerb_context_config *cfg, const char *fn) {
  auto it = r.configs.find(handle_id(cfg));
  if (it != r.configs.end()) return it->second.get();
  usage(nullptr, fmt::format("{}: the configuration is {}", fn, cfg ? "not alive" : "NULL"));
  return nullptr;
}

} // namespace

extern "C" {

// ---- configuration

kerb_context_config *kerb_context_config_new(void) {
  try {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    uint64_t id = r.next++;
    r.configs.emplace(id, std::make_unique<Config>());
    return as_handle<kerb_context_config>(id);
  } catch (...) {
    return nullptr;
  }
}

void kerb_context_config_free(kerb_context_config *cfg) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.configs.erase(handle_id(cfg));
}

int kerb_context_config_set_device(kerb_context_config *cfg, const char *device) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Config *found = find_config(r, cfg, "kerb_context_config_set_device");
  if (!found) return KERB_USAGE_ERROR;
  std::string d = device ? device : "";
  Config &c = *found;
  if (d.empty()) {
    c.device = DeviceChoice::Default;
    return KERB_SUCCESS;
  }
  if (d == "cpu") {
    c.device = DeviceChoice::Cpu;
    return KERB_SUCCESS;
  }
  std::string num;
  if (d == "cuda") num = "0";
  else if (d.rfind("cuda:", 0) == 0) num = d.substr(5);
  else if (d.rfind("#", 0) == 0) num = d.substr(1);
  if (!num.empty() && num.size() < 6 && num.find_first_not_of("0123456789") == std::string::npos) {
    c.device = DeviceChoice::Cuda;
    c.ordinal = std::stoi(num);
    return KERB_SUCCESS;
  }
  return usage(nullptr, fmt::format("kerb_context_config_set_device: unknown device '{}' (expected "
                                    "cpu, cuda, cuda:N or #N)",
                                    d));
}

int kerb_context_config_set_sync_checks(kerb_context_config *cfg, int flag) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Config *c = find_config(r, cfg, "kerb_context_config_set_sync_checks");
  if (!c) return KERB_USAGE_ERROR;
  c->sync_checks = flag != 0;
  return KERB_SUCCESS;
}

// ---- contexts

kerb_context *kerb_rt_context_new(kerb_context_config *cfg, const kerb_program_desc *program) {
  try {
    auto c = std::make_unique<Context>();
    Config config;
    bool have_config = false;
    Registry &r = registry();
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      auto it = r.configs.find(handle_id(cfg));
      if (it != r.configs.end()) {
        config = *it->second;
        have_config = true;
      }
    }
    if (!have_config)
      c->start_error = cfg ? "kerb_context_new: the configuration is not alive"
                           : "kerb_context_new: the configuration is NULL";
    else {
      try {
        c->start(config, program);
      } catch (const std::exception &e) {
        c->start_error = e.what();
        c->exec.reset();
        c->device.reset();
        c->cuda.reset();
      }
    }
    if (!c->started()) c->set_error(KERB_ERROR, c->start_error);
    std::lock_guard<std::mutex> lock(r.mutex);
    c->id = r.next++;
    uint64_t id = c->id;
    r.contexts.emplace(id, std::shared_ptr<Context>(std::move(c)));
    return as_handle<kerb_context>(id);
  } catch (...) {
    return nullptr;
  }
}

void kerb_context_free(kerb_context *ctx) {
  Context *c = find_context(ctx, "kerb_context_free");
  if (!c) return;
  Registry &r = registry();
  std::shared_ptr<Context> owned; // the context lives on while arrays lent out do
  std::vector<std::unique_ptr<ArrayObj>> arrays;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    for (uint64_t id : c->arrays) {
      auto it = r.arrays.find(id);
      arrays.push_back(std::move(it->second));
      r.arrays.erase(it);
    }
    for (uint64_t id : c->opaques) {
      auto it = r.opaques.find(id);
      for (SlotValue &v : it->second->slots)
        if (v.array) arrays.push_back(std::move(v.array));
      r.opaques.erase(it);
    }
    auto it = r.contexts.find(c->id);
    owned = std::move(it->second);
    r.contexts.erase(it);
  }
  if (c->exec) {
    try {
      for (auto &a : arrays) release_buffer(*c, a->buffer);
      c->tidy(true);
      std::lock_guard<std::mutex> lock(c->drop_mutex);
      c->closed = true;
      drop_lent(*c, c->dropped, c->lasting);
      c->dropped.clear();
      // Waits for the device, and gives the context's cache and the memory pool's back.
      c->exec->trim();
    } catch (...) {
      // Freeing goes on regardless.
    }
  }
}

int kerb_context_sync(kerb_context *ctx) {
  int status;
  Context *c = started_context(ctx, "kerb_context_sync", &status);
  if (!c) return status;
  c->exec->clear_error();
  try {
    c->device->synchronize();
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("kerb_context_sync: {}", e.what()));
  }
  if (c->exec->sync_check(true) != 0) return c->exec_status("kerb_context_sync");
  try {
    c->tidy(true);
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("kerb_context_sync: {}", e.what()));
  }
  return KERB_SUCCESS;
}

char *kerb_context_get_error(kerb_context *ctx) {
  std::string message;
  Registry &r = registry();
  Context *c = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.contexts.find(handle_id(ctx));
    if (it != r.contexts.end()) c = it->second.get();
  }
  if (c) {
    std::lock_guard<std::mutex> lock(c->error_mutex);
    message = std::exchange(c->last_error, ContextError{}).message;
  } else {
    message = std::exchange(orphan_error, "");
  }
  return message.empty() ? nullptr : malloc_copy(message);
}

int kerb_context_poll_error(kerb_context *ctx) {
  int status;
  Context *c = started_context(ctx, "kerb_context_poll_error", &status);
  if (!c) return status;
  std::optional<Failure> f = c->exec->poll();
  if (!f) return KERB_SUCCESS;
  return c->set_error(KERB_PROGRAM_ERROR, f->text(), f);
}

const char *kerb_context_get_device(kerb_context *ctx) {
  Context *c = started_context(ctx, "kerb_context_get_device");
  return c ? c->device_name.c_str() : nullptr;
}

char *kerb_context_report(kerb_context *ctx) {
  Context *c = started_context(ctx, "kerb_context_report");
  if (!c) return nullptr;
  int64_t reserved = -1;
  try {
    reserved = c->device->reserved_bytes();
  } catch (...) {
    reserved = -1;
  }
  std::string device;
  for (char ch : c->device_name) {
    if (ch == '"' || ch == '\\') device += '\\';
    device += ch;
  }
  std::string json = fmt::format(
      "{{\"device\": \"{}\", \"entry_calls\": {}, \"live_arrays\": {}, \"live_opaques\": {}, \"bytes_in_use\": {}, "
      "\"peak_bytes\": {}, \"allocations\": {}, \"fresh_allocations\": {}, "
      "\"cached_bytes\": {}, \"pool_reserved_bytes\": {}}}",
      device, c->exec->current_call(), c->arrays.size(), c->opaques.size(), c->exec->bytes_in_use(),
      c->exec->peak_bytes(), c->exec->allocations(), c->exec->fresh_allocations(),
      c->exec->cached_bytes(), reserved);
  return malloc_copy(json);
}

int kerb_context_clear_caches(kerb_context *ctx) {
  int status;
  Context *c = started_context(ctx, "kerb_context_clear_caches", &status);
  if (!c) return status;
  try {
    c->exec->trim();
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("kerb_context_clear_caches: {}", e.what()));
  }
  return KERB_SUCCESS;
}

// ---- what generated code calls

int kerb_rt_entry(kerb_context *ctx, const kerb_program_desc *program, int32_t entry,
                  void *const *outs, const void *const *ins) {
  std::string fn = "kerb_entry";
  if (program && entry >= 0 && uint32_t(entry) < program->num_entries)
    fn += std::string("_") + program->entry_names[entry];
  int status;
  Context *c = started_context(ctx, fn, &status);
  if (!c) return status;
  if (c->program != program)
    return usage(c, fmt::format("{}: the context was made for another program ({})", fn,
                                c->program && c->program->name ? c->program->name : "?"));
  if (entry < 0 || size_t(entry) >= c->entries.size())
    return usage(c, fmt::format("{}: no entry number {}", fn, entry));
  try {
    c->tidy();
    return c->call_values(fn, entry, outs, ins);
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
  }
}

void *kerb_rt_array_new(kerb_context *ctx, int32_t prim, int32_t rank, const void *data,
                        const int64_t *dims) {
  if (!valid_type(prim, rank)) {
    usage(nullptr, fmt::format("kerb_new: no array type {} of rank {}", prim, rank));
    return nullptr;
  }
  PrimType t = PrimType(prim);
  std::string fn = array_fn("new", t, rank);
  Context *c = started_context(ctx, fn);
  if (!c) return nullptr;
  auto a = std::make_unique<ArrayObj>();
  a->prim = t;
  a->rank = rank;
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0) {
      usage(c, fmt::format("{}: dimension {} is negative ({})", fn, d, dims[d]));
      return nullptr;
    }
    if (dims[d] > 0 && n > std::numeric_limits<int64_t>::max() / 8 / dims[d]) {
      usage(c, fmt::format("{}: the array is too large", fn));
      return nullptr;
    }
    n *= dims[d];
    a->shape.push_back(dims[d]);
  }
  if (n > 0 && !data) {
    usage(c, fmt::format("{}: data is NULL", fn));
    return nullptr;
  }
  if (n > 0) {
    int64_t bytes = n * prim_size(t);
    c->exec->clear_error();
    try {
      a->buffer = new Buffer{c->exec->alloc_owned(bytes), 1};
    } catch (const std::exception &e) {
      c->set_error(dynamic_cast<const OutOfMemoryError *>(&e) ? KERB_OUT_OF_MEMORY : KERB_ERROR,
                   fmt::format("{}: {}", fn, e.what()));
      return nullptr;
    }
    a->addr = a->buffer->alloc.addr;
    if (c->exec->write(a->addr, data, bytes) != 0) {
      release_buffer(*c, a->buffer);
      c->exec_status(fn);
      return nullptr;
    }
  }
  return as_handle<void>(register_array(*c, std::move(a)));
}

int kerb_rt_array_values(kerb_context *ctx, int32_t prim, int32_t rank, const void *array,
                         void *data) {
  if (!valid_type(prim, rank)) return usage(nullptr, "kerb_values: no such array type");
  PrimType t = PrimType(prim);
  std::string fn = array_fn("values", t, rank);
  int status;
  Context *c = started_context(ctx, fn, &status);
  if (!c) return status;
  ArrayObj *a = find_array(*c, array, t, rank, fn, "the array");
  if (!a) return KERB_USAGE_ERROR;
  if (a->poisoned)
    return usage(c, fmt::format("{}: the array is a result of a call that failed (its values "
                                "are garbage)",
                                fn));
  int64_t bytes = a->elements() * prim_size(t);
  if (bytes > 0 && !data) return usage(c, fmt::format("{}: data is NULL", fn));
  c->exec->clear_error();
  if (c->exec->read(data, a->addr, bytes) != 0) return c->exec_status(fn);
  return KERB_SUCCESS;
}

const int64_t *kerb_rt_array_shape(kerb_context *ctx, int32_t prim, int32_t rank,
                                   const void *array) {
  if (!valid_type(prim, rank)) {
    usage(nullptr, "kerb_shape: no such array type");
    return nullptr;
  }
  PrimType t = PrimType(prim);
  std::string fn = array_fn("shape", t, rank);
  Context *c = find_context(ctx, fn);
  if (!c) return nullptr;
  ArrayObj *a = find_array(*c, array, t, rank, fn, "the array");
  return a ? a->shape.data() : nullptr;
}

int kerb_rt_array_free(kerb_context *ctx, int32_t prim, int32_t rank, void *array) {
  if (!valid_type(prim, rank)) return usage(nullptr, "kerb_free: no such array type");
  PrimType t = PrimType(prim);
  std::string fn = array_fn("free", t, rank);
  Context *c = find_context(ctx, fn);
  if (!c) return KERB_USAGE_ERROR;
  ArrayObj *a = find_array(*c, array, t, rank, fn, "the array");
  if (!a) return KERB_USAGE_ERROR;
  return free_array(*c, handle_id(array), fn);
}

// ---- opaque values

namespace {

// The started context `ctx` of `program`, with `type` one of its opaque types; null with
// the error recorded (and its code in *status) otherwise.
Context *opaque_context(kerb_context *ctx, const kerb_program_desc *program, int32_t type, const char *op,
                        std::string &fn, int *status) {
  fn = fmt::format("kerb_{}_opaque", op);
  if (program && type >= 0 && uint32_t(type) < program->num_opaque_types && program->opaque_types) {
    std::string text = program->opaque_types[type] ? program->opaque_types[type] : "";
    fn += "_" + text.substr(0, text.find(';'));
  }
  Context *c = started_context(ctx, fn, status);
  if (!c) return nullptr;
  if (c->program != program) {
    *status = usage(c, fmt::format("{}: the context was made for another program ({})", fn,
                                   c->program && c->program->name ? c->program->name : "?"));
    return nullptr;
  }
  if (type < 0 || size_t(type) >= c->opaque_types.size()) {
    *status = usage(c, fmt::format("{}: no opaque type number {}", fn, type));
    return nullptr;
  }
  return c;
}

// Appends the slots of `values` given as `ins` (from ins[first] on) to `o`; the error
// recorded and false on misuse. `what(k)` names value k for messages.
bool take_values(Context &c, const ValueList &values, const void *const *ins, size_t first, OpaqueObj &o,
                 const std::string &fn, const std::vector<SlotType> &slots, const std::function<std::string(size_t)> &what) {
  for (size_t k = 0; k < values.size(); k++) {
    const void *in = ins[first + k];
    if (values[k] >= 0) {
      OpaqueObj *v = find_opaque(c, in, values[k], fn, what(k));
      if (!v) return false;
      for (const SlotValue &sv : v->slots)
        o.slots.push_back(SlotValue{sv.bits, sv.array ? share_array(*sv.array) : nullptr});
      continue;
    }
    const SlotType &t = slots[o.slots.size()];
    SlotValue sv;
    if (t.rank == 0) {
      if (!in) {
        usage(&c, fmt::format("{}: {} is NULL", fn, what(k)));
        return false;
      }
      std::memcpy(&sv.bits, in, size_t(prim_size(t.prim)));
      if (t.prim == PrimType::Bool) sv.bits = sv.bits != 0;
    } else {
      ArrayObj *a = find_array(c, in, t.prim, t.rank, fn, what(k));
      if (!a) return false;
      if (a->poisoned) {
        usage(&c, fmt::format("{}: {} is a result of a call that failed (its values are garbage)", fn, what(k)));
        return false;
      }
      sv.array = share_array(*a);
    }
    o.slots.push_back(std::move(sv));
  }
  return true;
}

// Gives back the buffers of an opaque value never registered.
void drop_slots(Context &c, OpaqueObj &o) {
  for (SlotValue &v : o.slots)
    if (v.array) release_buffer(c, v.array->buffer);
  o.slots.clear();
}

// The magic of a stored opaque value (kerb_store_opaque_*).
constexpr char kStoreMagic[8] = {'K', 'E', 'R', 'B', 'O', 'P', 'Q', '1'};

} // namespace

int kerb_rt_opaque_free(kerb_context *ctx, const kerb_program_desc *program, int32_t type, void *obj) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "free", fn, &status);
  if (!c) return status;
  if (!find_opaque(*c, obj, type, fn, "the value", true)) return KERB_USAGE_ERROR;
  return free_opaque(*c, handle_id(obj), fn);
}

int kerb_rt_opaque_new(kerb_context *ctx, const kerb_program_desc *program, int32_t type, void **out,
                       const void *const *ins) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "new", fn, &status);
  if (!c) return status;
  const OpaqueSig &t = c->opaque_types[size_t(type)];
  if (t.kind != 'r') return usage(c, fmt::format("{}: {} is not a record", fn, opaque_text(*c, type)));
  if (!out) return usage(c, fmt::format("{}: out is NULL", fn));
  auto o = std::make_unique<OpaqueObj>();
  o->type = type;
  size_t first = 0;
  for (const OpaqueSig::Field &f : t.fields) {
    auto what = [&](size_t k) {
      return f.values.size() == 1 ? fmt::format("field {}", f.name) : fmt::format("field {} (value {})", f.name, k);
    };
    if (!take_values(*c, f.values, ins, first, *o, fn, t.slots, what)) {
      drop_slots(*c, *o);
      return KERB_USAGE_ERROR;
    }
    first += f.values.size();
  }
  std::string differ = t.rank > 0 ? outer_dims_differ(*o, t.rank) : "";
  if (!differ.empty()) {
    drop_slots(*c, *o);
    return c->set_error(KERB_PROGRAM_ERROR,
                        fmt::format("{}: the fields of an array of records differ in their outer size: {}", fn, differ));
  }
  *out = as_handle<void>(register_opaque(*c, std::move(o)));
  return KERB_SUCCESS;
}

int kerb_rt_opaque_project(kerb_context *ctx, const kerb_program_desc *program, int32_t type, int32_t field,
                           void *const *outs, const void *obj) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "project", fn, &status);
  if (!c) return status;
  const OpaqueSig &t = c->opaque_types[size_t(type)];
  if (t.kind != 'r' || field < 0 || size_t(field) >= t.fields.size())
    return usage(c, fmt::format("{}: {} has no field number {}", fn, opaque_text(*c, type), field));
  const OpaqueSig::Field &f = t.fields[size_t(field)];
  fn += "_" + f.name;
  for (size_t k = 0; k < f.values.size(); k++)
    if (!outs[k]) return usage(c, fmt::format("{}: the pointer for value {} (out{}) is NULL", fn, k, k));
  OpaqueObj *o = find_opaque(*c, obj, type, fn, "the record");
  if (!o) return KERB_USAGE_ERROR;
  size_t at = f.first;
  for (size_t k = 0; k < f.values.size(); k++) {
    int vt = f.values[k];
    if (vt >= 0) {
      auto v = std::make_unique<OpaqueObj>();
      v->type = vt;
      for (size_t j = 0; j < c->opaque_types[size_t(vt)].slots.size(); j++, at++) {
        const SlotValue &sv = o->slots[at];
        v->slots.push_back(SlotValue{sv.bits, sv.array ? share_array(*sv.array) : nullptr});
      }
      *static_cast<void **>(outs[k]) = as_handle<void>(register_opaque(*c, std::move(v)));
      continue;
    }
    const SlotValue &sv = o->slots[at++];
    if (sv.array)
      *static_cast<void **>(outs[k]) = as_handle<void>(register_array(*c, share_array(*sv.array)));
    else
      std::memcpy(outs[k], &sv.bits, size_t(prim_size(t.slots[at - 1].prim)));
  }
  return KERB_SUCCESS;
}

const int64_t *kerb_rt_opaque_shape(kerb_context *ctx, const kerb_program_desc *program, int32_t type,
                                    const void *obj) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "shape", fn, &status);
  if (!c) return nullptr;
  OpaqueObj *o = find_opaque(*c, obj, type, fn, "the array");
  if (!o || o->slots.empty() || !o->slots[0].array) return nullptr;
  return o->slots[0].array->shape.data();
}

int kerb_rt_opaque_store(kerb_context *ctx, const kerb_program_desc *program, int32_t type, const void *obj,
                         void **p, size_t *n) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "store", fn, &status);
  if (!c) return status;
  if (!n) return usage(c, fmt::format("{}: n is NULL", fn));
  OpaqueObj *o = find_opaque(*c, obj, type, fn, "the value");
  if (!o) return KERB_USAGE_ERROR;
  const OpaqueSig &t = c->opaque_types[size_t(type)];
  // The magic, the type's name and its slots: a scalar's 8 bytes, an array's dims and
  // elements (little-endian, as the host is).
  size_t bytes = sizeof kStoreMagic + 4 + t.name.size();
  for (const SlotValue &v : o->slots)
    bytes += v.array ? size_t(v.array->rank) * 8 + size_t(v.array->elements() * prim_size(v.array->prim)) : 8;
  *n = bytes;
  if (!p) return KERB_SUCCESS;
  char *buf = static_cast<char *>(*p);
  bool allocated = false;
  if (!buf) {
    buf = static_cast<char *>(std::malloc(bytes));
    if (!buf) return c->set_error(KERB_OUT_OF_MEMORY, fmt::format("{}: out of host memory", fn));
    allocated = true;
  }
  char *at = buf;
  auto put = [&](const void *data, size_t size) {
    std::memcpy(at, data, size);
    at += size;
  };
  put(kStoreMagic, sizeof kStoreMagic);
  uint32_t len = uint32_t(t.name.size());
  put(&len, 4);
  put(t.name.data(), t.name.size());
  c->exec->clear_error();
  for (const SlotValue &v : o->slots) {
    if (!v.array) {
      put(&v.bits, 8);
      continue;
    }
    put(v.array->shape.data(), size_t(v.array->rank) * 8);
    int64_t size = v.array->elements() * prim_size(v.array->prim);
    if (size > 0 && c->exec->read(at, v.array->addr, size) != 0) {
      if (allocated) std::free(buf);
      return c->exec_status(fn);
    }
    at += size;
  }
  *p = buf;
  return KERB_SUCCESS;
}

void *kerb_rt_opaque_restore(kerb_context *ctx, const kerb_program_desc *program, int32_t type, const void *p) {
  std::string fn;
  int status;
  Context *c = opaque_context(ctx, program, type, "restore", fn, &status);
  if (!c) return nullptr;
  if (!p) {
    usage(c, fmt::format("{}: p is NULL", fn));
    return nullptr;
  }
  const OpaqueSig &t = c->opaque_types[size_t(type)];
  const char *at = static_cast<const char *>(p);
  uint32_t len = 0;
  if (std::memcmp(at, kStoreMagic, sizeof kStoreMagic) != 0 ||
      (std::memcpy(&len, at + sizeof kStoreMagic, 4), len != t.name.size()) ||
      std::memcmp(at + sizeof kStoreMagic + 4, t.name.data(), len) != 0) {
    usage(c, fmt::format("{}: the bytes are not a stored {} (kerb_store_opaque_{})", fn, opaque_text(*c, type),
                         t.name));
    return nullptr;
  }
  at += sizeof kStoreMagic + 4 + len;
  auto o = std::make_unique<OpaqueObj>();
  o->type = type;
  c->exec->clear_error();
  for (const SlotType &st : t.slots) {
    SlotValue v;
    if (st.rank == 0) {
      std::memcpy(&v.bits, at, 8);
      at += 8;
      o->slots.push_back(std::move(v));
      continue;
    }
    auto a = std::make_unique<ArrayObj>();
    a->prim = st.prim;
    a->rank = st.rank;
    a->shape.resize(size_t(st.rank));
    std::memcpy(a->shape.data(), at, size_t(st.rank) * 8);
    at += size_t(st.rank) * 8;
    int64_t count = 1;
    for (int64_t d : a->shape) {
      if (d < 0 || (d > 0 && count > std::numeric_limits<int64_t>::max() / 8 / d)) {
        drop_slots(*c, *o);
        usage(c, fmt::format("{}: the bytes hold an array of a bad shape", fn));
        return nullptr;
      }
      count *= d;
    }
    int64_t size = count * prim_size(st.prim);
    if (size > 0) {
      try {
        a->buffer = new Buffer{c->exec->alloc_owned(size), 1};
      } catch (const std::exception &e) {
        drop_slots(*c, *o);
        c->set_error(dynamic_cast<const OutOfMemoryError *>(&e) ? KERB_OUT_OF_MEMORY : KERB_ERROR,
                     fmt::format("{}: {}", fn, e.what()));
        return nullptr;
      }
      a->addr = a->buffer->alloc.addr;
      v.array = std::move(a);
      o->slots.push_back(std::move(v));
      if (c->exec->write(o->slots.back().array->addr, at, size) != 0) {
        drop_slots(*c, *o);
        c->exec_status(fn);
        return nullptr;
      }
      at += size;
      continue;
    }
    v.array = std::move(a);
    o->slots.push_back(std::move(v));
  }
  std::string differ = t.rank > 0 ? outer_dims_differ(*o, t.rank) : "";
  if (!differ.empty()) {
    drop_slots(*c, *o);
    usage(c, fmt::format("{}: the bytes hold arrays of different outer sizes: {}", fn, differ));
    return nullptr;
  }
  return as_handle<void>(register_opaque(*c, std::move(o)));
}

// ---- CUDA streams

namespace {

// The started CUDA context `ctx`, or null with the error recorded and its code in *status.
Context *cuda_context(kerb_context *ctx, const char *fn, int *status) {
  Context *c = started_context(ctx, fn, status);
  if (c && !c->cuda) {
    *status = usage(c, fmt::format("{}: the context runs on {}, not on a CUDA device", fn, c->device_name));
    return nullptr;
  }
  return c;
}

} // namespace

int kerb_context_get_cuda_stream(kerb_context *ctx, void **stream) {
  int status;
  Context *c = cuda_context(ctx, "kerb_context_get_cuda_stream", &status);
  if (!c) return status;
  if (!stream) return usage(c, "kerb_context_get_cuda_stream: stream is NULL");
  *stream = c->cuda->stream();
  return KERB_SUCCESS;
}

int kerb_context_set_cuda_stream(kerb_context *ctx, void *stream) {
  int status;
  Context *c = cuda_context(ctx, "kerb_context_set_cuda_stream", &status);
  if (!c) return status;
  try {
    c->cuda->set_stream(legacy_as_null(stream));
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("kerb_context_set_cuda_stream: {}", e.what()));
  }
  return KERB_SUCCESS;
}

int kerb_context_order_cuda_stream(kerb_context *ctx, void *stream) {
  int status;
  Context *c = cuda_context(ctx, "kerb_context_order_cuda_stream", &status);
  if (!c) return status;
  try {
    c->cuda->order_stream(legacy_as_null(stream));
  } catch (const std::exception &e) {
    return c->set_error(KERB_ERROR, fmt::format("kerb_context_order_cuda_stream: {}", e.what()));
  }
  return KERB_SUCCESS;
}

int kerb_context_lasting_cuda_stream(kerb_context *ctx, void *stream) {
  int status;
  Context *c = cuda_context(ctx, "kerb_context_lasting_cuda_stream", &status);
  if (!c) return status;
  CUstream s = legacy_as_null(stream);
  std::lock_guard<std::mutex> lock(c->drop_mutex);
  if (s && s != kPerThreadStream && std::find(c->lasting.begin(), c->lasting.end(), s) == c->lasting.end())
    c->lasting.push_back(s);
  return KERB_SUCCESS;
}

// ---- arrays lent through DLPack

// Note [Arrays lent through DLPack]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Bindings (the Python package) pass other libraries' arrays to entries and give results
// to them without a copy, as DLPack's DLManagedTensor.
//
// Lent to Kerb (kerb_rt_array_from_dlpack): the array becomes a handle whose Buffer views
// the lender's memory; when the last handle viewing it goes, the lender's deleter is
// called, but only once the work queued so far has finished (CUDA: an event, looked at
// by tidy() at the start of every call and waited for at syncs), since the lender may
// reuse the memory at once on a stream of its own. The lender ordered its own work
// before Kerb's stream when the binding asked it for the array with that stream.
//
// Lent by Kerb (kerb_rt_array_to_dlpack): a view that holds a reference to the Buffer
// and to the context, with the stream the borrower will use it on (whose wait for Kerb's
// work is queued at once). The borrower's deleter may run on any thread at any time
// (PyTorch frees tensors on its autograd threads), so it only queues the Buffer on the
// context's `dropped` list; tidy() frees it on the context's own thread, after making the
// context's stream wait for the work the borrower had queued on its stream by then. That
// stream is named again only when it cannot have been destroyed since the export: the
// legacy default stream, or the context's stream of the moment (a binding sets the
// borrower's current stream as the context's for a call, and the borrower's earlier
// results are typically dropped by its next call on the same stream, which pays nothing).
// The per-thread default stream and the streams the binding declared lasting
// (kerb_context_lasting_cuda_stream: JAX's, which its client keeps for the process) are
// named too. Any other stream (a CuPy stream object, say, gone by the time its arrays
// are) is never touched after the export returned: the context waits for the whole
// device instead (cuCtxSynchronize, once for all the buffers dropped since the last
// tidy). A JAX result took that wait at every call until its stream was declared lasting
// (the wait would stall a host that keeps JAX's work queued; on an idle GPU it cost no
// more than the event, tests/gpu/results/2026-11-26-jax-profile).
// After kerb_context_free the context lives on while views do, and the deleter frees the
// Buffer itself; the last one frees the context.

namespace {

bool dlpack_type(PrimType t, dlpack::DataType &out) {
  out.lanes = 1;
  out.bits = uint8_t(t == PrimType::Bool ? 8 : prim_bits(t));
  if (t == PrimType::Bool) out.code = dlpack::kBool;
  else if (is_signed_int(t)) out.code = dlpack::kInt;
  else if (is_unsigned_int(t)) out.code = dlpack::kUInt;
  else out.code = dlpack::kFloat;
  return true;
}

void release_dlpack(void *arg) {
  auto *t = static_cast<dlpack::ManagedTensor *>(arg);
  if (t->deleter) t->deleter(t);
}

struct ExportView {
  dlpack::ManagedTensor tensor; // first: the view is the tensor's manager_ctx
  std::shared_ptr<Context> ctx;
  Buffer *buffer = nullptr;
  std::vector<int64_t> shape;
  int64_t consumer = -1;
};

void export_deleter(dlpack::ManagedTensor *t) {
  auto *v = static_cast<ExportView *>(t->manager_ctx);
  std::shared_ptr<Context> c = std::move(v->ctx);
  {
    std::lock_guard<std::mutex> lock(c->drop_mutex);
    c->lent_out--;
    if (!c->closed) {
      c->dropped.emplace_back(v->buffer, v->consumer);
      c->has_dropped.store(true, std::memory_order_release);
    } else {
      try {
        drop_lent(*c, {{v->buffer, v->consumer}}, c->lasting);
      } catch (...) {
        // The device failed; the memory goes with the context.
      }
    }
  }
  delete v;
}

// Why a DLPack tensor cannot be viewed as an array of type `t` and rank `rank` of the
// context: a KERB_DLPACK_* code, KERB_DLPACK_OK if it can.
int32_t dlpack_problem(const Context &c, PrimType t, int rank, const dlpack::Tensor &d) {
  int32_t dev = d.device.device_type;
  bool here = c.cuda ? ((dev == dlpack::kCUDA || dev == dlpack::kCUDAManaged) &&
                        d.device.device_id == c.cuda->ordinal())
                     : (dev == dlpack::kCPU || dev == dlpack::kCUDAHost);
  dlpack::DataType want;
  dlpack_type(t, want);
  bool is_bool_u8 = t == PrimType::Bool && d.dtype.code == dlpack::kUInt && d.dtype.bits == 8;
  if (!here) return KERB_DLPACK_DEVICE;
  if (!(d.dtype.code == want.code || is_bool_u8) || d.dtype.bits != want.bits || d.dtype.lanes != 1)
    return KERB_DLPACK_TYPE;
  if (d.ndim != rank) return KERB_DLPACK_RANK;
  int64_t n = 1, stride = 1;
  bool compact = true;
  for (int k = rank - 1; k >= 0; k--) {
    int64_t dim = d.shape[k];
    if (dim < 0) compact = false;
    if (d.strides && dim > 1 && d.strides[k] != stride) compact = false;
    stride *= dim;
    n *= dim;
  }
  if (!compact) return KERB_DLPACK_STRIDES;
  int64_t addr = int64_t(reinterpret_cast<uintptr_t>(d.data)) + int64_t(d.byte_offset);
  if (n > 0 && addr % prim_size(t) != 0) return KERB_DLPACK_ALIGNMENT;
  return KERB_DLPACK_OK;
}

} // namespace
} // extern "C": view_dlpack returns a C++ type, which clang rejects in C linkage
namespace {

// An array viewing the memory of `m`, which fits (dlpack_problem), and which the runtime
// owns from here on; null on failure, with the error recorded and `m` still the
// caller's. Registered, it is a handle (kerb_rt_array_from_dlpack); kerb_call_dlpack
// gives it to the call as it is.
std::unique_ptr<ArrayObj> view_dlpack(Context &c, PrimType t, int rank, dlpack::ManagedTensor *m,
                                      const std::string &fn, bool tidy = true) {
  const dlpack::Tensor &d = m->dl_tensor;
  auto a = std::make_unique<ArrayObj>();
  a->prim = t;
  a->rank = rank;
  int64_t n = 1;
  for (int k = 0; k < rank; k++) {
    n *= d.shape[k];
    a->shape.push_back(d.shape[k]);
  }
  int64_t addr = int64_t(reinterpret_cast<uintptr_t>(d.data)) + int64_t(d.byte_offset);
  try {
    if (tidy) c.tidy();
    if (n > 0) {
      a->buffer = new Buffer{Allocation{addr, n * prim_size(t)}, 1, release_dlpack, m};
      a->addr = addr;
    } else {
      c.give_back_later(release_dlpack, m);
    }
  } catch (const std::exception &e) {
    c.set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
    return nullptr;
  }
  return a;
}
} // namespace
extern "C" {
namespace {

// PyCapsule_GetName and PyCapsule_GetPointer of the Python that loaded the runtime.
std::atomic<const char *(*)(void *)> capsule_get_name{nullptr};
std::atomic<void *(*)(void *, const char *)> capsule_get_pointer{nullptr};

// A DLManagedTensor viewing array `a` of `c` (kerb_rt_array_to_dlpack), or null with the
// error recorded. With `tidy`, first what borrowers dropped is freed.
void *export_dlpack(Context &c, const ArrayObj &a, int64_t consumer_stream, const std::string &fn,
                    bool tidy = true) {
  if (a.poisoned) {
    usage(&c, fmt::format("{}: the array is a result of a call that failed (its values are garbage)", fn));
    return nullptr;
  }
  std::shared_ptr<Context> shared;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    shared = r.contexts.at(c.id);
  }
  auto v = std::make_unique<ExportView>();
  v->shape = a.shape;
  v->consumer = c.cuda ? consumer_stream : -1;
  try {
    if (tidy) c.tidy();
    if (c.cuda && consumer_stream != -1)
      c.cuda->order_stream(legacy_as_null(reinterpret_cast<void *>(uintptr_t(consumer_stream))));
  } catch (const std::exception &e) {
    c.set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
    return nullptr;
  }
  dlpack::Tensor &d = v->tensor.dl_tensor;
  // An empty array has no memory; DLPack wants a non-null pointer all the same.
  static int64_t empty_data = 0;
  d.data = a.addr ? reinterpret_cast<void *>(uintptr_t(a.addr)) : &empty_data;
  d.device = c.cuda ? dlpack::Device{dlpack::kCUDA, c.cuda->ordinal()} : dlpack::Device{dlpack::kCPU, 0};
  d.ndim = a.rank;
  dlpack_type(a.prim, d.dtype);
  d.shape = v->shape.data();
  d.strides = nullptr;
  d.byte_offset = 0;
  v->tensor.deleter = export_deleter;
  v->tensor.manager_ctx = v.get();
  v->buffer = a.buffer;
  if (v->buffer) v->buffer->refs++;
  {
    std::lock_guard<std::mutex> lock(c.drop_mutex);
    c.lent_out++;
  }
  v->ctx = std::move(shared);
  return &v.release()->tensor;
}

} // namespace

void *kerb_rt_array_from_dlpack(kerb_context *ctx, int32_t prim, int32_t rank, void *managed,
                                int32_t *problem) {
  if (!valid_type(prim, rank) || !problem || !managed) {
    usage(nullptr, "kerb_rt_array_from_dlpack: bad arguments");
    return nullptr;
  }
  *problem = KERB_DLPACK_OK;
  std::string fn = "kerb_rt_array_from_dlpack";
  Context *c = started_context(ctx, fn);
  if (!c) return nullptr;
  auto *m = static_cast<dlpack::ManagedTensor *>(managed);
  *problem = dlpack_problem(*c, PrimType(prim), rank, m->dl_tensor);
  if (*problem) {
    usage(c, fmt::format("{}: the array does not fit (problem {})", fn, *problem));
    return nullptr;
  }
  std::unique_ptr<ArrayObj> a = view_dlpack(*c, PrimType(prim), rank, m, fn);
  return a ? as_handle<void>(register_array(*c, std::move(a))) : nullptr;
}

void *kerb_rt_array_to_dlpack(kerb_context *ctx, int32_t prim, int32_t rank, const void *array,
                              int64_t consumer_stream) {
  if (!valid_type(prim, rank)) {
    usage(nullptr, "kerb_rt_array_to_dlpack: no such array type");
    return nullptr;
  }
  PrimType t = PrimType(prim);
  std::string fn = "kerb_rt_array_to_dlpack";
  Context *c = started_context(ctx, fn);
  if (!c) return nullptr;
  ArrayObj *a = find_array(*c, array, t, rank, fn, "the array");
  if (!a) return nullptr;
  return export_dlpack(*c, *a, consumer_stream, fn);
}

int kerb_call_dlpack(kerb_context *ctx, int32_t entry, void *const *args, const uint8_t *kinds,
                     void *const *outs, int32_t flags, int64_t consumer_stream, int32_t *problem) {
  if (problem) {
    problem[0] = -1;
    problem[1] = KERB_DLPACK_NOT_TAKEN;
  }
  int status;
  Context *c = started_context(ctx, "kerb_call_dlpack", &status);
  if (!c) return status;
  if (entry < 0 || size_t(entry) >= c->entries.size())
    return usage(c, fmt::format("kerb_call_dlpack: no entry number {}", entry));
  const EntrySig &sig = c->entries[size_t(entry)];
  std::string fn = "kerb_entry_" + sig.name;
  if ((!args && !sig.params.empty()) || (!outs && !sig.results.empty()) || !problem)
    return usage(c, fmt::format("{} (kerb_call_dlpack): args, outs or problem is NULL", fn));
  auto tensor = [&](size_t k) { return sig.params[k].rank > 0 && !(kinds && kinds[k]); };
  // All arguments are looked at first, so that none is taken when one does not fit.
  for (size_t k = 0; k < sig.params.size(); k++) {
    if (!args[k]) return usage(c, fmt::format("{}: argument {} (in{}) is NULL", fn, k, k));
    if (!tensor(k)) continue;
    const SlotType &t = sig.params[k];
    int32_t p = dlpack_problem(*c, t.prim, t.rank, static_cast<dlpack::ManagedTensor *>(args[k])->dl_tensor);
    if (p) {
      problem[0] = int32_t(k);
      problem[1] = p;
      return usage(c, fmt::format("{}: argument {} (in{}) does not fit (problem {})", fn, k, k, p));
    }
  }
  // Taken from here on, whatever happens: viewed as arrays for the call, or given back.
  problem[1] = KERB_DLPACK_OK;
  int rc = KERB_SUCCESS;
  try {
    c->tidy();
  } catch (const std::exception &e) {
    rc = c->set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
  }
  // The tensors' views go to the call as they are, never registered as handles.
  std::vector<std::unique_ptr<ArrayObj>> views(sig.params.size());
  std::vector<ArrayObj *> given(sig.params.size(), nullptr);
  for (size_t k = 0; k < sig.params.size(); k++) {
    if (!tensor(k)) continue;
    auto *m = static_cast<dlpack::ManagedTensor *>(args[k]);
    if (rc == KERB_SUCCESS) views[k] = view_dlpack(*c, sig.params[k].prim, sig.params[k].rank, m, fn, false);
    if (!views[k]) {
      if (rc == KERB_SUCCESS) rc = KERB_ERROR;
      release_dlpack(m);
      continue;
    }
    given[k] = views[k].get();
  }
  // Array results land here first when they are to be exported.
  bool exporting = flags & KERB_CALL_EXPORT;
  std::vector<void *> handles(sig.results.size(), nullptr);
  std::vector<void *> call_outs(sig.results.size());
  for (size_t k = 0; k < sig.results.size(); k++) {
    if (!outs[k]) {
      rc = rc ? rc : usage(c, fmt::format("{}: the pointer for result {} (out{}) is NULL", fn, k, k));
      continue;
    }
    call_outs[k] = sig.results[k].rank > 0 ? static_cast<void *>(&handles[k]) : outs[k];
  }
  if (rc == KERB_SUCCESS) {
    try {
      rc = c->call(fn, entry, call_outs.data(), args, given.data());
    } catch (const std::exception &e) {
      rc = c->set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
    }
  }
  // The arguments' views go (their memory given back after the call's work), with one
  // event for them all.
  c->share_event = true;
  c->shared_event = nullptr;
  try {
    for (auto &v : views) {
      if (!v) continue;
      c->exec->clear_error();
      release_buffer(*c, v->buffer);
      v->buffer = nullptr;
      if (!c->exec->error.empty() && rc == KERB_SUCCESS) rc = c->exec_status(fn);
    }
  } catch (const std::exception &e) {
    int failed = c->set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
    if (rc == KERB_SUCCESS) rc = failed;
  }
  c->share_event = false;
  if (rc == KERB_SUCCESS && (flags & KERB_CALL_SYNC)) rc = kerb_context_sync(ctx);
  for (size_t k = 0; k < sig.results.size(); k++) {
    const SlotType &t = sig.results[k];
    if (t.rank == 0 || !handles[k]) continue;
    void *out = handles[k];
    if (rc == KERB_SUCCESS && exporting) {
      // Tidied at the call's start already.
      const ArrayObj *a = find_array(*c, handles[k], t.prim, t.rank, fn, "a result");
      out = a ? export_dlpack(*c, *a, consumer_stream, fn, false) : nullptr;
      if (!out) rc = KERB_ERROR;
    }
    if (rc != KERB_SUCCESS || exporting) {
      int freed;
      try {
        freed = free_array(*c, handle_id(handles[k]), fn);
      } catch (const std::exception &e) {
        freed = c->set_error(KERB_ERROR, fmt::format("{}: {}", fn, e.what()));
      }
      if (rc == KERB_SUCCESS) rc = freed;
    }
    *static_cast<void **>(outs[k]) = out;
  }
  if (rc != KERB_SUCCESS) {
    // Nothing is returned: tensors exported before a later failure are dropped.
    for (size_t k = 0; k < sig.results.size(); k++) {
      if (sig.results[k].rank == 0 || !outs[k]) continue;
      void *&out = *static_cast<void **>(outs[k]);
      if (out && exporting && handles[k] != out) {
        auto *m = static_cast<dlpack::ManagedTensor *>(out);
        if (m->deleter) m->deleter(m);
      }
      out = nullptr;
    }
  }
  return rc;
}

void kerb_rt_dlpack_capsule_api(const char *(*get_name)(void *),
                                void *(*get_pointer)(void *, const char *)) {
  capsule_get_name.store(get_name);
  capsule_get_pointer.store(get_pointer);
}

const char *kerb_rt_dlpack_name(int32_t used) { return used ? "used_dltensor" : "dltensor"; }

void kerb_rt_dlpack_capsule_destructor(void *capsule) {
  auto get_name = capsule_get_name.load();
  auto get_pointer = capsule_get_pointer.load();
  if (!get_name || !get_pointer) return;
  const char *name = get_name(capsule);
  // A consumer renames the capsule "used_dltensor" when it takes the tensor.
  if (!name || std::strcmp(name, "dltensor") != 0) return;
  auto *t = static_cast<dlpack::ManagedTensor *>(get_pointer(capsule, "dltensor"));
  if (t && t->deleter) t->deleter(t);
}

} // extern "C"
