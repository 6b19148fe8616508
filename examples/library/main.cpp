// The C++ side of the same library (scores.fut): kerb::Context, kerb::Array and
// kerb::Opaque free themselves, each entry point is a function in namespace
// kerb::scores (and each field of a record type: summary_lo), and a failure is a
// kerb::Error.
//
// Usage: scores_cpp [DEVICE]    DEVICE: cpu, cuda, cuda:N (default: a GPU if there is one)
#include "scores.h"

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  try {
    kerb::Context ctx(argc > 1 ? argv[1] : "");
    std::printf("device: %s\n", ctx.device().c_str());
    std::vector<float> readings = {3.5f, 4.0f, 2.5f, 9.0f, 4.5f, 3.0f, 5.5f, 4.0f};
    kerb::Array<float, 1> xs(ctx, readings, {int64_t(readings.size())});

    std::printf("mean: %.3f\n", kerb::scores::mean(ctx, xs));
    std::printf("normalised:");
    for (float x : kerb::scores::normalise(ctx, xs).values()) std::printf(" %.3f", x);
    std::printf("\n");

    auto summary = kerb::scores::summarise(ctx, xs); // a kerb::Opaque, freed by itself
    std::printf("summary: %lld readings in [%.3f, %.3f]\n", (long long)kerb::scores::summary_count(ctx, summary),
                kerb::scores::summary_lo(ctx, summary), kerb::scores::summary_hi(ctx, summary));

    try {
      kerb::Array<int64_t, 1> positions(ctx, std::vector<int64_t>{0, 12, 3}, {3});
      std::vector<float> picked = kerb::scores::pick(ctx, xs, positions).values();
      std::printf("the bad call was not reported\n");
      return 1;
    } catch (const kerb::Error &e) {
      std::printf("bad call reported (code %d):\n%s\n", e.code(), e.what());
    }

    kerb::Array<int64_t, 1> positions(ctx, std::vector<int64_t>{7, 0}, {2});
    std::vector<float> picked = kerb::scores::pick(ctx, xs, positions).values();
    std::printf("picked: %.3f %.3f\n", picked[0], picked[1]);
    return 0;
  } catch (const kerb::Error &e) {
    std::fprintf(stderr, "scores_cpp: %s\n", e.what());
    return 1;
  }
}
