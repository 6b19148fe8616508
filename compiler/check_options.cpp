// The check toggles (see check_options.h).
#include "compiler/check_options.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kerb {

namespace {
constexpr int kNumKinds = 6;
} // namespace

std::string CheckOptions::str() const {
  if (unsafe) return "none";
  std::string out;
  for (int k = 0; k < kNumKinds; k++)
    if (enabled(FailureKind(k))) out += (out.empty() ? "" : ",") + std::string(failure_kind_name(FailureKind(k)));
  return out.empty() ? "none" : out;
}

std::string CheckOptions::why_disabled(FailureKind k) const {
  if (unsafe) return "--unsafe";
  if (enabled(k)) return "";
  if (k == FailureKind::NaN) return "nan is opt-in: --checks=default,nan";
  return fmt::format("{} is not in --checks", failure_kind_name(k));
}

std::string check_kind_names() {
  std::string out;
  for (int k = 0; k < kNumKinds; k++) out += (k ? ", " : "") + std::string(failure_kind_name(FailureKind(k)));
  return out;
}

uint32_t parse_check_kinds(const std::string &list) {
  uint32_t kinds = 0;
  size_t start = 0;
  if (list.empty())
    throw std::invalid_argument("--checks needs at least one kind (use --unsafe for no checks)");
  for (;;) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    FailureKind k;
    if (name == "all") {
      kinds |= (1u << kNumKinds) - 1;
    } else if (name == "default") {
      kinds |= CheckOptions::kDefaultKinds;
    } else if (failure_kind_from_name(name, k)) {
      kinds |= 1u << int(k);
    } else if (name.empty()) {
      throw std::invalid_argument(fmt::format("empty kind in --checks '{}'", list));
    } else {
      throw std::invalid_argument(fmt::format(
          "unknown check kind '{}' in --checks (expected {}, all or default)", name,
          check_kind_names()));
    }
    if (comma == std::string::npos) return kinds;
    start = comma + 1;
  }
}

} // namespace kerb
