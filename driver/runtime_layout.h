// Where Kerb's runtime and headers are, for building against compiled libraries (`kerb
// config`, `kerb compile --shared`): next to the `kerb` binary, in a build tree (kerb
// beside include/ and lib/) or in an install (bin/kerb beside them).
#pragma once

#include <filesystem>

namespace kerb::driver {

struct RuntimeLayout {
  std::filesystem::path include, lib; // include/kerb/kerb.h, lib/libkerb_runtime.a
};

// Throws InputError (driver/cli.h) naming the places tried when there is none.
RuntimeLayout find_runtime_layout();

} // namespace kerb::driver
