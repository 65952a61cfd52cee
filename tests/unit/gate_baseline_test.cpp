// Run projections from krino.event/1 lines and the baseline file (docs/gate.md): projection rules,
// writing, and every read-side validation.
#include "gate_test_support.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/gate/baseline_file.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

using namespace krino::core;
using namespace krino::test;
namespace json = boost::json;

namespace {

RunProjection project(const std::vector<std::string>& lines) {
  RunProjectionBuilder builder;
  for (size_t i = 0; i < lines.size(); ++i) builder.add_event(lines[i], "test:" + std::to_string(i + 1));
  return builder.finish();
}

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool message_has(const KrinoError& e, const std::string& text) {
  const bool found = std::string(e.what()).find(text) != std::string::npos;
  if (!found) BOOST_TEST_MESSAGE("message was: " << e.what());
  return found;
}

const char* kValidItem = R"({"key":"item-0","input":"q","evaluators":[{"name":"a","score":1.0,"threshold":1.0,"pass":true}]})";

std::string baseline_text(const std::string& items, const std::string& extra = "") {
  return R"({"formatVersion":1,"experiment":"e","pairing":"positional","runsPerItem":1,)" + extra + R"("items":[)" + items + "]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gate_baseline)

BOOST_AUTO_TEST_CASE(multi_run_projection_takes_the_mean_and_the_majority_with_ties_passing) {
  const RunProjection run = project({
      run_started(0, "rag"),
      item_event(0, 0, {{"b", 0.2, false}, {"a", 1.0, true}}),
      item_event(0, 1, {{"a", 0.4, false}, {"b", 0.9, true}}),
      run_started(1, "rag"),
      item_event(1, 0, {{"a", 0.5, true}, {"b", 0.4, false}}),
      item_event(1, 1, {{"a", 0.6, true}, {"b", std::nullopt, false}}),
  });
  BOOST_TEST(run.experiment == "rag");
  BOOST_TEST(run.runs == 2u);
  BOOST_REQUIRE(run.items.size() == 2u);
  const ItemProjection& first = run.items[0];
  BOOST_REQUIRE(first.evaluators.size() == 2u);
  BOOST_TEST(first.evaluators[0].name == "a");  // sorted by name
  BOOST_TEST(*first.evaluators[0].score == 0.75);
  BOOST_TEST(first.evaluators[0].pass);   // 2 of 2
  BOOST_TEST(!first.evaluators[1].pass);  // 0 of 2
  BOOST_TEST(first.pass_probability() == 0.0);
  const ItemProjection& second = run.items[1];
  BOOST_TEST(second.evaluators[0].pass);             // 1 of 2: a tie passes
  BOOST_TEST(*second.evaluators[1].score == 0.9);    // the null score is left out of the mean
  BOOST_TEST(second.pass_probability() == 0.0);
}

BOOST_AUTO_TEST_CASE(a_run_file_is_read_line_by_line_keeping_the_last_experiment) {
  TempDir dir;
  const auto path = dir.path / "run.jsonl";
  // Two appended experiments; the last line lacks its line feed (a killed writer): skipped.
  write(path, run_started(0, "old") + "\n" + item_event(0, 0, {{"a", 0.1, false}}) + "\n" + R"({"event":"future","schema":"krino.event/1"})" +
                  "\n" + R"({"event":"item_finished","schema":"krino.event/2","index":9})" + "\n" + run_started(0, "new") + "\n" +
                  item_event(0, 0, {{"a", 0.9, true}}) + "\n" + run_finished(0) + "\n" +
                  item_event(0, 1, {{"a", 0.8, true}}).substr(0, 40));
  const RunProjection run = read_run_projection(path.string());
  BOOST_TEST(run.experiment == "new");
  BOOST_REQUIRE(run.items.size() == 1u);
  BOOST_TEST(*run.items[0].evaluators[0].score == 0.9);
  write(path, run_started(0) + "\n" + run_finished(0) + "\n");
  BOOST_CHECK_EXCEPTION(read_run_projection(path.string()), KrinoError,
                        [](const KrinoError& e) { return message_has(e, "holds no item_finished events"); });
  BOOST_CHECK_THROW(read_run_projection((dir.path / "missing.jsonl").string()), KrinoError);
}

BOOST_AUTO_TEST_CASE(a_run_that_did_not_finish_is_refused) {
  TempDir dir;
  const auto path = dir.path / "run.jsonl";
  const std::string items = item_event(0, 0, {{"a", 0.9, true}}) + "\n" + item_event(0, 1, {{"a", 0.8, true}}) + "\n";
  // Killed: no run_finished at all.
  write(path, run_started(0) + "\n" + items);
  BOOST_CHECK_EXCEPTION(read_run_projection(path.string()), KrinoError,
                        [](const KrinoError& e) { return message_has(e, "incomplete run: run 0"); });
  // Stopped with Ctrl-C: a cancelled run_finished.
  write(path, run_started(0) + "\n" + items + run_finished(0, "cancelled") + "\n");
  BOOST_CHECK_THROW(read_run_projection(path.string()), KrinoError);
  // The second of two runs missing.
  write(path, run_started(0) + "\n" + items + run_finished(0) + "\n" + run_started(1) + "\n" +
                  item_event(1, 0, {{"a", 0.9, true}}) + "\n");
  BOOST_CHECK_EXCEPTION(read_run_projection(path.string()), KrinoError,
                        [](const KrinoError& e) { return message_has(e, "run 1"); });
  write(path, run_started(0) + "\n" + items + run_finished(0) + "\n");
  BOOST_TEST(read_run_projection(path.string()).items.size() == 2u);
}

BOOST_AUTO_TEST_CASE(an_item_twice_in_one_run_is_an_error) {
  BOOST_CHECK_THROW(project({item_event(0, 3, {{"a", 1.0, true}}), item_event(0, 3, {{"a", 1.0, true}})}), KrinoError);
}

BOOST_AUTO_TEST_CASE(input_anchor_collapses_whitespace_and_cuts_at_80) {
  BOOST_TEST(input_anchor(R"({"input":"  What   is\n\t2+2?  "})") == "What is 2+2?");
  BOOST_TEST(input_anchor(R"({"input":{"b":1,"a":[1, 2]}})") == R"({"a":[1,2],"b":1})");
  BOOST_TEST(input_anchor(R"({"input":")" + std::string(100, 'x') + "\"}").size() == 80u);
  BOOST_TEST(input_anchor(R"({"input":null})") == "");
  BOOST_TEST(input_anchor(R"({"question":"q"})") == R"({"question":"q"})");
}

BOOST_AUTO_TEST_CASE(a_failed_item_cannot_be_baselined) {
  const RunProjection run = project({item_event(0, 0, {{"a", 1.0, true}}),
                                     item_event(0, 1, {}, "q-2", nullptr, std::string("task timed out"))});
  BOOST_CHECK_EXCEPTION(make_baseline(run, Pairing::automatic), KrinoError, [](const KrinoError& e) {
    return message_has(e, "item 1 (id 'q-2') failed (task timed out)");
  });
}

BOOST_AUTO_TEST_CASE(written_baselines_are_sorted_rounded_and_read_back) {
  TempDir dir;
  const RunProjection run = project({
      run_started(0, "rag"),
      item_event(0, 0, {{"z", 0.12345678, true}, {"a", 1.0, true}}, "q-b", "  What is\n 2+2? "),
      item_event(0, 1, {{"z", 0.5, true}, {"a", 0.0, false}}, "q-a", "Capital?"),
  });
  const Baseline baseline = make_baseline(run, Pairing::automatic, default_provenance());
  BOOST_TEST(baseline.pairing == Pairing::dataset_item_id);  // every item has an id
  const auto path = dir.path / "sub" / "rag.json";
  write_baseline(baseline, path);
  const json::value doc = json::parse(read(path));
  BOOST_TEST(doc.at("formatVersion").as_int64() == 1);
  BOOST_TEST(doc.at("pairing").as_string() == "dataset_item_id");
  BOOST_TEST(doc.at("runsPerItem").as_int64() == 1);
  BOOST_TEST(doc.at("dataset").at("itemCount").as_int64() == 2);
  BOOST_TEST(doc.at("provenance").at("krino").is_string());
  const auto& items = doc.at("items").as_array();
  BOOST_TEST(items[0].at("key").as_string() == "q-a");  // lexicographic id order
  BOOST_TEST(items[1].at("input").as_string() == "What is 2+2?");
  BOOST_TEST(items[1].at("evaluators").as_array()[0].at("name").as_string() == "a");
  BOOST_TEST(items[1].at("evaluators").as_array()[1].at("score").as_double() == 0.123457);
  // Nothing but the baseline is left beside it (the atomic writer's temporary is renamed away).
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
    BOOST_TEST(entry.path().filename().string().find(".krino-") == std::string::npos, entry.path());

  const Baseline back = read_baseline(path);
  BOOST_TEST(back.pairing == Pairing::dataset_item_id);
  BOOST_REQUIRE(back.items.size() == 2u);
  BOOST_TEST(back.items[1].key == "q-b");
  BOOST_TEST(*back.items[1].index == 0u);
  BOOST_TEST(*back.items[1].evaluators[1].score == 0.123457);
  // An id-keyed baseline still pairs by position, through the indexes it keeps.
  const ComparisonSide positional = side_from_baseline(back, Pairing::positional);
  BOOST_TEST(positional.items[0].key == "item-0");
  BOOST_TEST(side_from_baseline(back, Pairing::dataset_item_id).items[0].key == "q-a");
}

BOOST_AUTO_TEST_CASE(positional_pairing_is_chosen_when_some_item_lacks_an_id) {
  const RunProjection run = project({item_event(0, 0, {{"a", 1.0, true}}, "x"), item_event(0, 1, {{"a", 1.0, true}})});
  const Baseline baseline = make_baseline(run, Pairing::automatic);
  BOOST_TEST(baseline.pairing == Pairing::positional);
  BOOST_TEST(baseline.items[1].key == "item-1");
  BOOST_CHECK_THROW(make_baseline(run, Pairing::dataset_item_id), KrinoError);
  BOOST_CHECK_THROW(side_from_baseline(baseline, Pairing::dataset_item_id), KrinoError);
}

BOOST_AUTO_TEST_CASE(read_side_validation) {
  TempDir dir;
  const auto path = dir.path / "b.json";
  auto rejects = [&](const std::string& text, const std::string& expected) {
    write(path, text);
    bool thrown = false;
    try {
      read_baseline(path);
    } catch (const KrinoError& e) {
      thrown = message_has(e, expected);
    }
    BOOST_TEST(thrown, "expected an error mentioning: " << expected);
  };
  write(path, baseline_text(kValidItem));
  BOOST_TEST(read_baseline(path).items.size() == 1u);
  rejects(R"({"formatVersion":2,"items":[]})", "newer than this krino reads");
  rejects(baseline_text(kValidItem).replace(baseline_text(kValidItem).find("\"runsPerItem\":1"), 15, "\"runsPerItem\":3"),
          "runsPerItem must be 1");
  rejects(baseline_text(""), "has no items");
  rejects(baseline_text(R"({"key":"  ","evaluators":[{"name":"a","score":1,"pass":true}]})"), "blank or missing 'key'");
  rejects(baseline_text(std::string(kValidItem) + "," + kValidItem), "appears twice");
  rejects(baseline_text(R"({"key":"item-01","evaluators":[{"name":"a","score":1,"pass":true}]})"), "not a positional key");
  rejects(baseline_text(R"({"key":"row-1","evaluators":[{"name":"a","score":1,"pass":true}]})"), "not a positional key");
  rejects(baseline_text(R"({"key":"item-0","evaluators":[]})"), "has no evaluators");
  rejects(baseline_text(R"({"key":"item-0","evaluators":[{"name":"a","score":1}]})"), "needs a boolean 'pass'");
  rejects("not json", "not valid JSON");
}

BOOST_AUTO_TEST_SUITE_END()
