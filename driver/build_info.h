// What `kerb` was built from, for `kerb --version` and benchmark reports: the version and
// the commit (`git describe --always --dirty` at build time, "unknown" outside git).
#pragma once

namespace kerb::driver {

constexpr const char *kVersion = "0.1.0";
const char *build_commit();

} // namespace kerb::driver
