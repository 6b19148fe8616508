// Shared helpers of the libFuzzer targets (tests/fuzz/): how a target turns the
// fuzzer's bytes into a source file, and what counts as a bug. A CompileError (or a
// ValueError/NpyError for value input) is the expected answer to bad input; any other
// exception escaping a target is a bug and aborts, so that libFuzzer reports it with
// the input that caused it. Sanitizer reports, crashes and hangs are caught by
// libFuzzer itself.
//
// Targets run their body on a thread with a 128 MB stack: AddressSanitizer makes stack
// frames several times larger, and the front end's nesting limits (parser.cpp, Note
// [Nesting limits]) are sized for the 8 MB main stack of a normal build, where
// tests/cli checks the deepest programs they allow.
#pragma once

#include "compiler/source.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <pthread.h>
#include <string>

namespace kerb::fuzz {

inline std::shared_ptr<const SourceFile> source_from(const uint8_t *data, size_t size) {
  return std::make_shared<const SourceFile>("fuzz.fut",
                                            std::string(reinterpret_cast<const char *>(data), size));
}

// Runs `body`; a CompileError is fine (its rendering must work too), anything else
// aborts with the exception's text.
template <typename F> void expect_only_compile_errors(F body) {
  try {
    body();
  } catch (const CompileError &e) {
    std::string text = e.render();
    if (text.empty()) {
      std::fprintf(stderr, "fuzz: a diagnostic rendered as nothing\n");
      std::abort();
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz: unexpected exception: %s\n", e.what());
    std::abort();
  }
}

// Runs body() on a thread with a large stack and waits for it.
template <typename F> void on_big_stack(F body) {
  struct Call {
    static void *run(void *arg) {
      (*static_cast<F *>(arg))();
      return nullptr;
    }
  };
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, size_t(128) << 20) != 0 ||
      pthread_create(&thread, &attr, &Call::run, &body) != 0) {
    std::fprintf(stderr, "fuzz: cannot start a thread\n");
    std::abort();
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

} // namespace kerb::fuzz
