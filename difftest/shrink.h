// Shrinking for `kerb difftest`: smaller variants of a generated program and of its
// input, for reducing a program that shows a difference to a small reproducer. The
// variants are not checked here: some do not type-check (a removed binding that is
// still used) or no longer show the difference; the caller tries them in order and
// keeps the first that still does, then asks again (greedy reduction).
#pragma once

#include "difftest/program_gen.h"

#include <vector>

namespace kerb::difftest {

struct Case {
  GProgram program;
  GenInput input;
};

// Variants of `c` that are smaller, the ones that remove most first: dropped
// statements, results, helper functions and parameters (with their arguments),
// expressions replaced by a child of the same type or by a literal, simpler literals.
std::vector<Case> shrink_program(const Case &c);

// Variants with smaller inputs: shorter arrays (n and m shrink together in every
// array of that size), then simpler elements and scalars (0, 1).
std::vector<Case> shrink_input(const Case &c);

// A measure of size, to prefer smaller cases: the length of the source plus the
// number of input elements.
size_t case_size(const Case &c);

} // namespace kerb::difftest
