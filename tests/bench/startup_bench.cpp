// Benchmark (d): start-up time of `krino plugins list` with every first-party plugin: the median and
// the best of N runs (default 50), measured end to end as a user sees it.
#include "bench_process.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  int runs = 50;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
  }
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto r = krino::bench::run_measured({krino, "plugins", "list"});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino plugins list exited %d\n", r.exit_code);
      return 1;
    }
    ms.push_back(r.seconds * 1000.0);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("krino plugins list: median %.2f ms, best %.2f ms, worst %.2f ms over %d runs\n", ms[ms.size() / 2],
              ms.front(), ms.back(), runs);
  return 0;
}
