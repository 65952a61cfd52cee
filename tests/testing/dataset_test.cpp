// Datasets read through the files resolver plugin, as test parameters: examples, their test names,
// the test case built from one, and what a test sees of a dataset that cannot be read.
#include "krino/testing/error.hpp"
#include "krino/testing/evaluators.hpp"

#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace krino::testing;
namespace fs = std::filesystem;

namespace {

LoadOptions files_plugin() {
  LoadOptions options;
  options.plugins = {"files", "text"};
  options.use_plugin_path_env = false;
  return options;
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "krino-testing-dataset-test";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(testing_dataset)

BOOST_AUTO_TEST_CASE(reads_every_example_of_a_jsonl_file_in_order) {
  const std::string capitals = std::string(KRINO_SOURCE_DIR) + "/datasets/capitals.jsonl";
  const std::vector<Example> examples = read_dataset(capitals, files_plugin());
  BOOST_REQUIRE(examples.size() >= 3u);
  BOOST_TEST(examples[0].error() == "");
  BOOST_TEST(examples[0].id() == "cap-01");
  BOOST_TEST(examples[0].test_name() == "cap_01");
  BOOST_TEST(examples[2].index() == 2u);
  BOOST_TEST(examples[0].location() == capitals + ":1");
  BOOST_TEST(examples[0].input() == "What is the capital of France?");
  BOOST_TEST(examples[2].expected_output() == "Canberra");
  std::ostringstream printed;
  printed << examples[0];
  BOOST_TEST(printed.str() == "cap_01 (" + capitals + ":1)");
}

BOOST_AUTO_TEST_CASE(csv_and_json_files_read_the_same_examples) {
  const std::vector<Example> csv = read_dataset(std::string(KRINO_SOURCE_DIR) + "/datasets/capitals.csv", files_plugin());
  const std::vector<Example> jsonl = read_dataset(std::string(KRINO_SOURCE_DIR) + "/datasets/capitals.jsonl", files_plugin());
  BOOST_REQUIRE(csv.size() == jsonl.size());
  BOOST_TEST(csv[1].input() == jsonl[1].input());
  BOOST_TEST(csv[1].expected_output() == jsonl[1].expected_output());
  const fs::path json = write_file("two.json", R"({"examples":[{"input":"a","expectedOutput":"b"},{"input":"c"}]})");
  const std::vector<Example> from_json = read_dataset(json.string(), files_plugin());
  BOOST_REQUIRE(from_json.size() == 2u);
  BOOST_TEST(from_json[0].test_name() == "example_0");
  BOOST_TEST(from_json[1].test_name() == "example_1");
}

BOOST_AUTO_TEST_CASE(test_names_are_identifiers_and_unique) {
  const fs::path file = write_file("names.jsonl", "{\"id\":\"q-1\",\"input\":\"a\"}\n{\"id\":\"q 1\",\"input\":\"b\"}\n"
                                                  "{\"id\":\"caf\xc3\xa9\",\"input\":\"c\"}\n{\"input\":\"d\"}\n");
  const std::vector<Example> examples = read_dataset(file.string(), files_plugin());
  BOOST_REQUIRE(examples.size() == 4u);
  BOOST_TEST(examples[0].test_name() == "q_1");
  BOOST_TEST(examples[1].test_name() == "q_1_1");
  BOOST_TEST(examples[2].test_name() == "caf__");
  BOOST_TEST(examples[3].test_name() == "example_3");
}

BOOST_AUTO_TEST_CASE(the_test_case_of_an_example_carries_its_sections_and_the_actual_output) {
  const fs::path file =
      write_file("one.jsonl", R"({"id":"x","input":"What is 2+2?","expectedOutput":"4","metadata":{"topic":"maths"}})" "\n");
  const std::vector<Example> examples = read_dataset(file.string(), files_plugin());
  BOOST_REQUIRE(examples.size() == 1u);
  const std::string test_case = examples[0].test_case_with_output("4");
  BOOST_TEST(test_case ==
             R"({"inputs":{"input":"What is 2+2?"},"expectedOutputs":{"output":"4"},"metadata":{"topic":"maths"},)"
             R"("actualOutputs":{"output":"4"}})");
  const Evaluator exact = load_evaluators(files_plugin()).make("exact_match");
  BOOST_TEST(exact.score(test_case).passed());
  BOOST_TEST(!exact.score(examples[0].test_case(R"({"output":"5"})")).passed());
  BOOST_CHECK_THROW(examples[0].test_case("[]"), Error);
  BOOST_CHECK_THROW(examples[0].input("question"), Error);
}

BOOST_AUTO_TEST_CASE(an_unreadable_dataset_is_one_example_that_fails_whoever_uses_it) {
  const std::vector<Example> missing = read_dataset("/nonexistent/cases.jsonl", files_plugin());
  BOOST_REQUIRE(missing.size() == 1u);
  BOOST_TEST(missing[0].test_name() == "dataset_error");
  BOOST_TEST(missing[0].error().find("/nonexistent/cases.jsonl") != std::string::npos);
  BOOST_CHECK_THROW(missing[0].json(), Error);
  BOOST_CHECK_THROW(missing[0].test_case_with_output("x"), Error);

  const fs::path broken = write_file("broken.jsonl", "{\"input\":\"a\"}\n{not json\n");
  const std::vector<Example> bad = read_dataset(broken.string(), files_plugin());
  BOOST_REQUIRE(bad.size() == 1u);
  BOOST_TEST(bad[0].error().find(broken.string() + ":2") != std::string::npos, bad[0].error());

  const std::vector<Example> unknown = read_dataset("cases.parquet", files_plugin());
  BOOST_TEST(unknown[0].error().find("no dataset resolver handles 'cases.parquet'") != std::string::npos,
             unknown[0].error());
}

BOOST_AUTO_TEST_SUITE_END()
