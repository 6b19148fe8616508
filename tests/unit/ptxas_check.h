// For the unit tests that emit PTX: ptxas (sm_90) must accept it, where the CUDA toolkit
// has ptxas (KERB_PTXAS, set by tests/CMakeLists.txt); otherwise a warning says why not.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

inline void check_ptxas_accepts(const std::string &ptx, const std::string &stem) {
#ifdef KERB_PTXAS
  const std::string ptxas = KERB_PTXAS;
  std::error_code ec;
  if (!std::filesystem::exists(ptxas, ec)) {
    WARN("ptxas not found at " << ptxas << "; not assembling the PTX");
    return;
  }
  auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::filesystem::path file = std::filesystem::temp_directory_path() /
                               (stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(now) + ".ptx");
  {
    std::ofstream out(file);
    REQUIRE(out);
    out << ptx;
  }
  std::string cmd = ptxas + " -arch=sm_90 " + file.string() + " -o /dev/null";
  int status = std::system(cmd.c_str());
  std::filesystem::remove(file, ec);
  INFO(cmd << "\n" << ptx);
  REQUIRE(status == 0);
#else
  (void)ptx;
  (void)stem;
  WARN("built without KERB_PTXAS; not assembling the PTX");
#endif
}
