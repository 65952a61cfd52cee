// Evaluators in worker processes (issue 19): `krino run` on the agent workload (agent_cases.hpp)
// with one evaluator, run four ways, as cases per second and ratios:
//   in process         exact_match, a plugin called through the ABI (µs per case)
//   isolation          the same plugin under isolation: process (krino-plugin-host workers)
//   python worker      a trivial Python evaluator (score 1) through use: subprocess; its handshake
//                      says it reads no section ("reads": []), so requests carry an empty test case
//   python, whole case the same without "reads": every request carries the whole test case, which
//                      it json.loads (what a worker that does not declare its reads costs)
//   python, id only    the same, reading only each request's id (no json.loads at all)
//   node worker        the trivial evaluator in Node ("reads": []), when `node` is on PATH
//   python http        a trivial Python server (sdk/examples/http_python's helper, score 1) through
//                      use: http_evaluator, batches of up to 32 cases, 2 requests in flight; its
//                      handshake says "reads": [], as the python worker's does
//   python http, 1     the same, one case per request (batch: 1), --workers requests in flight
// Workers: --workers (default 2, the cores of the reference machine); test cases in flight:
// --parallelism (default 64), so a worker can have several requests in flight (pipelining).
//
//   krino_evaluator_worker_bench [--krino PATH] [--workdir DIR] [--items N] [--workers W]
//                                [--parallelism P] [--only TEXT]   (defaults: 100000 items, 2, 64)
// --only runs the modes whose name contains TEXT (the first, in process, always runs: the ratios'
// base).
#include "agent_cases.hpp"
#include "bench_process.hpp"

#include "test_paths.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <thread>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// Each reads what has arrived, answers every whole line in it, and writes the answers in one go
// (docs/sdk.md, "Reading and writing fast"), so pipelined requests cost one read and one write per
// batch rather than per case (a read takes up to 1 MiB, what krino's pipe to a worker holds).
//
// The trivial Python worker: its handshake with or without "reads": [], then kPythonTrivialBody.
std::string python_trivial(bool reads_nothing) {
  return std::string("import json, os, sys\nout = sys.stdout.buffer\n"
                     "out.write(json.dumps({\"protocol\": \"krino.evaluatorworker/1\",\n"
                     "                      \"evaluator\": {\"id\": \"bench.trivial_py\", \"name\": \"trivial\"}") +
         (reads_nothing ? ", \"reads\": []" : "") + "}).encode() + b\"\\n\")";
}

constexpr const char* kPythonTrivialBody = R"(
out.flush()
rest = b""
while True:
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    lines = (rest + chunk).split(b"\n")
    rest = lines.pop()
    answers = []
    for line in lines:
        message = json.loads(line)
        if "configure" in message:
            answers.append(b'{"configured":true}\n')
        else:
            answers.append(b'{"id":%d,"result":{"name":"trivial","score":1,"success":true}}\n' % message["id"])
    out.write(b"".join(answers))
    out.flush()
)";

// The same without parsing the test case: it reads only the id (krino writes it first). What is
// left is the protocol's own cost; the parse above is Python's (json.loads of each request: a 3 to
// 5 KB test case without "reads", an empty one with "reads": []).
constexpr const char* kPythonIdOnly = R"(import json, os, sys
out = sys.stdout.buffer
out.write(json.dumps({"protocol": "krino.evaluatorworker/1",
                      "evaluator": {"id": "bench.trivial_py_id", "name": "trivial"}, "reads": []}).encode() + b"\n")
out.flush()
rest = b""
while True:
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    lines = (rest + chunk).split(b"\n")
    rest = lines.pop()
    answers = []
    for line in lines:
        if line.startswith(b'{"configure"'):
            answers.append(b'{"configured":true}\n')
        else:
            answers.append(b'{"id":%s,"result":{"name":"trivial","score":1,"success":true}}\n' % line[6:line.index(b",")])
    out.write(b"".join(answers))
    out.flush()
)";

constexpr const char* kNodeTrivial = R"(process.stdout.write(JSON.stringify({protocol: 'krino.evaluatorworker/1', evaluator: {id: 'bench.trivial_js', name: 'trivial'}, reads: []}) + '\n');
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  let answers = '';
  for (const line of lines) {
    const message = JSON.parse(line);
    answers += message.configure !== undefined ? '{"configured":true}\n'
      : '{"id":' + message.id + ',"result":{"name":"trivial","score":1,"success":true}}\n';
  }
  process.stdout.write(answers);
});
)";

// A trivial evaluator served over HTTP by the SDK example's helper (ThreadingHTTPServer): it
// parses each batch with json.loads, as any server does, and scores every case 1. It reads no
// section, and says so, so its batches carry empty test cases.
constexpr const char* kPythonHttpTrivial = R"(import os, sys
sys.path.insert(0, sys.argv[1])
from krino_http_evaluator import make_server

class Trivial:
    def __init__(self, options):
        pass
    def evaluate(self, test_case, context):
        return {"name": "trivial", "score": 1, "success": True}

server = make_server({"id": "bench.trivial_http", "name": "trivial"}, Trivial, reads=[])
with open(sys.argv[2] + ".tmp", "w") as out:
    out.write("http://%s:%d/" % server.server_address[:2])
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
)";

// The HTTP server for the http modes, for as long as the object lives.
class HttpServerChild {
 public:
  HttpServerChild(const fs::path& script, const fs::path& url_file) {
    fs::remove(url_file);
    std::vector<std::string> args = {"/usr/bin/env", "python3", script.string(),
                                     std::string(krino::test::paths::source_dir()) + "/sdk/examples/http_python",
                                     url_file.string()};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int waited = 0; waited < 1000 && !fs::exists(url_file); ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream(url_file) >> url;
  }
  ~HttpServerChild() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  HttpServerChild(const HttpServerChild&) = delete;
  HttpServerChild& operator=(const HttpServerChild&) = delete;

  // User and system CPU seconds the server has used so far (it is not krino's child, so krino's
  // rusage leaves it out).
  double cpu_seconds() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t end_of_name = stat.rfind(')');
    if (end_of_name == std::string::npos) return 0;
    std::istringstream fields(stat.substr(end_of_name + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
      if (i == 14 || i == 15) ticks += std::strtod(field.c_str(), nullptr);  // utime, stime
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
  }

  std::string url;  // empty when the server did not start

 private:
  pid_t pid_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  unsigned long long items = 100000;
  unsigned workers = 2;
  unsigned parallelism = 64;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--items" && i + 1 < argc) items = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--workers" && i + 1 < argc) workers = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--parallelism" && i + 1 < argc)
      parallelism = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--workdir DIR] [--items N] [--workers W] [--parallelism P] [--only TEXT]\n",
                   argv[0]);
      return 2;
    }
  }
  if (items == 0 || workers == 0 || parallelism == 0) {
    std::fprintf(stderr, "--items, --workers and --parallelism must be positive\n");
    return 2;
  }
  fs::create_directories(workdir);
  const fs::path data = workdir / ("agent-cases-" + std::to_string(items) + ".jsonl");
  if (!fs::exists(data)) krino::bench::generate_agent_cases(data, items);
  const fs::path python = workdir / "trivial_evaluator.py";
  std::ofstream(python) << python_trivial(true) << kPythonTrivialBody;
  const fs::path python_whole = workdir / "trivial_evaluator_whole_case.py";
  std::ofstream(python_whole) << python_trivial(false) << kPythonTrivialBody;
  const fs::path python_id_only = workdir / "trivial_evaluator_id_only.py";
  std::ofstream(python_id_only) << kPythonIdOnly;
  const fs::path node = workdir / "trivial_evaluator.js";
  std::ofstream(node) << kNodeTrivial;
  const bool have_node = std::system("node --version > /dev/null 2>&1") == 0;
  const fs::path python_http = workdir / "trivial_http_evaluator.py";
  std::ofstream(python_http) << kPythonHttpTrivial;
  const HttpServerChild http_server(python_http, workdir / "trivial_http_evaluator.url");
  if (http_server.url.empty()) {
    std::fprintf(stderr, "the trivial HTTP evaluator did not start: python3 %s\n", python_http.string().c_str());
    return 1;
  }

  const std::string w = std::to_string(workers);
  struct Mode {
    const char* name;
    std::string evaluator;
  };
  const Mode modes[] = {
      {"in process", "exact_match"},
      {"isolation", "{use: exact_match, isolation: process, workers: " + w + "}"},
      {"python worker", "{use: subprocess, workers: " + w + ", command: [python3, '" + python.string() + "']}"},
      {"python, whole case", "{use: subprocess, workers: " + w + ", command: [python3, '" + python_whole.string() + "']}"},
      {"python, id only", "{use: subprocess, workers: " + w + ", command: [python3, '" + python_id_only.string() + "']}"},
      {"node worker", "{use: subprocess, workers: " + w + ", command: [node, '" + node.string() + "']}"},
      {"python http", "{use: http_evaluator, url: '" + http_server.url + "', concurrency: 2, batch: 32}"},
      {"python http, 1", "{use: http_evaluator, url: '" + http_server.url + "', concurrency: " + w + ", batch: 1}"},
  };
  std::printf("agent workload, %llu cases, one evaluator, %u workers, parallelism %u\n", items, workers, parallelism);
  std::printf("%-18s %10s %12s %8s %8s %10s %12s\n", "mode", "seconds", "cases/s", "user s", "sys s", "peak RSS",
              "vs in process");
  double in_process_seconds = 0;
  for (const Mode& mode : modes) {
    if (std::string(mode.name) == "node worker" && !have_node) continue;
    if (!only.empty() && &mode != &modes[0] && std::string(mode.name).find(only) == std::string::npos) continue;
    const fs::path experiment = workdir / "evaluator-worker-bench.yaml";
    std::ofstream(experiment) << "name: evaluator-worker-bench\ndataset: " << data.string()
                              << "\ntask: replay\nevaluators: [" << mode.evaluator
                              << "]\nreporters: []\nmin_pass_rate: 0\nparallelism: " << parallelism << "\n";
    const bool http = std::string(mode.name).find("http") != std::string::npos;
    const double server_cpu_before = http ? http_server.cpu_seconds() : 0;
    auto r = krino::bench::run_measured({krino, "run", experiment.string()});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino run (%s) failed with exit code %d; run it by hand: %s run %s\n", mode.name,
                   r.exit_code, krino.c_str(), experiment.string().c_str());
      return 1;
    }
    if (in_process_seconds == 0) in_process_seconds = r.seconds;
    std::printf("%-18s %10.2f %12.0f %8.2f %8.2f %7.1f MB %11.2fx\n", mode.name, r.seconds,
                static_cast<double>(items) / r.seconds, r.user_seconds, r.system_seconds, r.peak_rss_mb,
                r.seconds / in_process_seconds);
    if (http) std::printf("%-16s server CPU %.2f s (user + system)\n", "", http_server.cpu_seconds() - server_cpu_before);
    std::fflush(stdout);
  }
  return 0;
}
