// Real files: the repository's sample datasets and public data from tests/fixtures/shared-data.
#include "csv_resolver.hpp"
#include "files_test_support.hpp"
#include "json_resolver.hpp"
#include "jsonl_resolver.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

const std::string kSharedData = KRINO_SHARED_DATA_DIR;
const std::string kDatasets = std::string(KRINO_SOURCE_DIR) + "/datasets";

boost::test_tools::assertion_result shared_data_present(boost::unit_test::test_unit_id) {
  return std::filesystem::exists(kSharedData);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(real_data)

BOOST_AUTO_TEST_CASE(capitals_jsonl_and_csv_are_twins) {
  const Drained jsonl = drain<JsonlResolver>(kDatasets + "/capitals.jsonl");
  const Drained csv = drain<CsvResolver>("file:" + kDatasets + "/capitals.csv");
  BOOST_TEST(jsonl.info.name == "capitals");
  BOOST_TEST(*jsonl.info.size_hint == 10u);
  BOOST_TEST(*csv.info.size_hint == 10u);
  BOOST_TEST_REQUIRE(jsonl.items.size() == 10u);
  BOOST_TEST_REQUIRE(csv.items.size() == 10u);
  int right = 0;
  for (size_t i = 0; i < 10; ++i) {
    BOOST_TEST_REQUIRE(jsonl.items[i].ok);
    BOOST_TEST_REQUIRE(csv.items[i].ok);
    // Every JSONL value is a string, so the two files give identical examples.
    BOOST_TEST(boost::json::value(jsonl.items[i].example) == boost::json::value(csv.items[i].example));
    const auto& example = jsonl.items[i].example;
    if (example.at("actualOutputs").at("output") == example.at("expectedOutputs").at("output")) ++right;
  }
  BOOST_TEST(right == 6);  // the demo has wrong recorded answers on purpose
  BOOST_TEST(jsonl.items[4].example.at("expectedOutputs").at("output") == "Bras\xC3\xADlia");
  BOOST_TEST(jsonl.items[0].example.at("metadata").at("region") == "Europe");
}

BOOST_AUTO_TEST_CASE(tau_bench_trajectories_as_a_root_array, *boost::unit_test::precondition(shared_data_present)) {
  const std::string path = kSharedData + "/tau-bench/tau1_historical_gpt-4o-airline.json";
  const Drained d = drain<JsonResolver>(path);
  BOOST_TEST(d.info.name == "tau1_historical_gpt-4o-airline");
  BOOST_TEST(*d.info.size_hint == 200u);
  BOOST_TEST_REQUIRE(d.items.size() == 200u);
  BOOST_TEST(d.items[0].location == path + ":2");
  BOOST_TEST(d.items[1].location == path + ":333");  // the "{" before "task_id": 1
  for (const Item& item : d.items) {
    BOOST_TEST_REQUIRE(item.ok, item.error);
    // Not in an example shape: every field is carried in metadata, nothing is lost.
    BOOST_TEST(item.example.at("inputs").as_object().empty());
    BOOST_TEST(item.example.at("metadata").as_object().contains("traj"));
    BOOST_TEST(item.example.at("metadata").as_object().contains("task_id"));
  }
  BOOST_TEST(d.items[5].example.at("metadata").at("task_id") == 5);
}

BOOST_AUTO_TEST_CASE(api_bank_dialogue_lines, *boost::unit_test::precondition(shared_data_present)) {
  const std::string path = kSharedData + "/api-bank/level-1-given-desc/AddAlarm-level-1-1.jsonl";
  const Drained d = drain<JsonlResolver>(path);
  BOOST_TEST(d.info.name == "AddAlarm-level-1-1");
  BOOST_TEST(*d.info.size_hint == 10u);
  BOOST_TEST_REQUIRE(d.items.size() == 10u);
  BOOST_TEST(d.items[4].location == path + ":5");
  BOOST_TEST(d.items[4].example.at("metadata").at("role") == "API");
  BOOST_TEST(d.items[4].example.at("metadata").at("api_name") == "GetUserToken");
  BOOST_TEST(d.items[9].example.at("metadata").at("text") == "Alarm has been set for 8 am tomorrow.");
}

BOOST_AUTO_TEST_SUITE_END()
