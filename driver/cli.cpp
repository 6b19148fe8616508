// Shared command-line helpers for the `kerb` subcommands (see cli.h).
#include "driver/cli.h"

#include <fmt/format.h>

#include <cstdio>

namespace kerb::driver {

void print_error(const std::string &message) {
  std::fprintf(stderr, "kerb: error: %s\n", message.c_str());
}

bool looks_like_option(const std::string &arg) {
  return arg.size() > 1 && arg[0] == '-';
}

bool match_option(const std::vector<std::string> &args, size_t &i,
                  std::initializer_list<std::string_view> names, std::string &value) {
  const std::string &arg = args[i];
  for (std::string_view name : names) {
    if (arg == name) {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("option '{}' needs a value", name));
      value = args[++i];
      return true;
    }
    bool is_long = name.size() > 2 && name.substr(0, 2) == "--";
    if (is_long && arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 &&
        arg[name.size()] == '=') {
      value = arg.substr(name.size() + 1);
      return true;
    }
  }
  return false;
}

Device parse_device(const std::string &name) {
  if (name == "interp") return Device::Interp;
  if (name == "cpu") return Device::Cpu;
  if (name == "cuda") return Device::Cuda;
  throw UsageError(fmt::format("unknown device '{}' (expected interp, cpu or cuda)", name));
}

std::string device_name(Device d) {
  switch (d) {
  case Device::Interp: return "interp";
  case Device::Cpu: return "cpu";
  case Device::Cuda: return "cuda";
  }
  return "?";
}

std::string unknown_option(const std::string &cmd, const std::string &arg) {
  return fmt::format("unknown option '{}' for 'kerb {}'", arg, cmd);
}

int64_t parse_whole_number(const std::string &opt, const std::string &v) {
  size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(v, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (v.empty() || used != v.size() || n < 0)
    throw UsageError(fmt::format("{} needs a whole number >= 0 (got '{}')", opt, v));
  return n;
}

double parse_nonnegative_number(const std::string &opt, const std::string &v) {
  try {
    size_t used = 0;
    double x = std::stod(v, &used);
    if (used == v.size() && x >= 0) return x;
  } catch (const std::exception &) {
  }
  throw UsageError(fmt::format("{} needs a non-negative number, not '{}'", opt, v));
}

} // namespace kerb::driver
