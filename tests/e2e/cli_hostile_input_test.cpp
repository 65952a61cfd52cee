// Hostile and careless input through the real binary: experiment files that crashed the
// configuration layer, and a dataset streamed through a pipe.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

using namespace krino::test;

namespace {

// Runs `krino run` over an experiment whose text is `yaml` (after a valid dataset and evaluator).
ProcessResult run_experiment_text(const std::string& yaml, const std::vector<std::string>& extra = {}) {
  const std::string data = temp_path("hostile.jsonl");
  const std::string experiment = temp_path("hostile.yaml");
  write_file(data, "{\"input\":\"q\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\"}\n");
  write_file(experiment, "dataset: " + data + "\nevaluators: [exact_match]\nreporters: []\n" + yaml);
  std::vector<std::string> argv = {krino_binary(), "run", experiment};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ProcessResult result = run_process(argv);
  std::filesystem::remove(data);
  std::filesystem::remove(experiment);
  return result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_hostile_input)

BOOST_AUTO_TEST_CASE(a_self_referencing_alias_exits_two_naming_the_line) {
  const ProcessResult r = run_experiment_text("metadata: &a {x: *a}\n");  // was SIGSEGV
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("hostile.yaml:4: an alias refers to a collection that contains it") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(an_alias_bomb_exits_two) {
  std::string yaml = "x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\nmetadata:\n";
  for (int level = 1; level <= 9; ++level) {
    yaml += "  x" + std::to_string(level) + ": &x" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) yaml += (i > 0 ? ", *x" : "*x") + std::to_string(level - 1);
    yaml += "]\n";
  }
  const ProcessResult r = run_experiment_text(yaml);  // was 4 GiB, then std::bad_alloc
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("once its aliases are expanded") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(thirty_thousand_digits_in_the_file_or_in_set_do_not_crash) {
  const std::string digits(30000, '9');
  ProcessResult r = run_experiment_text("metadata: {n: " + digits + "}\n");  // was a stack overflow
  BOOST_TEST(r.exit_code == 0, r.err);
  r = run_experiment_text("", {"--set", "metadata.n=" + digits});
  BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_the_experiment_file_exits_two_naming_line_and_column) {
  // Was accepted, and the run then failed in a reporter (exit 3).
  const ProcessResult r = run_experiment_text("name: caf\xE9\n");
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("hostile.yaml:4:10: not valid UTF-8 (byte 0xE9)") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(the_largest_seed_is_accepted) {
  const ProcessResult r = run_experiment_text("seed: 18446744073709551615\n");
  BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_CASE(a_dataset_on_stdin_is_read_once_and_every_item_scored) {
  // Was 0 items: the counting pass at open read the pipe to its end.
  const std::string experiment = temp_path("stdin.yaml");
  const std::string out = temp_path("stdin-events.jsonl");
  write_file(experiment, "dataset: {uri: /dev/stdin, resolver: jsonl}\nevaluators: [exact_match]\n"
                         "reporters: [{use: json, path: " + out + "}]\n");
  ProcessOptions options;
  for (int i = 0; i < 50; ++i)
    options.stdin_text += "{\"input\":\"q" + std::to_string(i) + "\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\"}\n";
  const ProcessResult r = run_process({krino_binary(), "run", experiment}, options);
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  std::size_t items = 0;
  for (const auto& event : json_lines(out)) {
    if (event.at("event") == "item_finished") ++items;
    if (event.at("event") == "run_finished") BOOST_TEST(event.at("summary").at("totalCount").as_int64() == 50);
  }
  BOOST_TEST(items == 50u);
  std::filesystem::remove(experiment);
  std::filesystem::remove(out);
}

BOOST_AUTO_TEST_SUITE_END()
