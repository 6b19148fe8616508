// Finding Kerb's runtime next to the kerb binary (see runtime_layout.h).
#include "driver/runtime_layout.h"

#include "driver/cli.h"

#include <fmt/format.h>

#include <system_error>
#include <vector>

namespace kerb::driver {

RuntimeLayout find_runtime_layout() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError(fmt::format("cannot find where kerb is ({})", ec.message()));
  std::filesystem::path dir = exe.parent_path();
  std::vector<std::filesystem::path> tried;
  for (const std::filesystem::path &prefix : {dir, dir.parent_path()}) {
    RuntimeLayout l{prefix / "include", prefix / "lib"};
    tried.push_back(prefix);
    if (std::filesystem::exists(l.include / "kerb" / "kerb.h", ec) &&
        std::filesystem::exists(l.lib / "libkerb_runtime.a", ec))
      return l;
  }
  throw InputError(fmt::format("cannot find Kerb's runtime: neither {} nor {} holds "
                               "include/kerb/kerb.h and lib/libkerb_runtime.a (build the "
                               "kerb_runtime_dist target, or install Kerb)",
                               tried[0].string(), tried[1].string()));
}

} // namespace kerb::driver
