// C++ on Kerb's C API (kerb.h): a Context, Arrays and Opaque values that free
// themselves, and errors as exceptions. A compiled program's header (NAME.h, from `kerb compile --library`)
// specialises ArrayTraits for its array types and adds a function per entry point in
// namespace kerb::NAME, returning its result (or a std::tuple of results):
//
//   #include "stats.h"
//   kerb::Context ctx("cpu");
//   kerb::Array<float, 1> xs(ctx, {1, 2, 3}, {3});
//   float m = kerb::stats::mean(ctx, xs);           // throws kerb::Error on failure
//   std::vector<float> v = kerb::stats::normalise(ctx, xs).values();
//
// Entry calls are asynchronous, as in C: a failure may be thrown by a later call that
// waits for the device (values(), Context::sync(), an entry returning a scalar).
#pragma once

#include "kerb/kerb.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kerb {

// A failed call: code() is KERB_PROGRAM_ERROR for a failed check (what() is the
// message and its location), another KERB_* code otherwise.
class Error : public std::runtime_error {
public:
  Error(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

private:
  int code_;
};

// f16 elements: the IEEE binary16 bits (C has no half type; Futhark uses uint16_t).
struct f16 {
  uint16_t bits;
};

namespace detail {

inline std::string take_error(kerb_context *ctx) {
  char *m = kerb_context_get_error(ctx);
  std::string s = m ? m : "unknown error";
  std::free(m);
  return s;
}

inline void check(kerb_context *ctx, int code) {
  if (code != KERB_SUCCESS) throw Error(code, take_error(ctx));
}

} // namespace detail

class Context {
public:
  // device: "cpu", "cuda", "cuda:N", or "" for the first CUDA device, else the CPU.
  explicit Context(const std::string &device = "") {
    kerb_context_config *cfg = kerb_context_config_new();
    if (!cfg) throw Error(KERB_OUT_OF_MEMORY, "out of memory");
    if (int st = kerb_context_config_set_device(cfg, device.c_str())) {
      kerb_context_config_free(cfg);
      throw Error(st, detail::take_error(nullptr));
    }
    ctx_ = kerb_context_new(cfg);
    kerb_context_config_free(cfg);
    if (!ctx_) throw Error(KERB_OUT_OF_MEMORY, "out of memory");
    if (char *m = kerb_context_get_error(ctx_)) {
      std::string s = m;
      std::free(m);
      kerb_context_free(ctx_);
      throw Error(KERB_ERROR, s);
    }
  }
  ~Context() {
    if (ctx_) kerb_context_free(ctx_);
  }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  Context(Context &&o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)) {}
  Context &operator=(Context &&o) noexcept {
    if (this != &o) {
      if (ctx_) kerb_context_free(ctx_);
      ctx_ = std::exchange(o.ctx_, nullptr);
    }
    return *this;
  }

  kerb_context *get() const { return ctx_; }
  // Waits for all work; throws the failure found, if any.
  void sync() { detail::check(ctx_, kerb_context_sync(ctx_)); }
  // Non-blocking: the message of a check that failed in work not yet synchronised, or
  // "" if none is visible yet.
  std::string poll_error() {
    if (kerb_context_poll_error(ctx_) == KERB_SUCCESS) return "";
    return detail::take_error(ctx_);
  }
  std::string device() const {
    const char *d = kerb_context_get_device(ctx_);
    return d ? d : "";
  }
  // The context's counters as JSON (kerb_context_report).
  std::string report() const {
    char *r = kerb_context_report(ctx_);
    std::string s = r ? r : "{}";
    std::free(r);
    return s;
  }

private:
  kerb_context *ctx_ = nullptr;
};

// Specialised by each compiled program's header for its array types: `handle`, and
// static new_/values/shape/free over the C functions.
template <typename T, int Rank> struct ArrayTraits;

// An array in a context (it must not outlive the context).
template <typename T, int Rank> class Array {
  using Traits = ArrayTraits<T, Rank>;

public:
  using handle = typename Traits::handle;

  Array(Context &ctx, const T *data, const std::array<int64_t, Rank> &shape) : ctx_(&ctx) {
    h_ = Traits::new_(ctx.get(), data, shape.data());
    if (!h_) throw Error(KERB_ERROR, detail::take_error(ctx.get()));
  }
  Array(Context &ctx, const std::vector<T> &data, const std::array<int64_t, Rank> &shape)
      : ctx_(&ctx) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (n < 0 || size_t(n) != data.size())
      throw Error(KERB_USAGE_ERROR, "kerb::Array: the data's size does not match the shape");
    std::unique_ptr<T[]> copy(new T[data.size() ? data.size() : 1]);
    for (size_t i = 0; i < data.size(); i++) copy[i] = data[i]; // also for vector<bool>
    h_ = Traits::new_(ctx.get(), copy.get(), shape.data());
    if (!h_) throw Error(KERB_ERROR, detail::take_error(ctx.get()));
  }
  // Takes ownership of a handle (an entry's result).
  static Array adopt(Context &ctx, handle *h) { return Array(ctx, h); }

  ~Array() {
    if (h_) Traits::free(ctx_->get(), h_);
  }
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  Array(Array &&o) noexcept : ctx_(o.ctx_), h_(std::exchange(o.h_, nullptr)) {}
  Array &operator=(Array &&o) noexcept {
    if (this != &o) {
      if (h_) Traits::free(ctx_->get(), h_);
      ctx_ = o.ctx_;
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }

  handle *get() const { return h_; }
  std::array<int64_t, Rank> shape() const {
    const int64_t *s = Traits::shape(ctx_->get(), h_);
    if (!s) throw Error(KERB_USAGE_ERROR, detail::take_error(ctx_->get()));
    std::array<int64_t, Rank> out;
    for (int i = 0; i < Rank; i++) out[size_t(i)] = s[i];
    return out;
  }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape()) n *= d;
    return n;
  }
  // Copies the elements (row-major) to `out`; waits for the device.
  void values(T *out) const { detail::check(ctx_->get(), Traits::values(ctx_->get(), h_, out)); }
  std::vector<T> values() const {
    size_t n = size_t(size());
    std::unique_ptr<T[]> buf(new T[n ? n : 1]);
    values(buf.get());
    return std::vector<T>(buf.get(), buf.get() + n);
  }

private:
  Array(Context &ctx, handle *h) : ctx_(&ctx), h_(h) {}
  Context *ctx_;
  handle *h_ = nullptr;
};

// Specialised by each compiled program's header for its opaque types (kerb_opaque_T):
// static free over the C function.
template <typename Handle> struct OpaqueTraits;

// An opaque value in a context (a record, an array of records, an abstract type): made
// by an entry, or for a record by the header's new_T(ctx, fields...), and read through
// its T_FIELD(ctx, obj) functions. It must not outlive the context.
template <typename Handle> class Opaque {
public:
  using handle = Handle;
  // Takes ownership of a handle (an entry's result).
  static Opaque adopt(Context &ctx, Handle *h) { return Opaque(ctx, h); }
  ~Opaque() {
    if (h_) OpaqueTraits<Handle>::free(ctx_->get(), h_);
  }
  Opaque(const Opaque &) = delete;
  Opaque &operator=(const Opaque &) = delete;
  Opaque(Opaque &&o) noexcept : ctx_(o.ctx_), h_(std::exchange(o.h_, nullptr)) {}
  Opaque &operator=(Opaque &&o) noexcept {
    if (this != &o) {
      if (h_) OpaqueTraits<Handle>::free(ctx_->get(), h_);
      ctx_ = o.ctx_;
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Handle *get() const { return h_; }

private:
  Opaque(Context &ctx, Handle *h) : ctx_(&ctx), h_(h) {}
  Context *ctx_;
  Handle *h_ = nullptr;
};

} // namespace kerb
