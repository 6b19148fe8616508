// Random arguments for an entry point, from its parameter types alone: what
// `kerb dataset` prints, for programs whose data sets are not at hand (the benchmark
// suites keep theirs outside their repositories). Sizes follow the types: every size
// variable stands for one length (`[n]f32` and `[n][m]i32` share their n), size
// expressions are evaluated (`[n * m]`, `[n + 1]`), constants are kept (`[3]`), and an
// integer parameter that names a size (`(n: i64) (xs: [n]f32)`) gets that size. See
// Note [Random entry inputs] in random_inputs.cpp for the values chosen.
#pragma once

#include "compiler/ast.h"
#include "runtime/value.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerb::driver {

struct RandomInputOptions {
  int64_t size = 16;                    // the length of every size variable ...
  std::map<std::string, int64_t> sizes; // ... except these (--size-of n=K)
  uint64_t seed = 0;
  // The value of a size that names a top-level constant of the program (a library's
  // `LIMBS`, a module's `width`), if it is one: such sizes are not free.
  std::function<std::optional<int64_t>(const std::string &)> constant;
};

// The arguments of `entry`, flattened (one value per input slot, entry_io.h), made from
// `opts.seed`: the same options give the same values. Throws InputError for a size
// expression it cannot evaluate, a negative size, a size variable of --size-of that
// the entry does not have, or an argument of more than 2^27 elements.
std::vector<Value> random_entry_inputs(const FunDef &entry, const RandomInputOptions &opts);

} // namespace kerb::driver
