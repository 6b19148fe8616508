// KERB_TRACE: the timeline of entry calls on the CUDA device, without a profiler (no
// nsys on the lent GPU) and without syncing. Per entry call it records CUDA events on
// the stream (at the call's start and end, before and after each launch, copy, fill and
// read-back, and where the host waits) and host clock stamps of when each runtime
// operation was issued and when its driver calls returned; and it counts the CUDA driver
// calls the call made (cuda_driver.h). The events are read once they have completed:
// after a timed region (Device::time_ms, `kerb bench`: the stop event's wait), when
// many calls are pending, and when the device is closed. Output goes to stderr, lines
// starting "trace:" (bench/README.md, "Time outside kernels", says how to read them):
//   KERB_TRACE=1  a line per call and, at the end, the medians over calls per operation;
//   KERB_TRACE=2  also a line per operation of every call.
// The events themselves cost the GPU about a microsecond each where the stream would
// otherwise go straight from one kernel to the next; the numbers are for finding where
// the time goes, not for the suite's table.
#pragma once

#include "runtime/cuda_device.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kerb {

class CudaTrace {
public:
  // A trace if KERB_TRACE is set (and not "0"), else null.
  static std::unique_ptr<CudaTrace> from_env(CudaDevice &dev);
  CudaTrace(CudaDevice &dev, int level);
  ~CudaTrace(); // reads the pending calls' events and prints the summary; never throws
  CudaTrace(const CudaTrace &) = delete;
  CudaTrace &operator=(const CudaTrace &) = delete;

  void begin_call();
  void end_call();
  // Around a timed region (Device::time_ms): before its start event, before its stop
  // event, and after the wait for the stop event (the calls in it are then printed).
  void timed_begin();
  void timed_end();
  void timed_done();

  enum class Kind { Launch, Copy, Read, Wait, Host };
  // An operation of the current call (ignored outside calls): begin() stamps the host
  // clock and, for device work and waits, records an event; queued() (device work:
  // after its driver call) stamps and records the event after it; end() stamps.
  void begin(Kind kind, std::string label);
  void queued();
  void end();

private:
  struct Op {
    Kind kind = Kind::Host;
    std::string label;
    int64_t h_begin = 0, h_queued = -1, h_end = -1; // ns, steady clock
    CUevent before = nullptr, after = nullptr;
  };
  struct Call {
    uint64_t number = 0;
    int64_t h_begin = 0, h_end = -1, h_timed = -1;
    CUevent ev_begin = nullptr, ev_end = nullptr, ev_timed_begin = nullptr,
            ev_timed_end = nullptr;
    unsigned long long driver_calls = 0;
    std::vector<Op> ops;
    bool ended = false;
  };
  // What is printed of a call (microseconds; GPU times from the call's reference event,
  // the timed region's start if any).
  struct Summary {
    double end = 0, first = -1, busy = 0, idle = 0, tail = 0;
    double host_first_launch = -1, host_returned = 0, host_issue = 0;
    unsigned long long driver_calls = 0;
    std::vector<std::string> labels;
    // Per op: GPU begin and end, when the host began it and how long it took there.
    std::vector<double> op_begin, op_end, op_host, op_host_took;
  };

  CUevent record();
  float elapsed_us(CUevent from, CUevent to) const;
  void release(CUevent &e);
  // Prints (and frees) the ended calls whose events have completed; `wait`: waits for
  // them.
  void flush(bool wait);
  Summary summarize(const Call &c) const;
  void print(const Call &c, const Summary &s) const;
  void print_medians() const;

  CudaDevice &dev_;
  const CudaDriver *drv_; // uncounted: the trace's own calls are not the runtime's
  int level_;
  std::vector<CUevent> free_events_;
  std::vector<Call> calls_; // pending
  bool in_call_ = false, timed_ = false;
  int64_t pending_timed_h_ = -1;
  CUevent pending_timed_ev_ = nullptr;
  uint64_t next_call_ = 1;
  unsigned long long calls_at_begin_ = 0;
  std::vector<Summary> done_;
};

} // namespace kerb
