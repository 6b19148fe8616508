// KERB_TRACE: the timeline of entry calls (see cuda_trace.h).
#include "runtime/cuda_trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#if defined(KERB_HAVE_CUDA_H)
#include <fmt/format.h>
#endif

namespace kerb {

#if defined(KERB_HAVE_CUDA_H)

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Calls pending before the oldest are read (waiting for them) at a call's start.
constexpr size_t kMaxPendingCalls = 256;

} // namespace

std::unique_ptr<CudaTrace> CudaTrace::from_env(CudaDevice &dev) {
  const char *t = std::getenv("KERB_TRACE");
  if (!t || !*t || std::strcmp(t, "0") == 0) return nullptr;
  return std::make_unique<CudaTrace>(dev, std::atoi(t) >= 2 ? 2 : 1);
}

CudaTrace::CudaTrace(CudaDevice &dev, int level)
    : dev_(dev), drv_(cuda_driver_uncounted()), level_(level) {
  if (!drv_) drv_ = &dev.driver();
  if (!cuda_driver_counting())
    std::fprintf(stderr, "trace: CUDA driver calls are not counted (KERB_TRACE was not set "
                         "when the driver was loaded)\n");
}

CudaTrace::~CudaTrace() {
  try {
    flush(true);
    print_medians();
    if (cuda_driver_counting())
      std::fprintf(stderr, "trace: driver calls in this process so far: %s\n",
                   cuda_driver_call_counts().c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "trace: %s\n", e.what());
  }
  try {
    dev_.make_current();
  } catch (const std::exception &) {
    // Destroying the events fails too then; the context is going away.
  }
  for (CUevent e : free_events_) drv_->cuEventDestroy(e);
  for (Call &c : calls_) {
    for (CUevent e : {c.ev_begin, c.ev_end, c.ev_timed_begin, c.ev_timed_end})
      if (e) drv_->cuEventDestroy(e);
    for (Op &o : c.ops)
      for (CUevent e : {o.before, o.after})
        if (e) drv_->cuEventDestroy(e);
  }
  if (pending_timed_ev_) drv_->cuEventDestroy(pending_timed_ev_);
}

CUevent CudaTrace::record() {
  CUevent e = nullptr;
  if (!free_events_.empty()) {
    e = free_events_.back();
    free_events_.pop_back();
  } else {
    dev_.make_current(); // a driver call counted only where it is the call's first
    KERB_CU(drv_->cuEventCreate(&e, CU_EVENT_DEFAULT));
  }
  CUresult r = drv_->cuEventRecord(e, dev_.stream());
  if (r != CUDA_SUCCESS) {
    free_events_.push_back(e);
    cuda_fail(r, "cuEventRecord(event, stream)", __FILE__, __LINE__);
  }
  return e;
}

void CudaTrace::release(CUevent &e) {
  if (e) free_events_.push_back(e);
  e = nullptr;
}

float CudaTrace::elapsed_us(CUevent from, CUevent to) const {
  float ms = 0;
  KERB_CU(drv_->cuEventElapsedTime(&ms, from, to));
  return ms * 1000.0f;
}

void CudaTrace::begin_call() {
  if (calls_.size() >= kMaxPendingCalls) flush(true);
  Call c;
  c.number = next_call_++;
  c.h_begin = now_ns();
  c.ev_begin = record();
  if (pending_timed_ev_) {
    c.ev_timed_begin = std::exchange(pending_timed_ev_, nullptr);
    c.h_timed = std::exchange(pending_timed_h_, -1);
  }
  calls_.push_back(std::move(c));
  in_call_ = true;
  calls_at_begin_ = cuda_driver_calls();
}

void CudaTrace::end_call() {
  if (!in_call_ || calls_.empty()) return;
  Call &c = calls_.back();
  c.driver_calls = cuda_driver_calls() - calls_at_begin_;
  c.h_end = now_ns();
  c.ev_end = record();
  c.ended = true;
  in_call_ = false;
}

void CudaTrace::timed_begin() {
  timed_ = true;
  if (pending_timed_ev_) release(pending_timed_ev_);
  pending_timed_h_ = now_ns();
  pending_timed_ev_ = record();
}

void CudaTrace::timed_end() {
  // The region's last call (if any call started in it).
  if (!pending_timed_ev_ && !calls_.empty() && calls_.back().ended && !calls_.back().ev_timed_end)
    calls_.back().ev_timed_end = record();
}

void CudaTrace::timed_done() {
  timed_ = false;
  if (pending_timed_ev_) release(pending_timed_ev_); // no call in the region
  flush(false);
}

void CudaTrace::begin(Kind kind, std::string label) {
  if (!in_call_) return;
  Op o;
  o.kind = kind;
  o.label = std::move(label);
  o.h_begin = now_ns();
  if (kind != Kind::Host) o.before = record();
  calls_.back().ops.push_back(std::move(o));
}

void CudaTrace::queued() {
  if (!in_call_) return;
  Op &o = calls_.back().ops.back();
  o.h_queued = now_ns();
  o.after = record();
}

void CudaTrace::end() {
  if (!in_call_) return;
  calls_.back().ops.back().h_end = now_ns();
}

void CudaTrace::flush(bool wait) {
  size_t n = 0;
  for (; n < calls_.size(); n++) {
    Call &c = calls_[n];
    if (!c.ended) break;
    // The call's last event: its end, or the timed region's end after it.
    CUevent last = c.ev_timed_end ? c.ev_timed_end : c.ev_end;
    if (wait) {
      KERB_CU(drv_->cuEventSynchronize(last));
    } else {
      CUresult r = drv_->cuEventQuery(last);
      if (r == CUDA_ERROR_NOT_READY) break;
      KERB_CU(r);
    }
    Summary s = summarize(c);
    print(c, s);
    done_.push_back(std::move(s));
    for (CUevent *e : {&c.ev_begin, &c.ev_end, &c.ev_timed_begin, &c.ev_timed_end}) release(*e);
    for (Op &o : c.ops) {
      release(o.before);
      release(o.after);
    }
  }
  calls_.erase(calls_.begin(), calls_.begin() + long(n));
}

CudaTrace::Summary CudaTrace::summarize(const Call &c) const {
  Summary s;
  CUevent ref = c.ev_timed_begin ? c.ev_timed_begin : c.ev_begin;
  int64_t h_ref = c.h_timed >= 0 ? c.h_timed : c.h_begin;
  auto us = [](int64_t ns) { return double(ns) / 1000.0; };
  s.end = elapsed_us(ref, c.ev_timed_end ? c.ev_timed_end : c.ev_end);
  s.host_returned = us(c.h_end - h_ref);
  s.driver_calls = c.driver_calls;
  double last_end = -1;
  for (const Op &o : c.ops) {
    double b = -1, e = -1;
    if (o.before) {
      b = elapsed_us(ref, o.before);
      e = o.after ? elapsed_us(ref, o.after) : b;
      if (s.first < 0) s.first = b;
      if (last_end >= 0) s.idle += std::max(0.0, b - last_end);
      s.busy += e - b;
      last_end = std::max(last_end, e);
    }
    if (o.kind == Kind::Launch && s.host_first_launch < 0) s.host_first_launch = us(o.h_begin - h_ref);
    // Host time issuing work (a read's copy, not its wait; no wait).
    int64_t issued = o.h_queued >= 0 ? o.h_queued : o.h_end;
    if (o.kind != Kind::Wait) s.host_issue += us(issued - o.h_begin);
    s.labels.push_back(o.label);
    s.op_begin.push_back(b);
    s.op_end.push_back(e);
    s.op_host.push_back(us(o.h_begin - h_ref));
    s.op_host_took.push_back(us(o.h_end - o.h_begin));
  }
  s.tail = last_end >= 0 ? s.end - last_end : s.end;
  return s;
}

void CudaTrace::print(const Call &c, const Summary &s) const {
  std::string line = fmt::format(
      "trace: call {}{}: gpu_us end {:.1f} first_op {:.1f} busy {:.1f} idle {:.1f} tail {:.1f} "
      "| host_us first_launch {:.1f} returned {:.1f} issue {:.1f} | ops {} driver_calls {}",
      c.number, c.ev_timed_begin ? " (timed)" : "", s.end, s.first, s.busy, s.idle, s.tail,
      s.host_first_launch, s.host_returned, s.host_issue, c.ops.size(), s.driver_calls);
  std::fprintf(stderr, "%s\n", line.c_str());
  if (level_ < 2) return;
  int64_t h_ref = c.h_timed >= 0 ? c.h_timed : c.h_begin;
  double prev_end = -1;
  for (size_t i = 0; i < c.ops.size(); i++) {
    const Op &o = c.ops[i];
    auto us = [](int64_t ns) { return double(ns) / 1000.0; };
    std::string host =
        o.h_queued >= 0
            ? fmt::format("host_us {:.1f} issued +{:.1f} done +{:.1f}", us(o.h_begin - h_ref),
                          us(o.h_queued - o.h_begin), us(o.h_end - o.h_begin))
            : fmt::format("host_us {:.1f} done +{:.1f}", us(o.h_begin - h_ref),
                          us(o.h_end - o.h_begin));
    std::string gpu;
    if (o.before)
      gpu = fmt::format(" gpu_us {:.1f}..{:.1f} ({:.1f}) gap {:.1f}", s.op_begin[i], s.op_end[i],
                        s.op_end[i] - s.op_begin[i],
                        prev_end < 0 ? s.op_begin[i] : s.op_begin[i] - prev_end);
    if (o.before) prev_end = std::max(prev_end, s.op_end[i]);
    std::fprintf(stderr, "trace:   op %zu %s: %s%s\n", i, o.label.c_str(), host.c_str(), gpu.c_str());
  }
}

void CudaTrace::print_medians() const {
  if (done_.empty()) return;
  // The calls of the commonest sequence of operations (e.g. the timed runs).
  std::map<std::vector<std::string>, size_t> seqs;
  for (const Summary &s : done_) seqs[s.labels]++;
  auto common = std::max_element(seqs.begin(), seqs.end(),
                                 [](const auto &a, const auto &b) { return a.second < b.second; });
  std::vector<const Summary *> v;
  for (const Summary &s : done_)
    if (s.labels == common->first) v.push_back(&s);
  auto med = [&](auto field) {
    std::vector<double> x;
    for (const Summary *s : v) x.push_back(double(field(*s)));
    return median(x);
  };
  std::fprintf(
      stderr,
      "trace: median of %zu calls (of %zu) with the same %zu operations: gpu_us end %.1f "
      "first_op %.1f busy %.1f idle %.1f tail %.1f | host_us first_launch %.1f returned %.1f "
      "issue %.1f | driver_calls %.0f\n",
      v.size(), done_.size(), common->first.size(), med([](const Summary &s) { return s.end; }),
      med([](const Summary &s) { return s.first; }), med([](const Summary &s) { return s.busy; }),
      med([](const Summary &s) { return s.idle; }), med([](const Summary &s) { return s.tail; }),
      med([](const Summary &s) { return s.host_first_launch; }),
      med([](const Summary &s) { return s.host_returned; }),
      med([](const Summary &s) { return s.host_issue; }),
      med([](const Summary &s) { return double(s.driver_calls); }));
  double prev_end = -1;
  for (size_t i = 0; i < common->first.size(); i++) {
    double b = med([&](const Summary &s) { return s.op_begin[i]; });
    double e = med([&](const Summary &s) { return s.op_end[i]; });
    double h = med([&](const Summary &s) { return s.op_host[i]; });
    double took = med([&](const Summary &s) { return s.op_host_took[i]; });
    std::string gpu = b >= 0 ? fmt::format(" gpu_us {:.1f}..{:.1f} ({:.1f}) gap {:.1f}", b, e,
                                           e - b, prev_end < 0 ? b : b - prev_end)
                             : std::string();
    if (b >= 0) prev_end = std::max(prev_end, e);
    std::fprintf(stderr, "trace:   median op %zu %s: host_us %.1f (+%.1f)%s\n", i,
                 common->first[i].c_str(), h, took, gpu.c_str());
  }
}

#else // !KERB_HAVE_CUDA_H: no CudaDevice, so no trace.

std::unique_ptr<CudaTrace> CudaTrace::from_env(CudaDevice &) { return nullptr; }
CudaTrace::CudaTrace(CudaDevice &dev, int level) : dev_(dev), drv_(nullptr), level_(level) {}
CudaTrace::~CudaTrace() = default;
void CudaTrace::begin_call() {}
void CudaTrace::end_call() {}
void CudaTrace::timed_begin() {}
void CudaTrace::timed_end() {}
void CudaTrace::timed_done() {}
void CudaTrace::begin(Kind, std::string) {}
void CudaTrace::queued() {}
void CudaTrace::end() {}

#endif

} // namespace kerb
