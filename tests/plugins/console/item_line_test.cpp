#include "console_test_support.hpp"
#include "events.hpp"
#include "item_line.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::console;
namespace t = krino::console::testing;

namespace {
// The event's text is kept: the model's results and sections are views into it.
struct ParsedItem : ItemFinished {
  explicit ParsedItem(std::string event) : text(std::make_shared<std::string>(std::move(event))) {
    static_cast<ItemFinished&>(*this) = krino::event::read_item_finished(*text);
  }
  std::shared_ptr<std::string> text;
  Verdict verdict() const { return verdict_of(*this); }
};
ParsedItem parse_item(const std::string& event) { return ParsedItem(event); }
}  // namespace

BOOST_AUTO_TEST_SUITE(console_item_line)

BOOST_AUTO_TEST_CASE(a_failed_item_names_its_id_score_threshold_and_reason) {
  const ParsedItem item = parse_item(t::failing_item(0, 12, "q-13", "expected \"Paris\""));
  BOOST_TEST((item.verdict() == Verdict::fail));
  BOOST_TEST(tagged_line(item.verdict(), describe_item(item, 1), Style(false)) ==
             "FAIL #12 (id q-13) exact_match 0.00 < 1.00: expected \"Paris\"");
}

BOOST_AUTO_TEST_CASE(a_dataset_error_is_placed_by_its_location) {
  const ParsedItem item = parse_item(t::errored_item(0, 7, std::nullopt, "data.jsonl:8", "dataset", "jsonl",
                                                     "INVALID_ARGUMENT", "not valid JSON"));
  BOOST_TEST((item.verdict() == Verdict::error));
  BOOST_TEST(tagged_line(item.verdict(), describe_item(item, 1), Style(false)) == "ERROR #7 data.jsonl:8 dataset: not valid JSON");
}

BOOST_AUTO_TEST_CASE(task_and_evaluator_errors_name_the_component) {
  const ParsedItem task = parse_item(t::errored_item(2, 2, "q-3", "data.jsonl:3", "task", "http", "DEADLINE_EXCEEDED",
                                                     "no reply within 30 s"));
  BOOST_TEST(describe_item(task, 3) == "#2 (id q-3) [run 3/3] task http: no reply within 30 s");
  const ParsedItem silent =
      parse_item(t::errored_item(0, 4, "q-5", std::nullopt, "evaluator", "exact_match", "INTERNAL", ""));
  BOOST_TEST(describe_item(silent, 1) == "#4 (id q-5) evaluator exact_match: INTERNAL");
}

BOOST_AUTO_TEST_CASE(null_scores_missing_thresholds_and_several_failures) {
  const ParsedItem item = parse_item(t::item(
      0, 3, std::nullopt, std::nullopt,
      {t::result("faithfulness", std::nullopt, false, 0.7, "judge reply\nunreadable"),
       t::result("exact_match", 1.0, true, 1.0), t::result("hallucination", 0.8, false, 0.5, "made up a date"),
       t::result("custom", 0.25, false, std::nullopt), t::result("tie", 0.801, false, 0.8)}));
  BOOST_TEST(describe_item(item, 1) ==
             "#3 faithfulness null: judge reply unreadable; hallucination 0.80 > 0.50: made up a date; custom 0.25; "
             "tie 0.80 = 0.80");
}

BOOST_AUTO_TEST_CASE(passing_items_are_not_described_further) {
  const ParsedItem item = parse_item(t::passing_item(0, 0, "q-1"));
  BOOST_TEST((item.verdict() == Verdict::pass));
  for (const auto& result : item.results) BOOST_TEST(result.success);
}

BOOST_AUTO_TEST_CASE(an_unsuccessful_item_without_failing_results_still_says_something) {
  boost::json::object e = boost::json::parse(t::passing_item(0, 5, "q-6")).as_object();
  e["success"] = false;
  const ParsedItem item = parse_item(boost::json::serialize(e));
  BOOST_TEST(describe_item(item, 1) == "#5 (id q-6) failed without a failing evaluator result");
}

BOOST_AUTO_TEST_CASE(tags_are_coloured_only_when_asked) {
  BOOST_TEST(tagged_line(Verdict::fail, "#1", Style(true)) == "\x1b[31mFAIL\x1b[0m #1");
  BOOST_TEST(tagged_line(Verdict::error, "#1", Style(true)) == "\x1b[33mERROR\x1b[0m #1");
}

BOOST_AUTO_TEST_SUITE_END()
