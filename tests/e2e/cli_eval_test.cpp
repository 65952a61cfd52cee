// `krino eval` as a unix filter, end to end.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>

using namespace krino::test;
namespace json = boost::json;

namespace {
ProcessResult eval(const std::string& input, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {krino_binary(), "eval", "--evaluator", "echo_score", "--plugin-dir",
                                   KRINO_TESTKIT_DIR, "--plugins", "testkit"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ProcessOptions options;
  options.stdin_text = input;
  return run_process(argv, options);
}

// krino eval as a coprocess: test cases go in one at a time, and each result must come out before
// the next test case is written.
class Coprocess {
 public:
  explicit Coprocess(const std::vector<std::string>& argv) {
    int in[2], out[2];
    BOOST_REQUIRE(::pipe(in) == 0 && ::pipe(out) == 0);
    pid_ = ::fork();
    BOOST_REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
      std::vector<char*> args;
      for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Coprocess() {
    close_input();
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(from_);
  }
  void write_line(const std::string& line) {
    const std::string text = line + "\n";
    BOOST_REQUIRE(::write(to_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  // The next line of output, or "" when none comes within `timeout_ms`.
  std::string read_line(int timeout_ms) {
    while (pending_.find('\n') == std::string::npos) {
      pollfd ready{from_, POLLIN, 0};
      if (::poll(&ready, 1, timeout_ms) <= 0) return {};
      char chunk[4096];
      const ssize_t n = ::read(from_, chunk, sizeof chunk);
      if (n <= 0) return {};
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
    const std::size_t end = pending_.find('\n');
    std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    return line;
  }
  void close_input() {
    if (to_ >= 0) ::close(to_);
    to_ = -1;
  }
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string pending_;
};
}  // namespace

BOOST_AUTO_TEST_SUITE(cli_eval)

// A program that writes a test case and waits for its result before writing the next (a coprocess)
// gets each result while krino waits for more input: output is written in blocks only while there is
// input to read.
BOOST_AUTO_TEST_CASE(each_result_comes_while_the_input_waits_for_the_next_test_case) {
  Coprocess krino({krino_binary(), "eval", "--evaluator", "echo_score", "--plugin-dir", KRINO_TESTKIT_DIR,
                   "--plugins", "testkit"});
  for (int i = 0; i < 3; ++i) {
    krino.write_line(R"({"inputs":{"input":)" + std::to_string(i) + R"(},"actualOutputs":{"score":0.75}})");
    const std::string line = krino.read_line(20000);
    BOOST_REQUIRE_MESSAGE(!line.empty(), "no result for test case " << i << " while krino waits for the next");
    BOOST_TEST(json::parse(line).at("score").as_double() == 0.75);
  }
  krino.close_input();
  BOOST_TEST(krino.read_line(20000).empty());  // nothing more: the end of output
  BOOST_TEST(krino.wait() == 0);
}

BOOST_AUTO_TEST_CASE(one_result_line_per_input_line_in_order) {
  std::string input;
  for (int i = 0; i < 500; ++i) {
    input += R"({"inputs":{"input":)" + std::to_string(i) + R"(},"actualOutputs":{"score":)" +
             (i % 2 == 0 ? "1.0" : "0.25") + "}}\n";
  }
  ProcessResult r = eval(input);
  BOOST_TEST(r.exit_code == 1, r.err);  // half of them fail the 0.5 threshold
  auto lines = json_lines_of(r.out);
  BOOST_REQUIRE(lines.size() == 500u);
  for (size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST(lines[i].at("score").as_double() == (i % 2 == 0 ? 1.0 : 0.25));
    BOOST_TEST(lines[i].at("name").as_string() == "echo_score");
  }
}

BOOST_AUTO_TEST_CASE(bad_lines_get_an_error_object_and_blank_lines_are_skipped) {
  ProcessResult r = eval("{\"actualOutputs\":{}}\nnot json\n\n[1,2]\n{\"inputs\":{\"input\":3}}\n", {"--config", R"({"throw_on":[3]})"});
  BOOST_TEST(r.exit_code == 1);
  auto lines = json_lines_of(r.out);
  BOOST_REQUIRE(lines.size() == 4u);
  BOOST_TEST(lines[0].at("success").as_bool() == true);
  BOOST_TEST(lines[1].at("line").as_int64() == 2);
  BOOST_TEST(lines[1].at("error").as_object().at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(lines[2].at("line").as_int64() == 4);
  BOOST_TEST(lines[3].at("line").as_int64() == 5);
  BOOST_TEST(lines[3].at("error").as_object().at("message").as_string() == "boom on 3");
}

BOOST_AUTO_TEST_CASE(all_passing_input_exits_zero_and_reads_files_too) {
  std::string path = temp_path("cases.jsonl");
  write_file(path, "{\"actualOutputs\":{\"score\":0.9}}\n");
  ProcessResult r = run_process({krino_binary(), "eval", "-e", "echo_score", path, "--plugin-dir", KRINO_TESTKIT_DIR,
                                 "--plugins", "testkit"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(json_lines_of(r.out).size() == 1u);
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_CASE(invalid_config_exits_two) {
  BOOST_TEST(eval("{}\n", {"--config", "[1]"}).exit_code == 2);
  ProcessResult r = eval("{}\n", {"--config", R"({"max_sleep_ms":"x"})"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("/max_sleep_ms") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
