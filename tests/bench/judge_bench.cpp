// Judge concurrency: 10,000 items x 3 judge evaluators against the fake OpenAI-compatible server
// (in this process) at 200 ms per reply, with max_concurrency 1000. Prints the wall time of
// `krino run` against the ideal (calls x latency / concurrency), krino's peak thread count and peak
// RSS. The fake server runs on its own threads in this process, so it shares the machine's cores
// with krino: the figure includes the cost of answering 30,000 HTTP requests.
//
//   krino_judge_bench [--krino PATH] [--items N] [--latency-ms MS] [--concurrency N]
#include "bench_process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Peak "Threads:" of /proc/<pid>/status, sampled every 20 ms until the process exits.
struct Watched {
  int exit_code = -1;
  double seconds = 0;
  double peak_rss_mb = 0;
  double cpu_seconds = 0;  // user + system
  int peak_threads = 0;
};

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

int threads_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

Watched run_watched(const std::vector<std::string>& argv) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  Watched w;
  int status = 0;
  rusage usage{};
  for (;;) {
    w.peak_threads = std::max(w.peak_threads, threads_of(pid));
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  w.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  w.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  w.cpu_seconds = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  int items = 10000;
  unsigned latency_ms = 200;
  int concurrency = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--items" && i + 1 < argc) items = std::atoi(argv[++i]);
    else if (a == "--latency-ms" && i + 1 < argc) latency_ms = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--concurrency" && i + 1 < argc) concurrency = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--items N] [--latency-ms MS] [--concurrency N]\n", argv[0]);
      return 2;
    }
  }
  // The server raises nothing itself: a thousand connections need a thousand descriptors here too.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }

  krino::fake_llm::ServerOptions options;
  options.latency_ms = latency_ms;
  options.threads = 1;
  options.keep_last_requests = 1;
  options.script = krino::fake_llm::parse_script(R"({"default":{"content":"{\"score\": 1, \"reason\": \"fine\"}"}})");
  krino::fake_llm::FakeLlmServer server(std::move(options));

  const fs::path dir = fs::temp_directory_path() / "krino-judge-bench";
  fs::create_directories(dir);
  {
    std::ofstream data(dir / "cases.jsonl");
    for (int i = 0; i < items; ++i)
      data << R"({"id":"c)" << i << R"(","inputs":{"input":"question )" << i
           << R"("},"expectedOutputs":{},"actualOutputs":{"output":"answer )" << i << R"("},"metadata":{}})" << '\n';
  }
  std::ofstream(dir / "judged.yaml")
      << "name: judge-bench\ndataset: cases.jsonl\ntask: replay\n"
      << "judges:\n  default:\n    provider: openai\n    base_url: " << server.base_url() << "/v1\n"
      << "    model: bench\n    max_concurrency: " << concurrency << "\n    timeout_ms: 30000\n"
      << "judge_cache: false\nmin_pass_rate: 0\n"
      << "evaluators:\n"
         "  - llm_judge: {name: helpful, criteria: 'Is the answer helpful?'}\n"
         "  - llm_judge: {name: polite, criteria: 'Is the answer polite?'}\n"
         "  - llm_judge: {name: concise, criteria: 'Is the answer concise?'}\n";

  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const Watched w = run_watched({krino, "run", (dir / "judged.yaml").string()});
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  // This process does nothing but serve while krino runs: its CPU is the fake server's.
  const double server_cpu = seconds_of(after.ru_utime) + seconds_of(after.ru_stime) - seconds_of(before.ru_utime) -
                            seconds_of(before.ru_stime);
  if (w.exit_code != 0) {
    std::fprintf(stderr, "krino run failed with exit code %d\n", w.exit_code);
    return 1;
  }
  const double calls = 3.0 * items;
  const double ideal = calls * latency_ms / 1000.0 / concurrency;
  std::printf("%-8s %-10s %-12s %10s %10s %8s %10s %10s %10s %10s\n", "items", "calls", "concurrency", "ideal s", "wall s",
              "ratio", "threads", "peak RSS", "krino CPU", "server CPU");
  std::printf("%-8d %-10.0f %-12d %10.2f %10.2f %8.2f %10d %7.1f MB %8.2f s %8.2f s\n", items, calls, concurrency, ideal,
              w.seconds, w.seconds / ideal, w.peak_threads, w.peak_rss_mb, w.cpu_seconds, server_cpu);
  fs::remove_all(dir);
  return 0;
}
