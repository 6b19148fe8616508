// Fresh names for the elimination passes: a name no definition, variable or size of the
// program uses, so that what a pass adds (a function's instance, a lifted function, a
// temporary) can never capture or shadow a name of the program.
#pragma once

#include "compiler/ast.h"

#include <set>
#include <string>

namespace kerb {

class NameSource {
public:
  explicit NameSource(const Program &program);
  // `base_N` for the smallest N that is free (base is the name of what it stands for;
  // an operator's name becomes `op`).
  std::string fresh(const std::string &base);

private:
  std::set<std::string> used_;
  int next_ = 0;
};

} // namespace kerb
