// kerb-cuda-bench: the hand-written CUDA versions of the benchmark suite, timed the way
// `kerb bench` times generated code (see common.h), and the harness's helpers.
//
//   kerb-cuda-bench NAME --input FILE [--runs N] [--warmup N] [--time-budget SEC]
//                   [--json FILE] [--out PREFIX]
//   kerb-cuda-bench --list
#include "common.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kcb {

void cuda_check(cudaError_t e, const char *call, const char *file, int line) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "kerb-cuda-bench: CUDA error %s (%s) in %s at %s:%d\n", cudaGetErrorName(e),
               cudaGetErrorString(e), call, file, line);
  std::exit(3);
}

void fail(const std::string &message) {
  std::fprintf(stderr, "kerb-cuda-bench: error: %s\n", message.c_str());
  std::exit(2);
}

int64_t HostArray::count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int HostArray::elem_size() const {
  if (type == "i8" || type == "u8" || type == "bool") return 1;
  if (type == "i16" || type == "u16" || type == "f16") return 2;
  if (type == "i32" || type == "u32" || type == "f32") return 4;
  if (type == "i64" || type == "u64" || type == "f64") return 8;
  fail("unknown element type '" + type + "'");
}

HostArray HostArray::make(const std::string &type, std::vector<int64_t> shape) {
  HostArray a;
  a.type = type;
  a.shape = std::move(shape);
  a.bytes.resize(size_t(a.count()) * size_t(a.elem_size()));
  return a;
}

std::vector<HostArray> read_values(const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail("cannot open '" + path + "'");
  std::vector<char> data(size_t(in.tellg()));
  in.seekg(0);
  if (!in.read(data.data(), std::streamsize(data.size()))) fail("cannot read '" + path + "'");
  std::vector<HostArray> out;
  size_t pos = 0;
  auto need = [&](size_t n) {
    if (data.size() - pos < n) fail("'" + path + "': truncated binary value");
  };
  while (pos < data.size()) {
    need(7);
    if (data[pos] != 'b' || data[pos + 1] != 2)
      fail("'" + path + "': not Futhark's binary value format at byte " + std::to_string(pos));
    int rank = static_cast<unsigned char>(data[pos + 2]);
    std::string type(data.begin() + long(pos) + 3, data.begin() + long(pos) + 7);
    type.erase(0, type.find_first_not_of(' '));
    pos += 7;
    need(8 * size_t(rank));
    std::vector<int64_t> shape(static_cast<size_t>(rank));
    std::memcpy(shape.data(), data.data() + pos, 8 * size_t(rank));
    pos += 8 * size_t(rank);
    for (int64_t d : shape)
      if (d < 0) fail("'" + path + "': negative dimension");
    HostArray a = HostArray::make(type, shape);
    need(a.bytes.size());
    std::memcpy(a.bytes.data(), data.data() + pos, a.bytes.size());
    pos += a.bytes.size();
    out.push_back(std::move(a));
  }
  return out;
}

void expect_inputs(const std::vector<HostArray> &inputs,
                   const std::vector<std::pair<std::string, int>> &types, const std::string &who) {
  auto text = [](const std::string &t, int rank) {
    std::string s;
    for (int i = 0; i < rank; i++) s += "[]";
    return s + t;
  };
  if (inputs.size() != types.size())
    fail(who + " expects " + std::to_string(types.size()) + " input values, got " +
         std::to_string(inputs.size()));
  for (size_t k = 0; k < types.size(); k++)
    if (inputs[k].type != types[k].first || int(inputs[k].shape.size()) != types[k].second)
      fail(who + ": input " + std::to_string(k + 1) + " is " +
           text(inputs[k].type, int(inputs[k].shape.size())) + ", expected " +
           text(types[k].first, types[k].second));
}

void write_npy(const HostArray &value, const std::string &path) {
  std::string descr = value.type == "bool" ? "|b1"
                      : value.type[0] == 'f'
                          ? "<f" + std::to_string(value.elem_size())
                          : (value.type[0] == 'u' ? "<u" : "<i") + std::to_string(value.elem_size());
  std::string shape = "(";
  for (size_t i = 0; i < value.shape.size(); i++)
    shape += std::to_string(value.shape[i]) + (value.shape.size() == 1 ? "," : i + 1 < value.shape.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  out.write(reinterpret_cast<const char *>(&len), 2);
  out << header;
  out.write(value.bytes.data(), std::streamsize(value.bytes.size()));
  if (!out) fail("cannot write '" + path + "'");
}

int multiprocessors() {
  static int count = 0;
  if (count == 0) {
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, dev));
  }
  return count;
}

namespace {

std::vector<BenchmarkInfo> &registry() {
  static std::vector<BenchmarkInfo> r;
  return r;
}

} // namespace

Register::Register(BenchmarkInfo info) { registry().push_back(std::move(info)); }
const std::vector<BenchmarkInfo> &benchmarks() { return registry(); }

namespace {

const char kUsage[] = R"(Usage: kerb-cuda-bench NAME --input FILE [options]
       kerb-cuda-bench --list

Runs the hand-written CUDA version NAME of a benchmark of Kerb's suite on the inputs
in FILE (Futhark's binary value format, as bench/gen_data.py writes them), timed as
`kerb bench` times generated code: --warmup untimed calls, then --runs timed calls,
each between two CUDA events on one stream; prints a JSON report (kerb-bench/1).

Options:
  --runs N            timed runs (default 10)
  --warmup N          untimed runs first (default 3)
  --time-budget SEC   stop once the timed runs have taken SEC seconds (at least 3 runs)
  --json FILE         write the report to FILE instead of stdout
  --out PREFIX        write the results of the last run to PREFIX0.npy, PREFIX1.npy, ...
  --list              list the benchmarks
)";

struct Stats {
  double median = 0, min = 0, max = 0, mean = 0;
};

Stats stats(std::vector<double> t) {
  Stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  size_t n = t.size();
  s.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
  s.min = t.front();
  s.max = t.back();
  for (double x : t) s.mean += x / double(n);
  return s;
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

std::string list(const std::vector<double> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + number(v[i]);
  return s + "]";
}

// The kernel driver's version from /proc ("580.159.04"), or "unknown".
std::string kernel_driver() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  while (std::getline(in, line)) {
    size_t k = line.find("Kernel Module");
    if (k == std::string::npos) continue;
    std::istringstream words(line.substr(k + 13));
    std::string v;
    words >> v;
    if (!v.empty()) return v;
  }
  return "unknown";
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int parse_int(const std::string &opt, const std::string &v, int min) {
  char *end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || n < min || n > 1000000) fail(opt + " needs a whole number >= " + std::to_string(min));
  return int(n);
}

} // namespace

} // namespace kcb

int main(int argc, char **argv) {
  using namespace kcb;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string name, input, json_path, out_prefix;
  int runs = 10, warmup = 3;
  double budget_s = 0;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string &a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) fail("option '" + a + "' needs a value");
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--list") {
      for (const BenchmarkInfo &b : benchmarks())
        std::printf("%-20s %s:%s  %s\n", b.name, b.program, b.entry, b.about);
      return 0;
    }
    if (a == "--input") input = value();
    else if (a == "--runs") runs = parse_int(a, value(), 1);
    else if (a == "--warmup") warmup = parse_int(a, value(), 0);
    else if (a == "--time-budget") {
      budget_s = std::atof(value().c_str());
      if (!(budget_s > 0)) fail("--time-budget needs a positive number of seconds");
    } else if (a == "--json") json_path = value();
    else if (a == "--out") out_prefix = value();
    else if (a.size() > 1 && a[0] == '-') fail("unknown option '" + a + "' (see --help)");
    else if (name.empty()) name = a;
    else fail("one benchmark at a time (unexpected '" + a + "')");
  }
  if (name.empty() || input.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const BenchmarkInfo *info = nullptr;
  for (const BenchmarkInfo &b : benchmarks())
    if (name == b.name) info = &b;
  if (!info) fail("unknown benchmark '" + name + "' (see --list)");

  std::vector<HostArray> inputs = read_values(input);
  int dev = 0;
  CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int driver_api = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver_api));

  std::unique_ptr<Benchmark> bench = info->make();
  bench->setup(inputs);
  inputs.clear();
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> device_ms, wall_ms;
  double spent = 0;
  for (int k = 0; k < warmup + runs; k++) {
    auto t0 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaEventRecord(start, stream));
    bench->run(stream);
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    bench->after_call();
    if (k < warmup) continue;
    device_ms.push_back(ms);
    wall_ms.push_back(wall);
    spent += wall;
    if (budget_s > 0 && spent > budget_s * 1000 && device_ms.size() >= 3) break;
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));

  if (!out_prefix.empty()) {
    std::vector<HostArray> results = bench->results();
    for (size_t k = 0; k < results.size(); k++)
      write_npy(results[k], out_prefix + std::to_string(k) + ".npy");
  }

  Stats s = stats(device_ms), w = stats(wall_ms);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string j;
  j += "{\n  \"schema\": \"kerb-bench/1\",\n  \"tool\": \"kerb-cuda-bench\",\n";
  j += "  \"date\": " + quote(utc_now()) + ",\n  \"host\": " + quote(host) + ",\n";
  j += "  \"device\": {\n    \"kind\": \"cuda\",\n    \"name\": " + quote(prop.name) + ",\n";
  j += "    \"compute_capability\": \"" + std::to_string(prop.major) + "." + std::to_string(prop.minor) + "\",\n";
  j += "    \"driver\": " + quote(kernel_driver()) + ",\n";
  j += "    \"cuda_driver_api\": \"" + std::to_string(driver_api / 1000) + "." + std::to_string(driver_api % 1000 / 10) + "\",\n";
  j += "    \"multiprocessors\": " + std::to_string(prop.multiProcessorCount) + "\n  },\n";
  j += "  \"clock\": \"CUDA events on one stream\",\n";
  j += "  \"timed\": \"one call: its kernel launches and the scalar read-backs the algorithm needs; "
       "buffers are allocated and inputs uploaded beforehand\",\n";
  j += "  \"settings\": {\"runs\": " + std::to_string(runs) + ", \"warmup\": " + std::to_string(warmup) +
       ", \"time_budget_s\": " + number(budget_s) + "},\n";
  j += "  \"benchmarks\": [\n    {\n      \"program\": " + quote(info->program) + ",\n      \"entry\": " +
       quote(info->entry) + ",\n      \"handwritten\": " + quote(info->name) + ",\n      \"about\": " +
       quote(info->about) + ",\n      \"input\": " + quote("input @ " + input) + ",\n";
  j += "      \"variants\": [\n        {\n          \"flags\": \"hand-written CUDA\",\n          \"status\": \"ok\",\n";
  j += "          \"runs\": " + std::to_string(device_ms.size()) + ",\n";
  j += "          \"median_ms\": " + number(s.median) + ",\n          \"min_ms\": " + number(s.min) +
       ",\n          \"max_ms\": " + number(s.max) + ",\n          \"mean_ms\": " + number(s.mean) + ",\n";
  j += "          \"wall_median_ms\": " + number(w.median) + ",\n";
  j += "          \"runs_ms\": " + list(device_ms) + ",\n          \"wall_runs_ms\": " + list(wall_ms) + "\n";
  j += "        }\n      ]\n    }\n  ]\n}\n";
  if (json_path.empty()) {
    std::fputs(j.c_str(), stdout);
  } else {
    std::ofstream out(json_path, std::ios::binary);
    out << j;
    if (!out) fail("cannot write '" + json_path + "'");
  }
  std::fprintf(stderr, "%s: median %.4f ms (min %.4f, max %.4f; %zu runs)\n", info->name, s.median, s.min,
               s.max, device_ms.size());
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
