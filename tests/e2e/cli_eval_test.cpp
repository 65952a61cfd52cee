// `krino eval` as a unix filter, end to end.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

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
}  // namespace

BOOST_AUTO_TEST_SUITE(cli_eval)

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
