// Which maps compiled code computes where they are read (fusion): a property of the core
// IR that the code generator follows (codegen/fn_gen.h `consumed_whole`, the host's and
// the kernels' lazy maps) and that the check passes report on
// (compiler/mark_lazy_checks.cpp), so that both agree on where a map's checks happen.
//
// A map (or iota) whose results the later statements of its body read only whole, as
// the arrays of a map, reduction or reduce_by_index (also inside their nested bodies and
// lambdas), is not stored: each reader computes its elements where it reads them. So
// its checks happen where (and as often as) it is read: inside a branch only when that
// branch runs, inside a loop once per iteration, inside another map's lambda once per
// element of that map. See docs/CHECKS.md, Note [Checks in dead code].
#pragma once

#include "compiler/core_ir.h"

#include <set>

namespace kerb::core {

// Whether `e` mentions any of `vars` (its operands, nested bodies and lambdas).
bool mentions(const Exp &e, const std::set<int> &vars);

// Whether `e` reads `vars` only whole: as arrays of a map or reduction (or as the indices
// and values of a reduce_by_index), in its nested bodies and lambdas too.
bool reads_only_whole(const Exp &e, const std::set<int> &vars);

// Whether a body holds a check site (in nested bodies and lambdas too).
bool has_sites(const Body &b);

// Whether the map `s` of `body`, or a map of `body` whose results it reads (fused into
// it), transitively, has check sites in its lambda.
bool map_chain_has_sites(const Body &body, const Stm &s);

// Whether the map or iota `s` of `body` is computed where it is read rather than stored.
// A map that nothing reads is not, when it has checks (nor any map fused into it): it is
// computed where it stands, so that its checks happen.
bool computed_where_read(const Program &p, const Body &body, const Stm &s);

} // namespace kerb::core
